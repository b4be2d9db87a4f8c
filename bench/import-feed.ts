/**
 * The feed import benchmark: a 50,000-event iCalendar file imported by one worker process through an
 * import source (PERFORMANCE.md's import target: at least 5,000 events per second stored per worker,
 * memory bounded). The file (TZID'd events in three zones, 200 venues, 200 organizers, 50 categories,
 * over two years) is served on loopback and allowed through OUTBOUND_ALLOW_HOSTS; the all-in-one process
 * (consuming no import jobs) takes the source over REST and one worker process (bench/import-worker.ts)
 * fetches, parses and stores it. Figures: events stored per second of job time (fetch, parse and store,
 * from the handler's start to its return), end to end (from the POST to the finished run), and the peak
 * RSS of the worker and the service. Needs Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379).
 *
 * Environment: BENCH_FEED_EVENTS (default 50000), BENCH_FEED_WORKER_HEAP_MB (the worker's V8 heap limit). Run alone: `npm run build && node dist/bench/import-feed.js`;
 * `npm run bench` runs it after the batch import rows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entry, type WorkerReport } from './import';
import { collect, importBenchEnv, peakRssMiB, redisReachable, runAsMain, stopAll, waitReady } from './processes';

const env = process.env;
const EVENTS = Number(env.BENCH_FEED_EVENTS ?? 50000);
const REDIS = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TARGET_PER_WORKER = 5000;
const APP_PASSWORD = 'benchBENCHbenchBENCHbnch';
const ZONES = ['America/New_York', 'Europe/Berlin', 'UTC'];
/** The worker's V8 old-space limit in MiB (`--max-old-space-size`), to show the memory an import needs; default Node's own. */
const WORKER_HEAP_MB = env.BENCH_FEED_WORKER_HEAP_MB ? Number(env.BENCH_FEED_WORKER_HEAP_MB) : null;

const pad = (n: number) => String(n).padStart(2, '0');

/** The feed: one VEVENT per event, as a calendar program exports it. */
export function icsFeed(count: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Events Calendar Content Service//Bench feed//EN', 'X-WR-CALNAME:Bench feed'];
  const day0 = Date.UTC(2031, 0, 1);
  for (let n = 0; n < count; n++) {
    const d = new Date(day0 + (n % 730) * 86_400_000);
    const date = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
    const hour = 8 + (n % 12);
    const zone = ZONES[n % 3];
    const tz = zone === 'UTC' ? '' : `;TZID=${zone}`;
    const z = zone === 'UTC' ? 'Z' : '';
    lines.push(
      'BEGIN:VEVENT',
      `UID:bench-${n}@feed.example.org`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART${tz}:${date}T${pad(hour)}0000${z}`,
      `DTEND${tz}:${date}T${pad(hour + 1)}3000${z}`,
      `SUMMARY:Feed event ${n}`,
      `DESCRIPTION:Description of feed event ${n}. A second sentence\\, with a comma.`,
      `LOCATION:Venue ${n % 200}\\, ${n % 200} Main Street\\, Springfield`,
      `ORGANIZER;CN=Organizer ${n % 200}:mailto:o${n % 200}@example.org`,
      `CATEGORIES:Category ${n % 50}`,
      `URL:https://feed.example.org/events/${n}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

export interface FeedImportRow extends Record<string, unknown> {
  events: number;
  'feed MB': number;
  'stored/s per worker, in job': number;
  'target per worker': number;
  met: string;
  'end-to-end seconds': number;
  'end-to-end events/s': number;
  'worker peak RSS MiB': number | null;
  'service peak RSS MiB': number | null;
}

export async function runFeedImportBench(): Promise<FeedImportRow | null> {
  if (!(await redisReachable(REDIS))) {
    console.log(`feed import benchmark: no Redis at ${REDIS} (set BENCH_REDIS_URL); skipped`);
    return null;
  }
  console.log(`feed import benchmark: writing a ${EVENTS}-event iCalendar feed ...`);
  const body = Buffer.from(icsFeed(EVENTS));
  const feed = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/calendar', 'Content-Length': body.length }).end(body));
  feed.listen(0, '127.0.0.1');
  await once(feed, 'listening');
  const feedPort = (feed.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-feed-'));
  const port = 20000 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const baseEnv: NodeJS.ProcessEnv = {
    ...importBenchEnv({ dataDir, url, redisUrl: REDIS, queuePrefix: `bench-feed-${process.pid}-${Date.now().toString(36)}` }),
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${feedPort}`,
  };
  const children: ChildProcess[] = [];
  try {
    const service = spawn(process.execPath, [...entry('services/main'), 'all'], {
      env: {
        ...baseEnv,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_USER: 'admin',
        ADMIN_PASSWORD: 'bench-admin-password',
        ADMIN_APP_PASSWORD: APP_PASSWORD,
        WORKER_QUEUES: 'batch',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(service);
    await waitReady(url, service);
    const heapArgs = WORKER_HEAP_MB ? [`--max-old-space-size=${WORKER_HEAP_MB}`] : [];
    const worker = spawn(process.execPath, [...heapArgs, ...entry('bench/import-worker')], {
      env: { ...baseEnv, WORKER_CONCURRENCY: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(worker);
    const io = collect(worker);
    const deadline = Date.now() + 30_000;
    while (!io.out().includes('ready')) {
      if (worker.exitCode !== null || Date.now() > deadline) throw new Error('import worker did not start');
      await new Promise((r) => setTimeout(r, 100));
    }

    const auth = `Basic ${Buffer.from(`admin:${APP_PASSWORD}`).toString('base64')}`;
    const api = `${url}/index.php/cms-json/vendor/event-aggregator/v1/sources`;
    const started = Date.now();
    const created = await fetch(api, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ origin: 'ical', source: `http://127.0.0.1:${feedPort}/feed.ics` }),
    });
    if (created.status !== 201) throw new Error(`source not created: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: number };
    let run: { status: string; total_events: number; message: string; counts: Record<string, { created: number }> };
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      run = ((await (await fetch(`${api}/${id}`, { headers: { Authorization: auth } })).json()) as { last_run: typeof run }).last_run;
      if (run.status !== 'pending') break;
      if (Date.now() - started > 15 * 60_000) throw new Error('the feed import did not finish within 15 minutes');
    }
    const seconds = (Date.now() - started) / 1000;
    if (run.status !== 'success') throw new Error(`the feed import failed: ${run.message}`);
    const servicePeak = peakRssMiB(service.pid);
    const workerPeak = peakRssMiB(worker.pid);
    worker.kill('SIGTERM');
    if (worker.exitCode === null) await once(worker, 'exit');
    const report = JSON.parse(io.out().trim().split('\n').pop()!) as WorkerReport;
    const perJob = report.eventsMs > 0 ? Math.round(report.events / (report.eventsMs / 1000)) : 0;
    console.log(
      `  worker: ${report.events} events fetched, parsed and stored in ${(report.eventsMs / 1000).toFixed(2)} s of job time (${(report.cpuMs / 1000).toFixed(2)} s of CPU): ${perJob} events/s`,
    );
    const row: FeedImportRow = {
      events: run.counts.vendor_events?.created ?? 0,
      'feed MB': Math.round((body.length / 1024 / 1024) * 10) / 10,
      'stored/s per worker, in job': perJob,
      'target per worker': TARGET_PER_WORKER,
      met: perJob >= TARGET_PER_WORKER ? 'yes' : 'no',
      'end-to-end seconds': Number(seconds.toFixed(1)),
      'end-to-end events/s': Math.round(EVENTS / seconds),
      'worker peak RSS MiB': workerPeak,
      'service peak RSS MiB': servicePeak,
    };
    console.table([row]);
    return row;
  } finally {
    await stopAll(children);
    feed.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) runAsMain(runFeedImportBench);
