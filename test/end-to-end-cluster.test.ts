/**
 * Cluster mode end to end: the gateway, each service and a worker as separate processes on loopback,
 * MongoDB through the adapter, BullMQ on real Redis, and signed HTTP between them.
 */
import { ADMIN } from './support/app';
import { startCluster, type Cluster } from './support/cluster';
import { sign } from '#libs/rest/remote';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 180000);

afterAll(async () => {
  await cluster?.stop();
}, 60000);

describe('cluster mode', () => {
  it('serves the site index through the gateway', async () => {
    const res = await cluster.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(cluster.gatewayUrl);
    expect(res.body.routes['/cms/v2/users']).toBeDefined();
  });

  it('authenticates through the gateway and reaches the content service with the caller', async () => {
    const me = await cluster.admin('GET', '/cms/v2/users/me?context=edit');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(ADMIN.login);
    expect(me.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');

    const created = await cluster.admin('POST', '/cms/v2/users', {
      body: { username: 'clusterEd', email: 'ced@example.com', password: 'pw-12345', roles: ['editor'] },
    });
    expect(created.status).toBe(201);
    const ap = await cluster.admin('POST', `/cms/v2/users/${created.body.id}/application-passwords`, { body: { name: 'cli' } });
    expect(ap.status).toBe(201);
    const asEditor = await cluster.request('GET', '/cms/v2/users/me', { auth: ['clusterEd', ap.body.password] });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body.id).toBe(created.body.id);
    const wrong = await cluster.request('GET', '/cms/v2/users/me', { auth: ['clusterEd', 'xxxx xxxx xxxx xxxx xxxx xxxx'] });
    expect(wrong.status).toBe(401);
  });

  it('reports validation errors from the gateway without reaching a service', async () => {
    const res = await cluster.request('GET', '/cms/v2/users?per_page=500');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });

  it('services refuse requests the gateway did not sign', async () => {
    const content = cluster.procs.get('content')!;
    const url = `http://127.0.0.1:${content.port}/_service/dispatch`;
    const body = JSON.stringify({
      endpoint: 'cms.users.me.get',
      method: 'GET',
      path: '/cms/v2/users/me',
      params: { context: 'edit' },
      queryKeys: [],
      bodyKeys: [],
      query: {},
      user: { id: 1, login: 'admin', roles: ['administrator'], caps: ['list_users'] },
      requestId: 'forged',
    });
    const unsigned = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    const ts = String(Math.floor(Date.now() / 1000));
    const badSig = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'x-ecs-timestamp': ts, 'x-ecs-signature': sign('not-the-secret-not-the-secret-xx', ts, body) },
    });
    expect(badSig.status).toBe(401);
    const good = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'x-ecs-timestamp': ts, 'x-ecs-signature': sign(cluster.env.SERVICE_SECRET, ts, body) },
    });
    expect(good.status).toBe(200);
  });

  it('runs a batch on the worker process through BullMQ', async () => {
    const res = await cluster.admin('POST', '/batch/v1', {
      body: {
        requests: [
          { method: 'POST', path: '/cms/v2/users', body: { username: 'batchy', email: 'b@example.com', password: 'x' } },
          { method: 'DELETE', path: '/cms/v2/nowhere' },
        ],
      },
    });
    expect(res.status).toBe(207);
    expect(res.body.responses).toHaveLength(2);
    expect(res.body.responses[0].body.code).toBe('rest_batch_not_allowed');
    expect(res.body.responses[1].status).toBe(404);
    const tooMany = await cluster.admin('POST', '/batch/v1', { body: { requests: new Array(26).fill({ path: '/cms/v2/users' }) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.params.requests).toBe('requests must contain at most 25 items.');
  });

  it('each process reports health, readiness and metrics', async () => {
    for (const p of cluster.procs.values()) {
      const base = `http://127.0.0.1:${p.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${base}/metrics`)).text()).toContain('process_cpu');
    }
  });
});
