/**
 * The import benchmark (PERFORMANCE.md: at least 5,000 events per second into the store per worker
 * process, growing with the number of workers; memory bounded while importing a 50,000-event feed).
 *
 * For 1 worker, then 2: a fresh embedded store, the all-in-one process (gateway and aggregator service;
 * it consumes no import jobs), N worker processes consuming the `import` queue on Redis, then the
 * import command as a user runs it: `create`, and `feed` of a generated 50,000-event JSON file over
 * HTTP with no wait between batches. Events per second = events stored / wall time of the feed, from
 * the first batch sent to the last answer. Peak RSS of every process is read from the kernel.
 *
 * Environment: BENCH_IMPORT_EVENTS (default 50000), BENCH_IMPORT_BATCH (events per batch, default
 * 1000), BENCH_IMPORT_WORKERS (default "1,2"), BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 * Without a reachable Redis only the inline mode (no workers, jobs run in the service) is measured.
 * Run alone: `npm run build && node dist/bench/import.js`; `npm run bench` runs it after the endpoints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { openStore } from '#libs/store/index';
import { collect, importBenchEnv, peakRssMiB, redisReachable, runAsMain, stopAll, waitReady } from './processes';

const env = process.env;
const EVENTS = Number(env.BENCH_IMPORT_EVENTS ?? 50000);
const BATCH = Number(env.BENCH_IMPORT_BATCH ?? 1000);
const WORKERS = (env.BENCH_IMPORT_WORKERS ?? '1,2')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const REDIS = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TARGET_PER_WORKER = 5000;
const TS = __filename.endsWith('.ts');
/** A folder for V8 CPU profiles of the service, the workers and the feeder (`--cpu-prof`), or none. */
const PROFILE_DIR = env.BENCH_IMPORT_PROFILE ? resolve(env.BENCH_IMPORT_PROFILE) : null;
const profileArgs = (name: string): string[] => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : []);

/** Arguments that run one of the project's entry points, compiled or (from the sources) through swc. */
export function entry(rel: string): string[] {
  const file = resolve(__dirname, '..', TS ? `${rel}.ts` : `${rel}.js`);
  return [...profileArgs(rel.split('/').pop()!), ...(TS ? ['-r', resolve(__dirname, '../scripts/ts-register.js'), file] : [file])];
}

/** The feed: EA event objects with 200 venues, 200 organizers and 50 categories, spread over two years. */
async function writeFeed(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : once(out, 'drain').then(() => undefined));
  await write('[\n');
  const day0 = Date.UTC(2031, 0, 1);
  for (let n = 0; n < count; n++) {
    const start = new Date(day0 + (n % 730) * 86400000);
    const date = start.toISOString().slice(0, 10);
    const event = {
      title: `Imported event ${n}`,
      description: `Description of imported event ${n}. `.repeat(3),
      uid: `bench-${n}@example.com`,
      global_id: `ea.example.com?type=event&id=${n}`,
      start_date: date,
      end_date: date,
      start_hour: String(1 + (n % 12)),
      start_minute: '00',
      start_meridian: n % 2 ? 'pm' : 'am',
      end_hour: String(1 + (n % 12)),
      end_minute: '45',
      end_meridian: 'pm',
      timezone: n % 3 ? 'America/New_York' : 'UTC',
      url: `https://example.com/events/${n}`,
      categories: [`Category ${n % 50}`, ...(n % 2 ? [`Category ${(n + 7) % 50}`] : [])],
      tags: [`tag-${n % 20}`],
      venue: {
        venue: `Venue ${n % 200}`,
        address: `${n % 200} Main Street`,
        city: 'Springfield',
        country: 'United States',
        zip: '62701',
        global_id: `ea.example.com?type=venue&id=${n % 200}`,
      },
      organizer: [
        { organizer: `Organizer ${n % 200}`, email: `o${n % 200}@example.com`, phone: '555-0100', global_id: `ea.example.com?type=organizer&id=${n % 200}` },
      ],
    };
    await write(`${n ? ',\n' : ''}${JSON.stringify(event)}`);
  }
  await write('\n]\n');
  out.end();
  await once(out, 'finish');
}

async function runCommand(args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string; peakMiB: number | null }> {
  const child = spawn(process.execPath, [...entry('scripts/import'), ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const io = collect(child);
  let peak: number | null = null;
  const sampler = setInterval(() => (peak = Math.max(peak ?? 0, peakRssMiB(child.pid) ?? 0)), 250);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(sampler);
  return { code, stdout: io.out(), stderr: io.err(), peakMiB: peak };
}

export interface ImportRow extends Record<string, unknown> {
  mode: string;
  workers: number;
  /** Events the feed sent, and the events found in the store afterwards. */
  events: number;
  stored: number;
  seconds: number;
  /** The target's figure: events stored per second of job time (handler start to commit), per worker process. */
  'stored/s per worker, in job': string;
  'target per worker': number;
  'met (in job)': string;
  /** The feed as a user sees it: events / wall time from the first batch sent to the last answer. */
  'end-to-end events/s': number;
  'end-to-end events/s per worker': number | null;
  'service peak RSS MiB': number | null;
  'worker peak RSS MiB': string;
  'feeder peak RSS MiB': number | null;
}

/** What a bench worker prints when stopped (bench/import-worker.ts). */
export interface WorkerReport {
  maxRssBytes: number;
  jobs: number;
  events: number;
  busyMs: number;
  eventsMs: number;
  cpuMs: number;
}

/** Events in the store after a run: the feed's events must all be there. */
async function storedEvents(dataDir: string): Promise<number> {
  const store = await openStore({ dataDir });
  try {
    return await store.collection('posts').count({ type: EVENT_TYPE });
  } finally {
    await store.close();
  }
}

async function runOnce(feed: string, workers: number, redisUrl: string | null): Promise<ImportRow> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-import-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const prefix = `bench-import-${process.pid}-${Date.now().toString(36)}`;
  const baseEnv: NodeJS.ProcessEnv = {
    ...importBenchEnv({ dataDir, url, redisUrl: redisUrl ?? '', queuePrefix: prefix }),
    MAX_BODY_BYTES: String(16 * 1024 * 1024),
  };
  const children: ChildProcess[] = [];
  try {
    const service = spawn(process.execPath, [...entry('services/main'), 'all'], {
      env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', ADMIN_USER: 'admin', ADMIN_PASSWORD: 'bench-admin-password', WORKER_QUEUES: 'batch' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(service);
    await waitReady(url, service);
    const workerProcs: ChildProcess[] = [];
    const workerOut: Array<() => string> = [];
    for (let i = 0; i < workers; i++) {
      const w = spawn(process.execPath, entry('bench/import-worker'), { env: { ...baseEnv, WORKER_CONCURRENCY: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(w);
      workerProcs.push(w);
      const io = collect(w);
      workerOut.push(io.out);
      const deadline = Date.now() + 30000;
      while (!io.out().includes('ready')) {
        if (w.exitCode !== null || Date.now() > deadline) throw new Error('import worker did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const created = await runCommand(['create', '--origin', 'json'], baseEnv);
    if (created.code !== 0) throw new Error(`import create failed: ${created.stderr}`);
    const { import_id: importId, batch_hash: hash } = JSON.parse(created.stdout);
    const fed = await runCommand(
      [
        'feed',
        feed,
        '--import-id',
        importId,
        '--batch-hash',
        hash,
        '--url',
        `${url}/index.php/cms-json`,
        '--batch-size',
        String(BATCH),
        '--interval-override',
        '0',
        '--max-body-bytes',
        baseEnv.MAX_BODY_BYTES!,
      ],
      baseEnv,
    );
    if (fed.code !== 0) throw new Error(`import feed failed: ${fed.stderr.slice(-2000)}`);
    const summary = JSON.parse(fed.stdout.trim().split('\n').pop()!);
    const servicePeak = peakRssMiB(service.pid);
    const workerPeaks = workerProcs.map((w) => peakRssMiB(w.pid));
    // Each worker reports its job time when stopped (after its last job, so nothing is cut short).
    const reports: WorkerReport[] = [];
    for (let i = 0; i < workerProcs.length; i++) {
      const w = workerProcs[i];
      w.kill('SIGTERM');
      if (w.exitCode === null) await once(w, 'exit');
      reports.push(JSON.parse(workerOut[i]().trim().split('\n').pop()!) as WorkerReport);
    }
    const perJob = reports.map((r) => (r.busyMs > 0 ? Math.round(r.events / (r.busyMs / 1000)) : 0));
    for (const [i, r] of reports.entries()) {
      console.log(
        `  worker ${i + 1}: ${r.jobs} jobs, ${r.events} events stored in ${(r.busyMs / 1000).toFixed(2)} s of job time ` +
          `(${(r.eventsMs / 1000).toFixed(2)} s in events steps, the rest in linked-record steps; ${(r.cpuMs / 1000).toFixed(2)} s of CPU): ${perJob[i]} events/s`,
      );
    }
    const perSecond = Math.round(summary.events / summary.seconds);
    return {
      mode: redisUrl ? 'BullMQ workers' : 'inline (no Redis)',
      workers,
      events: summary.events,
      stored: await storedEvents(dataDir),
      seconds: Number(summary.seconds.toFixed(1)),
      'stored/s per worker, in job': perJob.join(', ') || '-',
      'target per worker': TARGET_PER_WORKER,
      'met (in job)': perJob.length ? (perJob.every((n) => n >= TARGET_PER_WORKER) ? 'yes' : 'no') : '-',
      'end-to-end events/s': perSecond,
      'end-to-end events/s per worker': workers ? Math.round(perSecond / workers) : null,
      'service peak RSS MiB': servicePeak,
      'worker peak RSS MiB': workerPeaks.join(', ') || '-',
      'feeder peak RSS MiB': fed.peakMiB,
    };
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runImportBench(): Promise<ImportRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ecs-bench-feed-'));
  const feed = join(dir, 'feed.json');
  try {
    console.log(`import benchmark: writing a ${EVENTS}-event feed ...`);
    await writeFeed(feed, EVENTS);
    const rows: ImportRow[] = [];
    if (await redisReachable(REDIS)) {
      for (const n of WORKERS) {
        console.log(`import benchmark: ${n} worker process(es) on ${REDIS} ...`);
        rows.push(await runOnce(feed, n, REDIS));
      }
    } else {
      console.log(`import benchmark: no Redis at ${REDIS} (set BENCH_REDIS_URL); measuring the inline mode only`);
      rows.push(await runOnce(feed, 0, null));
    }
    console.table(rows);
    console.log(
      [
        `"stored/s per worker, in job" is the target's figure: events each worker process stored per second of job time (from the`,
        `handler's start to the store's commit, summed over its jobs); "end-to-end" is the feed as the import command sees it, from the`,
        `first batch sent to the last answer, including HTTP, checking, Redis hops and the service's bookkeeping.`,
        `This machine has ${cpus().length} cores, shared by the feeder, the service (gateway and aggregator), Redis and the workers, and`,
        `the embedded SQLite store takes one writer at a time: end-to-end throughput cannot grow in proportion to the workers here.`,
      ].join('\n'),
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) runAsMain(runImportBench);
