/**
 * The store unreachable and back, in cluster mode: every process reaches MongoDB through a pass-through
 * on a fixed port, which is cut (as if MongoDB stopped) and opened again. While it is down, requests
 * that need the store get 503 with Retry-After in the error envelope within a few seconds, not a 500 and
 * not a hang; once it is back, the same processes serve again without a restart.
 */
import { ADMIN, type ApiResponse } from './support/app';
import { startCluster, type Cluster } from './support/cluster';
import { hostPort, startTcpProxy, type TcpProxy } from './support/tcp-proxy';

/** A request that needs the store while it is down is answered within this (no hang). */
const NO_HANG_MS = 8000;

let cluster: Cluster;
let proxy: TcpProxy;

beforeAll(async () => {
  const mongoUrl = process.env.TEST_MONGO_URL!;
  const target = hostPort(mongoUrl);
  proxy = await startTcpProxy(target.host, target.port);
  cluster = await startCluster({ mongoUrl: mongoUrl.replace(`${target.host}:${target.port}`, `127.0.0.1:${proxy.port}`) });
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await proxy?.close();
}, 60000);

async function timed(p: Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const started = Date.now();
  const res = await p;
  return { res, ms: Date.now() - started };
}

it('answers 503 with Retry-After while the store is down and recovers when it is back', async () => {
  const made = await cluster.admin('POST', '/cms/v2/posts', { body: { title: 'Before the outage', status: 'publish' } });
  expect(made.status).toBe(201);
  const event = await cluster.admin('POST', '/vendor/events/v1/events', {
    body: { title: 'Outage event', start_date: '2033-05-01 10:00:00', end_date: '2033-05-01 11:00:00' },
  });
  expect(event.status).toBe(201);

  await proxy.down();

  const answers = await Promise.all([
    timed(cluster.request('GET', '/cms/v2/posts')),
    timed(cluster.request('GET', `/cms/v2/posts/${made.body.id}`)),
    timed(cluster.request('GET', `/vendor/events/v1/events/${event.body.id}`)),
    timed(cluster.admin('POST', '/cms/v2/posts', { body: { title: 'During the outage', status: 'publish' } })),
    timed(cluster.request('GET', '/cms/v2/posts', { auth: [ADMIN.login, ADMIN.appPassword] })),
  ]);
  if (answers.some(({ res }) => res.status !== 503)) {
    // What the processes logged, so that an answer other than 503 can be traced to the error behind it.
    for (const p of cluster.procs.values()) {
      const lines = p.output
        .join('')
        .split('\n')
        .filter((l) => /"level":(50|60)|request failed|handler failed/.test(l));
      if (lines.length) process.stderr.write(`${p.name}:\n${lines.slice(-10).join('\n')}\n`);
    }
  }
  for (const { res, ms } of answers) {
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 503, code: 'rest_service_unavailable' });
    expect(res.body.data.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.data.retry_after).toBe(Number(res.headers.get('retry-after')));
    expect(JSON.stringify(res.body)).not.toMatch(/Mongo|stack|at \w+ \(/);
    expect(ms).toBeLessThan(NO_HANG_MS);
  }

  await proxy.up();

  // The same processes serve again once the driver has reconnected.
  let read: ApiResponse | undefined;
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline && read?.status !== 200) {
    read = await cluster.request('GET', `/cms/v2/posts/${made.body.id}`);
    if (read.status !== 200) {
      expect(read.status).toBe(503);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  expect(read?.status).toBe(200);
  expect(read?.body.title.rendered).toBe('Before the outage');
  const after = await cluster.admin('POST', '/cms/v2/posts', { body: { title: 'After the outage', status: 'publish' } });
  expect(after.status).toBe(201);
  const ev = await cluster.request('GET', `/vendor/events/v1/events/${event.body.id}`);
  expect(ev.status).toBe(200);
  const list = await cluster.request('GET', '/cms/v2/posts?search=outage');
  expect(list.body.map((p: { title: { rendered: string } }) => p.title.rendered).sort()).toEqual(['After the outage', 'Before the outage']);
  for (const p of cluster.procs.values()) expect(p.child.exitCode).toBeNull();
}, 120000);
