/**
 * The service beside the limit of its stack, in one run (issue 26): each row is measured on the service,
 * on a minimal Koa + better-sqlite3 app doing the same work per request on a copy of the same store
 * (bench/minimal-app.ts), and a bare `node:http` server (bench/bare-server.ts), interleaved round by
 * round so a slow stretch of a shared machine falls on all three alike. Per row: requests/s, p99, the
 * service's CPU time per request (user and kernel, from /proc/<pid>/stat around each measurement), its
 * SQL statements and commits per request (the store counts them under BENCH_COUNT_SQL=1 and /metrics
 * shows them), the minimal app's CPU per request, and the ratios: service CPU over the minimal app's,
 * and requests/s against PERFORMANCE.md's reference scaled by the bare server's figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext } from './endpoints';
import { cpuSeconds, stopAll } from './processes';

export interface LimitOptions {
  duration: number;
  warmup: number;
  repeat: number;
  connections: number;
  /** Names (or name prefixes) of the rows to run; all when null. */
  only: Set<string> | null;
  /**
   * BENCH_BASELINE: the `dist` folder of another build (an earlier commit), run as a second service on
   * its own copy of the store and measured in the same rounds, for a change's before/after in one run.
   */
  baseline?: { dist: string; env: NodeJS.ProcessEnv };
}

/** One side of a row: what to ask, of which server. */
interface Ask {
  path: string | string[];
  method?: 'GET' | 'POST';
  body?: () => unknown;
}

interface LimitRow {
  name: string;
  service(c: BenchContext): Ask;
  minimal(c: BenchContext): Ask;
  /** PERFORMANCE.md's reference requests/s (where the bare server did 23,000) and the factor the target asks. */
  reference?: { rate: number; factor: number };
  /** The most the service's CPU per request may be, in multiples of the minimal app's (Done when). */
  within: number;
  /** The answer is a 404 by design (not an error of the row). */
  notFound?: boolean;
  /**
   * Small event creates a second, sent to the same server beside the measured reads (the service's REST
   * create, the minimal app's insert): what a read costs while records are written. The CPU per request
   * is then per read, the creates' own CPU included.
   */
  writes?: number;
}

const REFERENCE_BARE = 23_000;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const dayMs = (days: number) => Date.parse(`${day(days)}T00:00:00Z`);
const pages = (path: string, total: number) =>
  Array.from({ length: Math.max(1, Math.min(20, Math.floor(total / 10))) }, (_, k) => `${path}${path.includes('?') ? '&' : '?'}page=${k + 1}`);
const REST = '/index.php/cms-json';
let made = 0;
const smallEvent = () => {
  made++;
  const d = day(10 + (made % 300));
  return { title: `Limit created ${process.pid}-${made}`, start_date: `${d} 18:00:00`, end_date: `${d} 20:00:00` };
};
const pick = (xs: number[] | undefined) => (xs?.length ? xs[made % xs.length] : undefined);

/** The category archive: every category's window, in turn. */
const categoryWindow: Pick<LimitRow, 'service' | 'minimal'> = {
  service: (c) => ({
    path: c.seeded.ids.eventCategories.map(
      (_, i) =>
        `${REST}/vendor/events/v1/events?categories=bench-category-${i}&start_date=${day(30)}&end_date=${day(30 + c.seeded.counts['category window days'])}`,
    ),
  }),
  minimal: (c) => ({
    path: c.seeded.ids.eventCategories.map(
      (_, i) => `/events?category=bench-category-${i}&start=${dayMs(30)}&end=${dayMs(31 + c.seeded.counts['category window days']) - 1}`,
    ),
  }),
};

const ROWS: LimitRow[] = [
  {
    name: 'GET / (authenticated)',
    service: () => ({ path: `${REST}/` }),
    minimal: () => ({ path: '/index' }),
    reference: { rate: 33, factor: 100 },
    within: 2,
  },
  {
    name: 'GET cms/v2/posts?page=N (authenticated)',
    service: (c) => ({ path: pages(`${REST}/cms/v2/posts?per_page=10`, c.seeded.counts.posts) }),
    minimal: (c) => ({ path: pages('/posts', c.seeded.counts.posts) }),
    reference: { rate: 18, factor: 100 },
    within: 2,
  },
  {
    name: 'GET cms/v2/posts/{id} (authenticated)',
    service: (c) => ({ path: c.seeded.ids.posts.map((id) => `${REST}/cms/v2/posts/${id}`) }),
    minimal: (c) => ({ path: c.seeded.ids.posts.map((id) => `/posts/${id}`) }),
    reference: { rate: 25, factor: 100 },
    within: 2,
  },
  {
    name: 'GET vendor/events/v1/events/{id} (authenticated)',
    service: (c) => ({ path: c.seeded.ids.events.map((id) => `${REST}/vendor/events/v1/events/${id}`) }),
    minimal: (c) => ({ path: c.seeded.ids.events.map((id) => `/events/${id}`) }),
    reference: { rate: 29, factor: 100 },
    within: 2,
  },
  {
    name: 'GET vendor/events/v1/events?page=N (default window; authenticated)',
    service: (c) => ({ path: pages(`${REST}/vendor/events/v1/events`, c.seeded.counts['events ahead']) }),
    minimal: (c) => ({ path: pages('/events', c.seeded.counts['events ahead']) }),
    reference: { rate: 6.7, factor: 100 },
    within: 2,
  },
  {
    name: 'GET vendor/events/v1/events?categories&start_date&end_date (authenticated)',
    ...categoryWindow,
    reference: { rate: 18, factor: 100 },
    within: 2,
  },
  {
    name: 'GET vendor/events/v1/events?categories&start_date&end_date (authenticated; 10 creates/s beside)',
    ...categoryWindow,
    within: 2,
    writes: 10,
  },
  {
    name: 'GET ec/v1/events?per_page=10&page=N (authenticated)',
    service: (c) => ({ path: pages(`${REST}/ec/v1/events?per_page=10`, c.seeded.counts['events ahead']) }),
    minimal: (c) => ({ path: pages('/events', c.seeded.counts['events ahead']) }),
    reference: { rate: 7.9, factor: 100 },
    within: 2,
  },
  {
    name: 'a 404 (no route; authenticated)',
    service: () => ({ path: `${REST}/no/such/route` }),
    minimal: () => ({ path: '/no/such/route' }),
    within: 2,
    notFound: true,
  },
  {
    name: 'POST vendor/events/v1/events (small; authenticated)',
    service: () => ({ path: `${REST}/vendor/events/v1/events`, method: 'POST', body: smallEvent }),
    minimal: () => ({ path: '/events', method: 'POST', body: smallEvent }),
    reference: { rate: 23, factor: 30 },
    within: 3,
  },
  {
    name: 'POST vendor/events/v1/events (venue, organizer, 2 categories; authenticated)',
    service: (c) => ({
      path: `${REST}/vendor/events/v1/events`,
      method: 'POST',
      body: () => {
        const cats = c.seeded.ids.eventCategories;
        return {
          ...smallEvent(),
          venue: pick(c.seeded.ids.venues),
          organizer: [pick(c.seeded.ids.organizers)],
          categories: [cats[made % cats.length], cats[(made + 7) % cats.length]],
        };
      },
    }),
    minimal: () => ({ path: '/events', method: 'POST', body: smallEvent }),
    within: 4,
  },
];

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((ok, fail) => autocannon(opts, (err, result) => (err ? fail(err) : ok(result))));
}

function options(base: string, auth: string, ask: Ask, connections: number): autocannon.Options {
  const paths = Array.isArray(ask.path) ? ask.path : [ask.path];
  let n = 0;
  const body = ask.body;
  const setupRequest = (r: autocannon.Request) => ({
    ...r,
    ...(paths.length > 1 ? { path: paths[n++ % paths.length] } : {}),
    ...(body ? { body: JSON.stringify(body()) } : {}),
  });
  return {
    url: base + paths[0],
    method: ask.method ?? 'GET',
    connections,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(paths.length > 1 || body ? { requests: [{ setupRequest }] } : {}),
  };
}

/** The store's statement and commit counters of the service, from its /metrics (BENCH_COUNT_SQL=1). */
async function sqlCounters(url: string): Promise<{ statements: number; commits: number } | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    const c = { statements: read('store_sql_statements'), commits: read('store_sql_commits') };
    return Number.isNaN(c.statements) ? null : c;
  } catch {
    return null;
  }
}

interface Taken {
  rate: number;
  p99: number;
  answered: number;
  errors: number;
  user: number | null;
  sys: number | null;
  sql: number | null;
  commits: number | null;
}

/** What is written beside a measurement: `perSecond` creates of `body` to `url`. */
interface Beside {
  url: string;
  auth: string;
  perSecond: number;
}

/** Sends the creates of `beside` until the returned function is called, which waits for the last one. */
function writeBeside(beside: Beside | undefined): () => Promise<number> {
  if (!beside) return async () => 0;
  const pending = new Set<Promise<unknown>>();
  let failed = 0;
  const timer = setInterval(() => {
    const sent = fetch(beside.url, {
      method: 'POST',
      headers: { authorization: beside.auth, 'content-type': 'application/json' },
      body: JSON.stringify(smallEvent()),
    }).then(
      (r) => {
        if (r.status !== 201) failed++;
        return r.arrayBuffer();
      },
      () => failed++,
    );
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
  }, 1000 / beside.perSecond);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return failed;
  };
}

async function take(opts: autocannon.Options, duration: number, pid: number | undefined, sqlUrl?: string, notFound = false, beside?: Beside): Promise<Taken> {
  const sql0 = sqlUrl ? await sqlCounters(sqlUrl) : null;
  const cpu0 = cpuSeconds(pid);
  const stop = writeBeside(beside);
  const r = await run({ ...opts, duration });
  const failedWrites = await stop();
  const cpu1 = cpuSeconds(pid);
  const sql1 = sqlUrl ? await sqlCounters(sqlUrl) : null;
  const n = r.requests.total;
  const per = (a: number, b: number, scale: number) => (n > 0 ? Math.round(((b - a) / n) * scale * 100) / 100 : null);
  return {
    rate: r.requests.average,
    p99: r.latency.p99,
    answered: n,
    errors: r.errors + (notFound ? 0 : r.non2xx) + failedWrites,
    user: cpu0 && cpu1 ? per(cpu0.user, cpu1.user, 1e6) : null,
    sys: cpu0 && cpu1 ? per(cpu0.system, cpu1.system, 1e6) : null,
    sql: sql0 && sql1 ? per(sql0.statements, sql1.statements, 1) : null,
    commits: sql0 && sql1 ? per(sql0.commits, sql1.commits, 1) : null,
  };
}

const med = (xs: Array<number | null>): number | null => {
  const ns = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return ns.length ? ns[Math.floor((ns.length - 1) / 2)] : null;
};
const cpu = (t: Taken) => (t.user !== null && t.sys !== null ? t.user + t.sys : null);
const round = (x: number | null, d = 0) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

export interface LimitService {
  ctx: BenchContext;
  pid: number | undefined;
  /** The folder holding a copy of the store as seeded, before the service started on its own. */
  copyDir: string;
  /** A second copy, for the baseline service (BENCH_BASELINE), when one is asked for. */
  baselineDir?: string;
}

/** Starts a child process of this build (minimal app or bare server) and waits until it answers on `port`. */
async function startChild(script: string, port: number, extraEnv: NodeJS.ProcessEnv, args: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [resolve(__dirname, script), ...args], {
    env: { ...process.env, PORT: String(port), ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return child;
    } catch {
      if (Date.now() > deadline) throw new Error(`${script} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Runs the limit table against `service`, with a minimal app on its store copy and a bare server on the next ports. */
export async function runLimit(service: LimitService, port: number, user: string, secret: string, o: LimitOptions): Promise<Record<string, unknown>[]> {
  const rows = ROWS.filter((r) => !o.only || [...o.only].some((n) => r.name.startsWith(n)));
  const index = join(service.copyDir, 'index.json');
  writeFileSync(index, Buffer.from(await (await fetch(`${service.ctx.rest}/`, { headers: { authorization: service.ctx.auth } })).arrayBuffer()));
  const children: ChildProcess[] = [];
  try {
    children.push(await startChild('bare-server.js', port + 1, {}));
    children.push(
      await startChild('minimal-app.js', port + 2, {
        MINIMAL_DB: join(service.copyDir, 'store.sqlite'),
        MINIMAL_USER: user,
        MINIMAL_SECRET: secret,
        MINIMAL_INDEX: index,
      }),
    );
    const [bare, minimal] = children;
    const base =
      o.baseline && service.baselineDir ? await startChild(join(resolve(o.baseline.dist), 'services/main.js'), port + 3, o.baseline.env, ['all']) : null;
    if (base) {
      children.push(base);
      // The service answers / before it is ready; wait for its readiness like the bench's own.
      for (
        let i = 0;
        i < 300 &&
        !(await fetch(`http://127.0.0.1:${port + 3}/readyz`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
      )
        await new Promise((r) => setTimeout(r, 200));
    }
    const baseCtx = { ...service.ctx, url: `http://127.0.0.1:${port + 3}` };
    const minimalUrl = `http://127.0.0.1:${port + 2}`;
    const bareOpts: autocannon.Options = { url: `http://127.0.0.1:${port + 1}/`, connections: o.connections };
    const out: Record<string, unknown>[] = [];
    for (const row of rows) {
      const sOpts = options(service.ctx.url, service.ctx.auth, row.service(service.ctx), o.connections);
      const mOpts = options(minimalUrl, service.ctx.auth, row.minimal(service.ctx), o.connections);
      await run({ ...sOpts, duration: o.warmup });
      await run({ ...mOpts, duration: o.warmup });
      const zOpts = base ? options(baseCtx.url, service.ctx.auth, row.service(service.ctx), o.connections) : null;
      // The creates a mixed row sends beside its reads, to each server its own way.
      const beside = (url: string): Beside | undefined => (row.writes ? { url, auth: service.ctx.auth, perSecond: row.writes } : undefined);
      const createPath = `${REST}/vendor/events/v1/events`;
      if (zOpts) await run({ ...zOpts, duration: o.warmup });
      const s: Taken[] = [];
      const m: Taken[] = [];
      const b: Taken[] = [];
      const z: Taken[] = [];
      for (let i = 0; i < o.repeat; i++) {
        // Each round in another order of the three (four with a baseline), so none is always measured first.
        const n = zOpts ? 4 : 3;
        const order = Array.from({ length: n }, (_, k) => (k + i) % n);
        for (const k of order) {
          if (k === 3 && zOpts) z.push(await take(zOpts, o.duration, base!.pid, baseCtx.url, row.notFound, beside(baseCtx.url + createPath)));
          else if (k === 0) s.push(await take(sOpts, o.duration, service.pid, service.ctx.url, row.notFound, beside(service.ctx.url + createPath)));
          else if (k === 1) m.push(await take(mOpts, o.duration, minimal.pid, undefined, row.notFound, beside(`${minimalUrl}/events`)));
          // The bare server once a row in the quick mode (its figure only scales the reference), every round otherwise.
          else if (i === 0 || o.repeat > 3 || o.duration >= 5) b.push(await take(bareOpts, o.duration, bare.pid));
        }
      }
      const sCpu = med(s.map(cpu));
      const mCpu = med(m.map(cpu));
      const bareRate = med(b.map((t) => t.rate))!;
      const rate = med(s.map((t) => t.rate))!;
      const scaledTarget = row.reference ? (row.reference.rate * bareRate * row.reference.factor) / REFERENCE_BARE : null;
      const ratio = sCpu !== null && mCpu ? sCpu / mCpu : null;
      const result = {
        row: row.name,
        'req/s': Math.round(rate),
        'p99 ms': med(s.map((t) => t.p99)),
        'user µs': round(med(s.map((t) => t.user))),
        'sys µs': round(med(s.map((t) => t.sys))),
        'SQL/req': round(med(s.map((t) => t.sql)), 2),
        'commits/req': round(med(s.map((t) => t.commits)), 2),
        'minimal req/s': Math.round(med(m.map((t) => t.rate))!),
        'minimal µs': round(mCpu),
        '× minimal CPU': round(ratio, 2),
        within: `${row.within}×: ${ratio !== null && ratio <= row.within ? 'yes' : 'no'}`,
        'bare req/s': Math.round(bareRate),
        'bare/service req/s': round(bareRate / rate, 1),
        'scaled target req/s': round(scaledTarget),
        'target met': scaledTarget === null ? '-' : rate >= scaledTarget && (row.reference!.factor > 30 || med(s.map((t) => t.p99))! <= 10) ? 'yes' : 'no',
        errors: s.reduce((sum, t) => sum + t.errors, 0) + m.reduce((sum, t) => sum + t.errors, 0),
        ...(zOpts
          ? {
              'baseline µs': round(med(z.map(cpu))),
              'baseline SQL/req': round(med(z.map((t) => t.sql)), 2),
              'baseline commits/req': round(med(z.map((t) => t.commits)), 2),
              'Δ µs %': sCpu !== null && med(z.map(cpu)) ? round((sCpu / med(z.map(cpu))! - 1) * 100) : null,
              'baseline errors': z.reduce((sum, t) => sum + t.errors, 0),
            }
          : {}),
      };
      console.log(`${row.name}: ${result['req/s']} req/s, ${(result['user µs'] ?? 0) + (result['sys µs'] ?? 0)} µs/req, ${result['× minimal CPU']}× minimal`);
      out.push(result);
    }
    return out;
  } finally {
    await stopAll(children);
  }
}
