/**
 * `npm run bench`: starts the service in all-in-one mode on a fresh embedded store (a child process,
 * as a user runs it), loads the data set of PERFORMANCE.md through the store, drives each endpoint
 * with autocannon at 8 connections after a warm-up, and prints requests/s and latency percentiles
 * beside the targets, as a table and as JSON under bench/results/.
 *
 * Options (environment): BENCH_DURATION seconds per endpoint (default 10), BENCH_WARMUP seconds
 * (default 2), BENCH_CONNECTIONS (default 8), BENCH_ONLY (comma list of endpoint names),
 * BENCH_SCALE (fraction of the data set, default 1), BENCH_REPEAT (measurements per row, the median reported; default 1),
 * BENCH_PROFILE (a folder for a CPU profile of the service). Then the import benchmark (bench/import.ts; BENCH_ONLY=import
 * runs only it).
 *
 * BENCH_SCALES (comma list of event counts, e.g. 1000,10000,100000) runs the scaling table instead:
 * for each count a fresh store with that many events and that many posts (venues, organizers and
 * categories as in the data set), a fresh service, the rows marked `scaling` (BENCH_ONLY filters them
 * too), and the service's peak RSS; then one table of requests/s and p99 per row and size, with each
 * row's spread over the sizes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { DATA_SET, type SeedSizes } from './data-set';
import { ENDPOINTS, type BenchContext, type BenchEndpoint } from './endpoints';
import { runImportBench } from './import';
import { runFeedImportBench } from './import-feed';
import { seed, type Seeded } from './seed';
import { allInOneEnv, peakRssMiB, stopAll, waitReady } from './processes';

const ADMIN_APP_PASSWORD = 'benchBENCHbench1234ABCDE';
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
/** Measurements per row; the one with the median rate is reported, so one noisy stretch of a shared machine does not make a row. */
const REPEAT = Math.max(1, Math.floor(Number(env.BENCH_REPEAT ?? 1)) || 1);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 8);
const SCALE = Number(env.BENCH_SCALE ?? 1);
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
const SCALES = env.BENCH_SCALES ? env.BENCH_SCALES.split(',').map((s) => Number(s.trim())) : null;
if (SCALES?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SCALES: a comma list of event counts, not ${env.BENCH_SCALES}`);
const TARGET_P99 = 25;

interface RowResult extends Record<string, unknown> {
  endpoint: string;
  'req/s': number;
  target: number;
  'p50 ms': number;
  'p99 ms': number;
  'target p99': number;
  met: string;
  errors: number;
}

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolveRun(result)));
  });
}

const selected = (eps: BenchEndpoint[]) => eps.filter((ep) => !ONLY || ONLY.has(ep.name));

/**
 * Drives each row against the running service: a warm-up, then the measured run. A row with several
 * URLs sends each request to the next of them (the path set per request, as a body function sets the
 * body), across all connections.
 */
async function runRows(eps: BenchEndpoint[], ctx: BenchContext): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for (const ep of eps) {
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
    const opts: autocannon.Options = {
      url: urls[0],
      method: req.method ?? 'GET',
      connections: CONNECTIONS,
      headers: { ...(req.auth ? { authorization: ctx.auth } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body && typeof body !== 'function' ? { body: JSON.stringify(body) } : {}),
      ...(paths.length > 1 || typeof body === 'function' ? { requests: [{ setupRequest }] } : {}),
    };
    await run({ ...opts, duration: WARMUP });
    const results: autocannon.Result[] = [];
    for (let i = 0; i < REPEAT; i++) results.push(await run({ ...opts, duration: DURATION }));
    results.sort((a, b) => a.requests.average - b.requests.average);
    const result = results[Math.floor((results.length - 1) / 2)];
    const errors = results.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    rows.push({
      endpoint: ep.name,
      'req/s': Math.round(result.requests.average),
      target: ep.target,
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      'target p99': TARGET_P99,
      met: result.requests.average >= ep.target && result.latency.p99 <= TARGET_P99 ? 'yes' : 'no',
      errors,
    });
  }
  return rows;
}

/**
 * Seeds a fresh store in a temporary folder, starts the all-in-one service on it, gives `use` the
 * context and the service's peak RSS (MiB so far), then stops the service and removes the folder.
 */
async function withService<T>(
  sizes: number | SeedSizes,
  use: (ctx: BenchContext, peakRss: () => number | null) => Promise<T>,
): Promise<{ result: T; seeded: Seeded; seedSeconds: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-'));
  try {
    const port = 18000 + Math.floor(Math.random() * 1000);
    const url = `http://127.0.0.1:${port}`;
    const serviceEnv = allInOneEnv({ port, dataDir, adminPassword: 'bench-admin-password', appPassword: ADMIN_APP_PASSWORD, redisUrl: env.BENCH_REDIS_URL });

    console.log(`seeding the data set (${typeof sizes === 'number' ? `scale ${sizes}` : `${sizes.events} events, ${sizes.posts} posts`}) into ${dataDir} ...`);
    const t0 = Date.now();
    const seeded = await seed(dataDir, sizes);
    const seedSeconds = Number(((Date.now() - t0) / 1000).toFixed(1));
    console.log(
      `seeded in ${seedSeconds} s: ${Object.entries(seeded.counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );

    // BENCH_PROFILE: a CPU profile of the service, one file per service started, for finding where a row's time goes.
    const profile = env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(env.BENCH_PROFILE)}`] : [];
    const child = spawn(process.execPath, [...profile, resolve(__dirname, '../services/main.js'), 'all'], {
      env: serviceEnv,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    try {
      await waitReady(url, child);
      const ctx: BenchContext = {
        url,
        rest: `${url}/index.php/cms-json`,
        auth: `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString('base64')}`,
        seeded,
      };
      const result = await use(ctx, () => peakRssMiB(child.pid));
      return { result, seeded, seedSeconds };
    } finally {
      await stopAll([child]);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function writeResults(prefix: string, data: unknown): string {
  const outDir = resolve(__dirname, '../../bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/** The normal run: every selected row on the data set (times BENCH_SCALE). */
async function main(): Promise<void> {
  const eps = selected(ENDPOINTS);
  if (!eps.length) return;
  const { result: rows, seeded } = await withService(SCALE, (ctx) => runRows(eps, ctx));
  console.table(rows);
  const file = writeResults('bench', { at: new Date().toISOString(), duration: DURATION, connections: CONNECTIONS, scale: SCALE, seeded: seeded.counts, rows });
  console.log(JSON.stringify(rows));
  console.log(`results written to ${file}`);
}

/**
 * The scaling table: per size, a fresh store with that many events and posts and a fresh service, the
 * `scaling` rows (writes last, so the reads see the size as seeded), and the service's peak RSS.
 */
async function scaling(sizes: number[]): Promise<void> {
  const eps = selected(ENDPOINTS.filter((ep) => ep.scaling)).sort((a, b) => Number(a.name.startsWith('POST')) - Number(b.name.startsWith('POST')));
  if (!eps.length) throw new Error('BENCH_ONLY names none of the scaling rows');
  const runs: Array<{ events: number; posts: number; seeded: Record<string, number>; seedSeconds: number; peakRssMiB: number | null; rows: RowResult[] }> = [];
  for (const n of sizes) {
    const { result, seeded, seedSeconds } = await withService({ ...DATA_SET, events: n, posts: n }, async (ctx, peakRss) => {
      const rows = await runRows(eps, ctx);
      return { rows, peak: peakRss() };
    });
    console.table(result.rows);
    runs.push({ events: n, posts: n, seeded: seeded.counts, seedSeconds, peakRssMiB: result.peak, rows: result.rows });
  }
  const table = eps.map((ep, i) => {
    const perSize = runs.map((r) => r.rows[i]);
    const rates = perSize.map((r) => r['req/s']);
    const p99s = perSize.map((r) => r['p99 ms']);
    const spread = (xs: number[]) => (Math.min(...xs) > 0 ? Math.round((Math.max(...xs) / Math.min(...xs) - 1) * 100) : null);
    const row: Record<string, unknown> = { endpoint: ep.name, target: ep.target };
    runs.forEach((r, k) => {
      row[`${r.events} req/s`] = rates[k];
      row[`${r.events} p99`] = p99s[k];
    });
    row['req/s spread %'] = spread(rates);
    row['p99 spread %'] = spread(p99s);
    row.errors = perSize.reduce((sum, r) => sum + r.errors, 0);
    return row;
  });
  console.log(
    `\nscaling: events = posts = ${sizes.join(', ')} (venues ${DATA_SET.venues}, organizers ${DATA_SET.organizers}, categories ${DATA_SET.categories}); ${DURATION} s a row at ${CONNECTIONS} connections; spread = max/min - 1`,
  );
  console.table(table);
  console.log(`peak RSS of the service: ${runs.map((r) => `${r.events}: ${r.peakRssMiB ?? '?'} MiB`).join(', ')}`);
  console.log(`seeding: ${runs.map((r) => `${r.events}: ${r.seedSeconds} s`).join(', ')}`);
  const file = writeResults('bench-scaling', {
    at: new Date().toISOString(),
    duration: DURATION,
    warmup: WARMUP,
    connections: CONNECTIONS,
    sizes: runs,
    table,
  });
  console.log(`results written to ${file}`);
}

(SCALES
  ? scaling(SCALES)
  : main()
      // The import figures (events per second per worker process, peak memory) after the endpoints; bench/import.ts.
      .then(async () => {
        if (!ONLY || ONLY.has('import')) await runImportBench();
        if (!ONLY || ONLY.has('import') || ONLY.has('feed')) await runFeedImportBench();
      })
).catch((e) => {
  console.error(e);
  process.exit(1);
});
