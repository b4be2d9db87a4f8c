/**
 * `npm run soak`: sustained mixed load on the all-in-one process, to find errors and memory growth
 * that short benchmarks miss. Starts the service as a child process (as a user runs it) on a fresh
 * embedded store in a temporary folder, seeds posts, events, venues and users through the store,
 * then drives a mix of reads (site index, post and event lists and singles, ec/v1, venues, the
 * rendered list view, the signed-in user) and writes (post and event creates, updates and deletes of
 * what it created, with the administrator's application password) at SOAK_CONNECTIONS connections
 * for SOAK_SECONDS.
 *
 * The resident set size (RSS, /proc/PID/status of the service) is read after a warm-up run of the
 * same mix (SOAK_WARMUP seconds), so that what start-up, the first JIT compilation, pools and caches
 * filling up allocate is not counted as growth, and again at the end; each reading is taken 2 s after
 * the load stopped and after a full garbage collection in the service (the service runs with
 * --expose-gc and bench/soak-probe.ts, which collects on SIGUSR2), so that both compare live memory
 * and not wherever V8's saw-tooth of heap growth and collection happens to be. The process exits non-zero when any request failed (a
 * connection error, a timeout, or a status other than the one the request expects) or when RSS grew
 * by 10 % or more.
 *
 * Options (environment): SOAK_SECONDS (default 60), SOAK_CONNECTIONS (default 32), SOAK_WARMUP
 * (default 30), SOAK_SCALE (fraction of the benchmark data set to seed, default 0.1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { PROBE_MARK } from './soak-probe';
import { seed, type Seeded } from './seed';
import { allInOneEnv, waitReady } from './processes';

const env = process.env;
const SECONDS = Number(env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(env.SOAK_CONNECTIONS ?? 32);
const WARMUP = Number(env.SOAK_WARMUP ?? 30);
const SCALE = Number(env.SOAK_SCALE ?? 0.1);
const GROWTH_LIMIT = 10;
const ADMIN_APP_PASSWORD = 'soakSOAKsoak1234ABCDEFGH';
/** Pause with no load before each reading (after the run, so that the last answers are written). */
const SETTLE_MS = 2000;

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

/**
 * The service's memory after a full garbage collection: the probe loaded into it collects on SIGUSR2
 * and answers on stderr (bench/soak-probe.ts).
 */
function collectedMemory(child: ChildProcess): Promise<Memory> {
  return new Promise((resolveMemory, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.stderr!.off('data', onData);
      reject(new Error('the service did not answer the memory probe'));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith(PROBE_MARK));
      if (!line) return;
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      resolveMemory(JSON.parse(line.slice(PROBE_MARK.length)) as Memory);
    };
    child.stderr!.on('data', onData);
    child.kill('SIGUSR2');
  });
}

interface SoakRequest {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** A fixed path, or one made per request. */
  path: string | (() => string);
  auth?: boolean;
  expect: number;
  body?: () => unknown;
  /** Sees each answer's body (creates keep the new ids for the deletes). */
  seen?: (body: string) => void;
}

/** Ids of records the soak created, oldest first, for its deletes to take. */
const created = { posts: [] as number[], events: [] as number[] };
const keepId = (into: number[]) => (body: string) => {
  const id = (JSON.parse(body) as { id?: unknown }).id;
  if (typeof id === 'number') into.push(id);
};

function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let n = 0;
const pick = (ids: number[]) => ids[n % ids.length];
const day = (offset: number) => new Date(Date.UTC(2031, 0, 1) + offset * 86400000).toISOString().slice(0, 10);

/** The mix: each connection goes through it in order, so reads outnumber writes about three to one. */
function mix(seeded: Seeded, viewNonce: string): SoakRequest[] {
  const { posts } = seeded.ids;
  // The seeder names one event (a week ahead); the events after it were seeded with it.
  const events = [0, 1, 2].map((i) => seeded.ids.events[0] + i);
  const view = new URLSearchParams({ u: '/events/list/', tvn1: viewNonce }).toString();
  return [
    { name: 'GET / (site index)', method: 'GET', path: '/', expect: 200 },
    { name: 'GET cms/v2/posts?per_page=10', method: 'GET', path: '/cms/v2/posts?per_page=10', expect: 200 },
    {
      name: 'POST cms/v2/posts (create)',
      method: 'POST',
      path: '/cms/v2/posts',
      auth: true,
      expect: 201,
      body: () => ({ title: `Soak post ${++n}`, content: `<p>Written under load, ${n}.</p>`, status: 'publish' }),
      seen: keepId(created.posts),
    },
    { name: 'GET cms/v2/posts/{id}', method: 'GET', path: `/cms/v2/posts/${posts[Math.floor(posts.length / 2)]}`, expect: 200 },
    { name: 'GET vendor/events/v1/events', method: 'GET', path: '/vendor/events/v1/events', expect: 200 },
    {
      name: 'POST vendor/events/v1/events (create)',
      method: 'POST',
      path: '/vendor/events/v1/events',
      auth: true,
      expect: 201,
      body: () => ({ title: `Soak event ${++n}`, start_date: `${day(n % 300)} 18:00:00`, end_date: `${day(n % 300)} 20:00:00` }),
      seen: keepId(created.events),
    },
    { name: 'GET vendor/events/v1/events/{id}', method: 'GET', path: `/vendor/events/v1/events/${events[0]}`, expect: 200 },
    { name: 'GET ec/v1/events?per_page=10', method: 'GET', path: '/ec/v1/events?per_page=10', expect: 200 },
    {
      name: 'POST cms/v2/posts/{id} (update)',
      method: 'POST',
      path: `/cms/v2/posts/${posts[1]}`,
      auth: true,
      expect: 200,
      body: () => ({ title: `Soak update ${++n}` }),
    },
    { name: 'GET ec/v1/events/{id}', method: 'GET', path: `/ec/v1/events/${events[1]}`, expect: 200 },
    { name: 'GET vendor/events/v1/venues', method: 'GET', path: '/vendor/events/v1/venues', expect: 200 },
    // Deletes of what the soak created (the oldest first), so the store keeps its size as a live site
    // does rather than growing by hundreds of records a second; the created record is taken by the time
    // a connection gets here, which its own create came before.
    {
      name: 'DELETE cms/v2/posts/{created} (force)',
      method: 'DELETE',
      path: () => `/cms/v2/posts/${created.posts.shift() ?? 0}?force=true`,
      auth: true,
      expect: 200,
    },
    { name: 'GET vendor/views/v2/html (list view)', method: 'GET', path: `/vendor/views/v2/html?${view}`, expect: 200 },
    {
      name: 'POST vendor/events/v1/events/{id} (update)',
      method: 'POST',
      path: `/vendor/events/v1/events/${events[2]}`,
      auth: true,
      expect: 200,
      body: () => ({ description: `Updated under load, ${++n}.` }),
    },
    { name: 'GET cms/v2/posts?per_page=10 (authenticated)', method: 'GET', path: '/cms/v2/posts?per_page=10', auth: true, expect: 200 },
    { name: 'GET cms/v2/users/me (authenticated)', method: 'GET', path: '/cms/v2/users/me', auth: true, expect: 200 },
    {
      name: 'DELETE vendor/events/v1/events/{created} (force)',
      method: 'DELETE',
      path: () => `/vendor/events/v1/events/${created.events.shift() ?? 0}?force=true`,
      auth: true,
      expect: 200,
    },
    {
      name: 'GET ec/v1/events?per_page=10 (authenticated)',
      method: 'GET',
      path: `/ec/v1/events?per_page=10&page=${1 + (pick(events) % 5)}`,
      auth: true,
      expect: 200,
    },
  ];
}

interface Tally {
  statuses: Map<string, Map<number, number>>;
  unexpected: number;
}

function drive(rest: string, auth: string, requests: SoakRequest[], seconds: number, tally: Tally): Promise<autocannon.Result> {
  const url = new URL(rest);
  return new Promise((resolveRun, reject) => {
    autocannon(
      {
        url: url.origin,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        requests: requests.map((r) => ({
          method: r.method,
          path: `${url.pathname}${typeof r.path === 'string' ? r.path : '/'}`,
          headers: { ...(r.auth ? { authorization: auth } : {}), ...(r.body ? { 'content-type': 'application/json' } : {}) },
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            ...(typeof r.path === 'function' ? { path: `${url.pathname}${r.path()}` } : {}),
            ...(r.body ? { body: JSON.stringify(r.body()) } : {}),
          }),
          onResponse: (status: number, body: string) => {
            if (r.seen && status === r.expect) r.seen(body);
            const byStatus = tally.statuses.get(r.name) ?? new Map<number, number>();
            byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
            tally.statuses.set(r.name, byStatus);
            if (status !== r.expect) tally.unexpected++;
          },
        })),
      },
      (err, result) => (err ? reject(err) : resolveRun(result)),
    );
  });
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-soak-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const rest = `${url}/index.php/cms-json`;
  console.log(`soak: ${SECONDS} s at ${CONNECTIONS} connections after a ${WARMUP} s warm-up; data set scale ${SCALE}; store in ${dataDir}`);
  const seeded = await seed(dataDir, SCALE);
  console.log(
    `seeded: ${Object.entries(seeded.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
  );

  const child = spawn(process.execPath, ['--expose-gc', '-r', resolve(__dirname, 'soak-probe.js'), resolve(__dirname, '../services/main.js'), 'all'], {
    env: allInOneEnv({ port, dataDir, adminPassword: 'soak-admin-password', appPassword: ADMIN_APP_PASSWORD }),
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // The service's own stderr goes on to ours; the probe's lines are read by collectedMemory.
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk
      .toString()
      .split('\n')
      .filter((l) => !l.startsWith(PROBE_MARK))
      .join('\n');
    if (text.trim()) process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  });
  try {
    await waitReady(url, child);
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString('base64')}`;
    const nonce = (await fetch(`${rest}/vendor/events/v1/events`)).headers.get('x-view-nonce');
    if (!nonce) throw new Error('the event archive gave no X-View-Nonce');
    const requests = mix(seeded, nonce);
    const rssBoot = rssBytes(child.pid!);

    const warmTally: Tally = { statuses: new Map(), unexpected: 0 };
    const warm = await drive(rest, auth, requests, WARMUP, warmTally);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const start = await collectedMemory(child);

    const tally: Tally = { statuses: new Map(), unexpected: 0 };
    // RSS under load every tenth of the run, to tell a plateau from steady growth.
    const samples: string[] = [];
    const sampler = setInterval(() => samples.push(mb(rssBytes(child.pid!)).replace(' MB', '')), (SECONDS * 1000) / 10);
    const result = await drive(rest, auth, requests, SECONDS, tally).finally(() => clearInterval(sampler));
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const end = await collectedMemory(child);
    const [rssStart, rssEnd] = [start.rss, end.rss];
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} during the run`);

    const errors = result.errors + result.timeouts + tally.unexpected;
    const growth = ((rssEnd - rssStart) / rssStart) * 100;
    const rows = [...tally.statuses].map(([name, byStatus]) => ({
      request: name,
      responses: [...byStatus.values()].reduce((a, b) => a + b, 0),
      statuses: [...byStatus].map(([s, c]) => `${s}×${c}`).join(' '),
    }));
    console.table(rows);
    const summary = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      requests: result.requests.total,
      'requests/s': Math.round(result.requests.average),
      errors,
      'connection errors': result.errors,
      timeouts: result.timeouts,
      'unexpected statuses': tally.unexpected,
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      'max ms': result.latency.max,
      'rss after boot': mb(rssBoot),
      'rss start (after warm-up)': mb(rssStart),
      'rss end': mb(rssEnd),
      'rss growth %': Number(growth.toFixed(1)),
      'heap used start': mb(start.heapUsed),
      'heap used end': mb(end.heapUsed),
      'rss under load MB': samples.map(Number),
      'warm-up requests': warm.requests.total,
      'warm-up errors': warm.errors + warm.timeouts + warmTally.unexpected,
    };
    console.log(
      [
        `requests: ${summary.requests} (${summary['requests/s']}/s)`,
        `errors: ${errors} (connection ${result.errors}, timeouts ${result.timeouts}, unexpected status ${tally.unexpected})`,
        `latency: p50 ${summary['p50 ms']} ms, p99 ${summary['p99 ms']} ms, max ${summary['max ms']} ms`,
        `RSS: ${mb(rssBoot)} after boot; ${mb(rssStart)} at the start, after a ${WARMUP} s warm-up of the same mix (${summary['warm-up requests']} requests), ` +
          `so start-up and cache filling are not counted; ${mb(rssEnd)} at the end. Both read ${SETTLE_MS / 1000} s after the load, after a full garbage collection in the service`,
        `JS heap used after that collection: ${mb(start.heapUsed)} at the start, ${mb(end.heapUsed)} at the end; external (buffers, native): ${mb(start.external)}, ${mb(end.external)}`,
        `RSS under load, every ${SECONDS / 10} s (MB): ${samples.join(', ')}`,
        `RSS growth: ${growth.toFixed(1)} % (limit ${GROWTH_LIMIT} %)`,
      ].join('\n'),
    );
    console.log(JSON.stringify(summary));
    const failed: string[] = [];
    if (errors > 0) failed.push(`${errors} failed requests`);
    if (growth >= GROWTH_LIMIT) failed.push(`RSS grew by ${growth.toFixed(1)} %`);
    console.log(failed.length ? `soak FAILED: ${failed.join('; ')}` : 'soak passed');
    return failed.length ? 1 : 0;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
