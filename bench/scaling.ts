/** BENCH_SCALES: the scaling table (documented in bench/run.ts). */
import { DATA_SET } from './data-set';
import { ENDPOINTS } from './endpoints';
import { CONNECTIONS, DURATION, randomPort, REPEAT, selected, WARMUP, writeResults } from './options';
import { measureAcross, spreadPct as spread, type RowResult } from './rows';
import { startService, type Service } from './service';

/**
 * The scaling table: one fresh store with that many events and posts and one service per size, all
 * running at once; each `scaling` row (writes last, so the reads see the sizes as seeded) is measured
 * on every size in turn, BENCH_REPEAT rounds, so that a slow stretch of a shared machine falls on all
 * sizes alike instead of on the size measured during it. Besides requests/s and p99, the service's
 * CPU time per request, which a stalled or busy machine changes less than the rate; and each service's
 * peak RSS.
 */
export async function scaling(sizes: number[]): Promise<void> {
  const eps = selected(ENDPOINTS.filter((ep) => ep.scaling)).sort((a, b) => Number(a.name.startsWith('POST')) - Number(b.name.startsWith('POST')));
  if (!eps.length) throw new Error('BENCH_ONLY names none of the scaling rows');
  const base = randomPort();
  const services: Service[] = [];
  const rowsBySize: RowResult[][] = sizes.map(() => []);
  let peaks: Array<number | null> = [];
  try {
    for (const [k, n] of sizes.entries()) services.push(await startService({ ...DATA_SET, events: n, posts: n }, base + k));
    for (const ep of eps) {
      const results = await measureAcross(ep, services);
      sizes.forEach((_, k) => rowsBySize[k].push(results[k]));
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
