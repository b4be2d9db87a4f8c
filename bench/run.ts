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
 *
 * BENCH_ONLY=geoloc runs only the extended edition's geofence list at 1,000 and 100,000 venues
 * (bench/geoloc.ts; BENCH_GEO_VENUES changes the sizes); the full run ends with it.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENDPOINTS } from './endpoints';
import { runImportBench } from './import';
import { runKsesBench } from './kses';
import { runLimit } from './limit';
import { runFeedImportBench } from './import-feed';
import { runGeolocBench } from './geoloc';
import { CONNECTIONS, DURATION, ONLY, QUICK, randomPort, REPEAT, SCALE, SCALES, selected, SERVICE_LOG_LEVEL, WARMUP, writeResults } from './options';
import { allInOneEnv } from './processes';
import { runRows, type RowResult } from './rows';
import { scaling } from './scaling';
import { ADMIN_APP_PASSWORD, startService } from './service';

const env = process.env;

/**
 * BENCH_BASELINE names the `dist` folder of a built checkout: the baseline service resolves `#libs`
 * through the checkout's package.json and serves its calendar assets from beside `dist`, so a `dist`
 * copied on its own cannot start; say so before seeding anything.
 */
function checkBaseline(dist: string | undefined): void {
  if (!dist) return;
  const root = resolve(dist, '..');
  const missing = ['services/main.js']
    .map((f) => join(resolve(dist), f))
    .concat(['package.json', 'node_modules'].map((f) => join(root, f)))
    .filter((f) => !existsSync(f));
  if (missing.length)
    throw new Error(
      `BENCH_BASELINE must be the dist folder of a built checkout (with its package.json and node_modules beside it); missing: ${missing.join(', ')}`,
    );
}

/**
 * The normal run on the data set (times BENCH_SCALE): first the limit table (bench/limit.ts: each row
 * on the service, the minimal app and the bare server, interleaved), then every selected endpoint row
 * against PERFORMANCE.md's targets (not in the quick mode).
 */
async function main(): Promise<void> {
  checkBaseline(env.BENCH_BASELINE);
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

(SCALES
  ? scaling(SCALES)
  : ONLY?.size === 1 && ONLY.has('geoloc')
    ? runGeolocBench()
    : QUICK
      ? main()
      : main()
          // The HTML filter's cost per call (bench/kses.ts), then the import figures (events per second per
          // worker process, peak memory) after the endpoints; bench/import.ts.
          .then(async () => {
            if (!ONLY || ONLY.has('kses')) runKsesBench();
            if (!ONLY || ONLY.has('import')) await runImportBench();
            if (!ONLY || ONLY.has('import') || ONLY.has('feed')) await runFeedImportBench();
            if (!ONLY || ONLY.has('geoloc')) await runGeolocBench();
          })
).catch((e) => {
  console.error(e);
  process.exit(1);
});
