/**
 * `npm run bench`: starts the service in all-in-one mode on a fresh embedded store (a child process,
 * as a user runs it), loads the data set of PERFORMANCE.md through the store, drives each endpoint
 * with autocannon at 8 connections after a warm-up, and prints requests/s and latency percentiles
 * beside the targets, as a table and as JSON under bench/results/.
 *
 * Options (environment): BENCH_DURATION seconds per endpoint (default 10), BENCH_WARMUP seconds
 * (default 2), BENCH_CONNECTIONS (default 8), BENCH_ONLY (comma list of endpoint names),
 * BENCH_SCALE (fraction of the data set, default 1). Then the import benchmark (bench/import.ts; BENCH_ONLY=import
 * runs only it).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { ENDPOINTS, type BenchContext } from './endpoints';
import { runImportBench } from './import';
import { runFeedImportBench } from './import-feed';
import { seed } from './seed';
import { waitReady } from './processes';

const ADMIN_APP_PASSWORD = 'benchBENCHbench1234ABCDE';
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 8);
const SCALE = Number(env.BENCH_SCALE ?? 1);
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolveRun(result)));
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-'));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const serviceEnv = {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SITE_URL: url,
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'bench-admin-password',
    ADMIN_APP_PASSWORD,
    LOG_LEVEL: 'warn',
    MONGO_URL: '',
    REDIS_URL: env.BENCH_REDIS_URL ?? '',
  };

  console.log(`seeding the data set (scale ${SCALE}) into ${dataDir} ...`);
  const t0 = Date.now();
  const seeded = await seed(dataDir, SCALE);
  console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${Object.entries(seeded.counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);

  const child = spawn(process.execPath, [resolve(__dirname, '../services/main.js'), 'all'], { env: serviceEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitReady(url, child);
    const ctx: BenchContext = { url, rest: `${url}/index.php/cms-json`, auth: `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString('base64')}`, seeded };
    const rows: Array<Record<string, unknown>> = [];
    for (const ep of ENDPOINTS) {
      if (ONLY && !ONLY.has(ep.name)) continue;
      const req = ep.request(ctx);
      const opts: autocannon.Options = {
        url: req.url,
        method: req.method ?? 'GET',
        connections: CONNECTIONS,
        headers: { ...(req.auth ? { authorization: ctx.auth } : {}), ...(req.body ? { 'content-type': 'application/json' } : {}) },
        ...(req.body ? { body: typeof req.body === 'function' ? undefined : JSON.stringify(req.body) } : {}),
        ...(typeof req.body === 'function' ? { requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, body: JSON.stringify((req.body as () => unknown)()) }) }] } : {}),
      };
      await run({ ...opts, duration: WARMUP });
      const result = await run({ ...opts, duration: DURATION });
      const non2xx = result.non2xx;
      rows.push({
        endpoint: ep.name,
        'req/s': Math.round(result.requests.average),
        target: ep.target,
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        'target p99': 25,
        met: result.requests.average >= ep.target && result.latency.p99 <= 25 ? 'yes' : 'no',
        errors: result.errors + non2xx,
      });
    }
    console.table(rows);
    const outDir = resolve(__dirname, '../../bench/results');
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), duration: DURATION, connections: CONNECTIONS, scale: SCALE, seeded: seeded.counts, rows }, null, 2));
    console.log(JSON.stringify(rows));
    console.log(`results written to ${file}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main()
  // The import figures (events per second per worker process, peak memory) after the endpoints; bench/import.ts.
  .then(async () => {
    if (!ONLY || ONLY.has('import')) await runImportBench();
    if (!ONLY || ONLY.has('import') || ONLY.has('feed')) await runFeedImportBench();
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
