/** Driving one bench row against a running service with autocannon, and its figures. */
import autocannon from 'autocannon';
import type { BenchContext, BenchEndpoint } from './endpoints';
import { CONNECTIONS, DURATION, REPEAT, TARGET_P99, WARMUP } from './options';
import { cpuSeconds } from './processes';

export function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolveRun(result)));
  });
}

export interface RowResult extends Record<string, unknown> {
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
export interface Measurement {
  result: autocannon.Result;
  cpuMicros: { user: number; system: number } | null;
}

/**
 * A row's autocannon options against the running service. A row with several URLs sends each request
 * to the next of them (the path set per request, as a body function sets the body), across all
 * connections.
 */
export function rowOptions(ep: BenchEndpoint, ctx: BenchContext): autocannon.Options {
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
export async function measure(opts: autocannon.Options, pid: number | undefined): Promise<Measurement> {
  const cpu0 = cpuSeconds(pid);
  const result = await run({ ...opts, duration: DURATION });
  const cpu1 = cpuSeconds(pid);
  const answered = result.requests.total;
  const perRequest = (a: number, b: number) => Math.round(((b - a) / answered) * 1e6);
  const cpuMicros = cpu0 && cpu1 && answered > 0 ? { user: perRequest(cpu0.user, cpu1.user), system: perRequest(cpu0.system, cpu1.system) } : null;
  return { result, cpuMicros };
}

export const median = <T>(xs: T[], key: (x: T) => number): T => [...xs].sort((a, b) => key(a) - key(b))[Math.floor((xs.length - 1) / 2)];

/** A row's figures from its measurements: the one with the median rate, errors summed over all, the median CPU per request. */
export function summarise(ep: BenchEndpoint, ms: Measurement[]): RowResult {
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
export async function runRows(eps: BenchEndpoint[], service: { ctx: BenchContext; pid: number | undefined }): Promise<RowResult[]> {
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

/**
 * One row measured on several running services in turn: a warm-up on each, then BENCH_REPEAT rounds,
 * each starting at the next service so that none is always measured first (a slow stretch of a shared
 * machine falls on all alike); the row's figures on each service.
 */
export async function measureAcross(ep: BenchEndpoint, services: Array<{ ctx: BenchContext; pid: number | undefined }>): Promise<RowResult[]> {
  const opts = services.map((s) => rowOptions(ep, s.ctx));
  for (const o of opts) await run({ ...o, duration: WARMUP });
  const ms: Measurement[][] = services.map(() => []);
  for (let round = 0; round < REPEAT; round++) {
    for (let j = 0; j < services.length; j++) {
      const k = (round + j) % services.length;
      ms[k].push(await measure(opts[k], services[k].pid));
    }
  }
  return ms.map((m) => summarise(ep, m));
}

/** How far a figure spreads over sizes: max/min - 1, in %; null when one is missing. */
export function spreadPct(xs: Array<number | null>): number | null {
  const ns = xs.filter((x): x is number => x !== null);
  return ns.length === xs.length && Math.min(...ns) > 0 ? Math.round((Math.max(...ns) / Math.min(...ns) - 1) * 100) : null;
}
