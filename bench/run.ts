/**
 * `npm run bench`: starts the service in all-in-one mode on a fresh embedded store (a child process,
 * as a user runs it), loads the data set of PERFORMANCE.md through the store, drives each endpoint
 * with autocannon at 8 connections after a warm-up, and prints requests/s and latency percentiles
 * beside the targets, with the service's CPU time per request, as a table and as JSON under
 * bench/results/.
 *
 * Options (environment): BENCH_DURATION seconds per endpoint (default 10), BENCH_WARMUP seconds
 * (default 2), BENCH_CONNECTIONS (default 8), BENCH_ONLY (comma list of endpoint names),
 * BENCH_SCALE (fraction of the data set, default 1), BENCH_REPEAT (measurements per row, the median reported; default 1),
 * BENCH_PROFILE (a folder for a CPU profile of the service). Then the HTML filter's cost per call (bench/kses.ts;
 * BENCH_ONLY=kses runs only it) and the import benchmark (bench/import.ts; BENCH_ONLY=import runs only it).
 *
 * BENCH_SCALES (comma list of event counts, e.g. 1000,10000,100000) runs the scaling table instead:
 * for each count a fresh store with that many events and that many posts (venues, organizers and
 * categories as in the data set) and a service on it, all running at once; the rows marked `scaling`
 * (BENCH_ONLY filters them too) measured on each size in turn; then one table of requests/s, p99 and
 * user-mode CPU time per request per row and size, with each row's spread over the sizes, and each
 * service's peak RSS.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { DATA_SET, type SeedSizes } from './data-set';
import { ENDPOINTS, type BenchContext, type BenchEndpoint } from './endpoints';
import { runImportBench } from './import';
import { runKsesBench } from './kses';
import { runLimit } from './limit';
import { runFeedImportBench } from './import-feed';
import { AUTHOR_APP_PASSWORD, AUTHOR_LOGIN, seed, type Seeded } from './seed';
import { allInOneEnv, cpuSeconds, peakRssMiB, stopAll, waitReady } from './processes';

const ADMIN_APP_PASSWORD = 'benchBENCHbench1234ABCDE';
const env = process.env;
/** BENCH_QUICK=1: only the limit table, 2 s a measurement after 1 s of warm-up, 3 rounds (under ~3 minutes). */
const QUICK = env.BENCH_QUICK === '1';
const DURATION = Number(env.BENCH_DURATION ?? (QUICK ? 2 : 10));
const WARMUP = Number(env.BENCH_WARMUP ?? (QUICK ? 1 : 2));
/** Measurements per row; the one with the median rate is reported, so one noisy stretch of a shared machine does not make a row. */
const REPEAT = Math.max(1, Math.floor(Number(env.BENCH_REPEAT ?? 3)) || 1);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 8);
const SCALE = Number(env.BENCH_SCALE ?? 1);
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
const SCALES = env.BENCH_SCALES ? env.BENCH_SCALES.split(',').map((s) => Number(s.trim())) : null;
if (SCALES?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SCALES: a comma list of event counts, not ${env.BENCH_SCALES}`);
const TARGET_P99 = 25;
/** BENCH_LOG_LEVEL: the service's log level; info by default, as it runs in production (a request log line per request). */
const SERVICE_LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolveRun(result)));
  });
}

const selected = (eps: BenchEndpoint[]) => eps.filter((ep) => !ONLY || ONLY.has(ep.name));

interface RowResult extends Record<string, unknown> {
  endpoint: string;
  'req/s': number;
  target: number;
  'p50 ms': number;
  'p99 ms': number;
  'target p99': number;
  met: string;
  errors: number;
  /**
   * CPU time of the service per answered request, in user mode (the service's own work: JavaScript,
   * the store) and in the kernel (socket reads and writes), µs; medians of the measurements.
   */
  'user µs/req': number | null;
  'sys µs/req': number | null;
}

/** One measured run of a row: autocannon's result and the service's CPU time per answered request. */
interface Measurement {
  result: autocannon.Result;
  cpuMicros: { user: number; system: number } | null;
}

/**
 * A row's autocannon options against the running service. A row with several URLs sends each request
 * to the next of them (the path set per request, as a body function sets the body), across all
 * connections.
 */
function rowOptions(ep: BenchEndpoint, ctx: BenchContext): autocannon.Options {
  const req = ep.request(ctx);
  const urls = Array.isArray(req.url) ? req.url : [req.url];
  if (!urls.length) throw new Error(`${ep.name}: no URL to ask (nothing seeded for it)`);
  const paths = urls.map((u) => {
    const parsed = new URL(u);
    return parsed.pathname + parsed.search;
  });
  const body = req.body;
  let n = 0;
  const setupRequest = (r: autocannon.Request) => ({
    ...r,
    ...(paths.length > 1 ? { path: paths[n++ % paths.length] } : {}),
    ...(typeof body === 'function' ? { body: JSON.stringify((body as () => unknown)()) } : {}),
  });
  return {
    url: urls[0],
    method: req.method ?? 'GET',
    connections: CONNECTIONS,
    headers: {
      ...(req.auth ? { authorization: req.auth === 'author' ? ctx.authorAuth : ctx.auth } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body && typeof body !== 'function' ? { body: JSON.stringify(body) } : {}),
    ...(paths.length > 1 || typeof body === 'function' ? { requests: [{ setupRequest }] } : {}),
  };
}

/** One measured run of `opts`, with the CPU time the service (process `pid`) spent on it. */
async function measure(opts: autocannon.Options, pid: number | undefined): Promise<Measurement> {
  const cpu0 = cpuSeconds(pid);
  const result = await run({ ...opts, duration: DURATION });
  const cpu1 = cpuSeconds(pid);
  const answered = result.requests.total;
  const perRequest = (a: number, b: number) => Math.round(((b - a) / answered) * 1e6);
  const cpuMicros = cpu0 && cpu1 && answered > 0 ? { user: perRequest(cpu0.user, cpu1.user), system: perRequest(cpu0.system, cpu1.system) } : null;
  return { result, cpuMicros };
}

const median = <T>(xs: T[], key: (x: T) => number): T => [...xs].sort((a, b) => key(a) - key(b))[Math.floor((xs.length - 1) / 2)];

/** A row's figures from its measurements: the one with the median rate, errors summed over all, the median CPU per request. */
function summarise(ep: BenchEndpoint, ms: Measurement[]): RowResult {
  const { result } = median(ms, (m) => m.result.requests.average);
  const cpus = ms.map((m) => m.cpuMicros).filter((c) => c !== null);
  return {
    endpoint: ep.name,
    'req/s': Math.round(result.requests.average),
    target: ep.target,
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'target p99': TARGET_P99,
    met: result.requests.average >= ep.target && result.latency.p99 <= TARGET_P99 ? 'yes' : 'no',
    errors: ms.reduce((sum, m) => sum + m.result.errors + m.result.non2xx, 0),
    'user µs/req': cpus.length ? median(cpus, (c) => c.user).user : null,
    'sys µs/req': cpus.length ? median(cpus, (c) => c.system).system : null,
  };
}

/** Drives each row against the running service: a warm-up, then BENCH_REPEAT measured runs. */
async function runRows(eps: BenchEndpoint[], service: Service): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for (const ep of eps) {
    const opts = rowOptions(ep, service.ctx);
    await run({ ...opts, duration: WARMUP });
    const ms: Measurement[] = [];
    for (let i = 0; i < REPEAT; i++) ms.push(await measure(opts, service.pid));
    rows.push(summarise(ep, ms));
  }
  return rows;
}

/** A service a benchmark started on a fresh, seeded store. */
interface Service {
  ctx: BenchContext;
  pid: number | undefined;
  /** A copy of the store as seeded (empty unless asked for), and one for a BENCH_BASELINE service. */
  copyDir: string;
  baselineDir: string;
  seeded: Seeded;
  seedSeconds: number;
  /** Peak RSS of the service so far (MiB). */
  peakRss(): number | null;
  /** Stops the service and removes its store. */
  stop(): Promise<void>;
}

/**
 * Seeds a fresh store in a temporary folder and starts the all-in-one service on it, on `port`; with
 * `copy`, the seeded store is first copied to a folder of its own (`copyDir`), for the minimal app.
 */
async function startService(sizes: number | SeedSizes, port: number, copy = false): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-'));
  const copyDir = copy ? mkdtempSync(join(tmpdir(), 'ecs-bench-minimal-')) : '';
  const baselineDir = copy && env.BENCH_BASELINE ? mkdtempSync(join(tmpdir(), 'ecs-bench-baseline-')) : '';
  const removeStore = () => {
    for (const dir of [dataDir, copyDir, baselineDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    // BENCH_COUNT_SQL: the store counts its statements and commits, and /metrics shows them (the limit table's SQL/req).
    const serviceEnv = {
      ...allInOneEnv({ port, dataDir, adminPassword: 'bench-admin-password', appPassword: ADMIN_APP_PASSWORD, redisUrl: env.BENCH_REDIS_URL }),
      BENCH_COUNT_SQL: '1',
      LOG_LEVEL: SERVICE_LOG_LEVEL,
    };

    console.log(`seeding the data set (${typeof sizes === 'number' ? `scale ${sizes}` : `${sizes.events} events, ${sizes.posts} posts`}) into ${dataDir} ...`);
    const t0 = Date.now();
    const seeded = await seed(dataDir, sizes);
    const seedSeconds = Number(((Date.now() - t0) / 1000).toFixed(1));
    console.log(
      `seeded in ${seedSeconds} s: ${Object.entries(seeded.counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );
    for (const dir of [copyDir, baselineDir])
      if (dir) for (const f of readdirSync(dataDir)) if (f.startsWith('store.sqlite')) copyFileSync(join(dataDir, f), join(dir, f));

    // BENCH_PROFILE: a CPU profile of the service, one file per service started, for finding where a row's time goes.
    const profile = env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(env.BENCH_PROFILE)}`] : [];
    const child = spawn(process.execPath, [...profile, resolve(__dirname, '../services/main.js'), 'all'], {
      env: serviceEnv,
      // At the info level the request log goes to standard output, which nobody reads here.
      stdio: ['ignore', SERVICE_LOG_LEVEL === 'warn' || SERVICE_LOG_LEVEL === 'error' ? 'inherit' : 'ignore', 'inherit'],
    });
    const stop = async () => {
      try {
        await stopAll([child]);
      } finally {
        removeStore();
      }
    };
    try {
      await waitReady(url, child);
    } catch (e) {
      await stop();
      throw e;
    }
    return {
      ctx: {
        url,
        rest: `${url}/index.php/cms-json`,
        auth: `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString('base64')}`,
        authorAuth: `Basic ${Buffer.from(`${AUTHOR_LOGIN}:${AUTHOR_APP_PASSWORD}`).toString('base64')}`,
        seeded,
      },
      pid: child.pid,
      copyDir,
      baselineDir,
      seeded,
      seedSeconds,
      peakRss: () => peakRssMiB(child.pid),
      stop,
    };
  } catch (e) {
    removeStore();
    throw e;
  }
}

/** BENCH_PORT: the first of the ports the run takes (the service, then the bare server and the minimal app); random otherwise. */
const randomPort = () => (env.BENCH_PORT ? Number(env.BENCH_PORT) : 18000 + Math.floor(Math.random() * 900));

function writeResults(prefix: string, data: unknown): string {
  const outDir = resolve(__dirname, '../../bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/**
 * The normal run on the data set (times BENCH_SCALE): first the limit table (bench/limit.ts: each row
 * on the service, the minimal app and the bare server, interleaved), then every selected endpoint row
 * against PERFORMANCE.md's targets (not in the quick mode).
 */
async function main(): Promise<void> {
  const eps = QUICK ? [] : selected(ENDPOINTS);
  const limit = !ONLY || ONLY.has('limit') || [...ONLY].some((n) => n.startsWith('limit:'));
  if (!eps.length && !limit) return;
  const port = randomPort();
  const service = await startService(SCALE, port, limit);
  let rows: RowResult[] = [];
  let limitRows: Record<string, unknown>[] = [];
  try {
    if (limit) {
      const only = ONLY && !ONLY.has('limit') ? new Set([...ONLY].filter((n) => n.startsWith('limit:')).map((n) => n.slice(6))) : null;
      limitRows = await runLimit(service, port, 'admin', ADMIN_APP_PASSWORD, {
        duration: DURATION,
        warmup: WARMUP,
        repeat: REPEAT,
        connections: CONNECTIONS,
        only,
        ...(env.BENCH_BASELINE
          ? {
              baseline: {
                dist: env.BENCH_BASELINE,
                env: {
                  ...allInOneEnv({ port: port + 3, dataDir: service.baselineDir, adminPassword: 'bench-admin-password', appPassword: ADMIN_APP_PASSWORD }),
                  BENCH_COUNT_SQL: '1',
                  LOG_LEVEL: SERVICE_LOG_LEVEL,
                },
              },
            }
          : {}),
      });
      console.log(
        `\nthe service beside the limit of its stack: medians of ${REPEAT} rounds of ${DURATION} s at ${CONNECTIONS} connections (service, minimal Koa + better-sqlite3 app, bare node:http server, interleaved); µs = CPU time per request of that process (user, sys); × minimal CPU = service (user + sys) / minimal app's; scaled target = PERFORMANCE.md's reference × bare req/s / 23,000 × 100 (reads) or × 30 (creates, p99 ≤ 10 ms)`,
      );
      console.table(limitRows);
    }
    if (eps.length) rows = await runRows(eps, service);
  } finally {
    await service.stop();
  }
  if (rows.length) console.table(rows);
  const file = writeResults('bench', {
    at: new Date().toISOString(),
    duration: DURATION,
    connections: CONNECTIONS,
    scale: SCALE,
    seeded: service.seeded.counts,
    limit: limitRows,
    rows,
  });
  console.log(JSON.stringify({ limit: limitRows, rows }));
  console.log(`results written to ${file}`);
}

const spread = (xs: Array<number | null>): number | null => {
  const ns = xs.filter((x): x is number => x !== null);
  return ns.length === xs.length && Math.min(...ns) > 0 ? Math.round((Math.max(...ns) / Math.min(...ns) - 1) * 100) : null;
};

/**
 * The scaling table: one fresh store with that many events and posts and one service per size, all
 * running at once; each `scaling` row (writes last, so the reads see the sizes as seeded) is measured
 * on every size in turn, BENCH_REPEAT rounds, so that a slow stretch of a shared machine falls on all
 * sizes alike instead of on the size measured during it. Besides requests/s and p99, the service's
 * CPU time per request, which a stalled or busy machine changes less than the rate; and each service's
 * peak RSS.
 */
async function scaling(sizes: number[]): Promise<void> {
  const eps = selected(ENDPOINTS.filter((ep) => ep.scaling)).sort((a, b) => Number(a.name.startsWith('POST')) - Number(b.name.startsWith('POST')));
  if (!eps.length) throw new Error('BENCH_ONLY names none of the scaling rows');
  const base = randomPort();
  const services: Service[] = [];
  const rowsBySize: RowResult[][] = sizes.map(() => []);
  let peaks: Array<number | null> = [];
  try {
    for (const [k, n] of sizes.entries()) services.push(await startService({ ...DATA_SET, events: n, posts: n }, base + k));
    for (const ep of eps) {
      const opts = services.map((s) => rowOptions(ep, s.ctx));
      for (const o of opts) await run({ ...o, duration: WARMUP });
      const ms: Measurement[][] = sizes.map(() => []);
      for (let round = 0; round < REPEAT; round++) {
        // Each round starts at the next size, so no size is always measured first.
        for (let j = 0; j < sizes.length; j++) {
          const k = (round + j) % sizes.length;
          ms[k].push(await measure(opts[k], services[k].pid));
        }
      }
      sizes.forEach((_, k) => rowsBySize[k].push(summarise(ep, ms[k])));
      console.log(`${ep.name}: ${sizes.map((n, k) => `${n}: ${rowsBySize[k].at(-1)?.['req/s']} req/s`).join(', ')}`);
    }
  } finally {
    peaks = services.map((s) => s.peakRss());
    for (const s of services) await s.stop();
  }
  const table = eps.map((ep, i) => {
    const perSize = rowsBySize.map((rows) => rows[i]);
    const row: Record<string, unknown> = { endpoint: ep.name, target: ep.target };
    sizes.forEach((n, k) => {
      row[`${n} req/s`] = perSize[k]['req/s'];
      row[`${n} p99`] = perSize[k]['p99 ms'];
    });
    row['req/s spread %'] = spread(perSize.map((r) => r['req/s']));
    row['p99 spread %'] = spread(perSize.map((r) => r['p99 ms']));
    sizes.forEach((n, k) => (row[`${n} user µs`] = perSize[k]['user µs/req']));
    row['user µs spread %'] = spread(perSize.map((r) => r['user µs/req']));
    row.errors = perSize.reduce((sum, r) => sum + r.errors, 0);
    return row;
  });
  console.log(
    `\nscaling: events = posts = ${sizes.join(', ')} (venues ${DATA_SET.venues}, organizers ${DATA_SET.organizers}, categories ${DATA_SET.categories}); ${DURATION} s a measurement, ${REPEAT} rounds over the sizes, at ${CONNECTIONS} connections; user µs = the service's CPU time in user mode per request (its own work, without the kernel's socket writes, which a loaded or virtualised machine inflates); spread = max/min - 1`,
  );
  console.table(table);
  console.log(`peak RSS of the service: ${sizes.map((n, k) => `${n}: ${peaks[k] ?? '?'} MiB`).join(', ')}`);
  console.log(`seeding: ${sizes.map((n, k) => `${n}: ${services[k].seedSeconds} s`).join(', ')}`);
  const file = writeResults('bench-scaling', {
    at: new Date().toISOString(),
    duration: DURATION,
    warmup: WARMUP,
    repeat: REPEAT,
    connections: CONNECTIONS,
    sizes: sizes.map((n, k) => ({
      events: n,
      posts: n,
      seeded: services[k].seeded.counts,
      seedSeconds: services[k].seedSeconds,
      peakRssMiB: peaks[k],
      rows: rowsBySize[k],
    })),
    table,
  });
  console.log(`results written to ${file}`);
}

(SCALES
  ? scaling(SCALES)
  : QUICK
    ? main()
    : main()
        // The HTML filter's cost per call (bench/kses.ts), then the import figures (events per second per
        // worker process, peak memory) after the endpoints; bench/import.ts.
        .then(async () => {
          if (!ONLY || ONLY.has('kses')) runKsesBench();
          if (!ONLY || ONLY.has('import')) await runImportBench();
          if (!ONLY || ONLY.has('import') || ONLY.has('feed')) await runFeedImportBench();
        })
).catch((e) => {
  console.error(e);
  process.exit(1);
});
