/**
 * Prometheus metrics of this process, served at /metrics. One registry per process (not prom-client's
 * global one, so nothing a library registers there leaks in): Node's default metrics, HTTP requests,
 * queue depths and jobs.
 */
import { sqlCount } from '../store/sql-count';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type JobOutcome = 'completed' | 'retry' | 'failed';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duration of HTTP requests in seconds, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const httpTotal = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

let depthSource: (() => Promise<Record<string, number>>) | undefined;

new Gauge({
  name: 'queue_depth',
  help: 'Jobs waiting, delayed or running, per queue.',
  labelNames: ['queue'] as const,
  registers: [registry],
  // Read at scrape time, so the value is current and no timer polls Redis between scrapes.
  async collect() {
    this.reset();
    if (!depthSource) return;
    try {
      const depths = await depthSource();
      for (const [queue, n] of Object.entries(depths)) this.set({ queue }, n);
    } catch {
      // An unreachable queue must not break the whole scrape; the series are absent until it is back.
    }
  },
});

// BENCH_COUNT_SQL=1: the embedded store's statements and commits so far, for the benchmark's SQL per request.
if (sqlCount.on) {
  new Gauge({
    name: 'store_sql_statements',
    help: 'SQL statements the embedded store ran in this process (BENCH_COUNT_SQL=1 only).',
    registers: [registry],
    collect() {
      this.set(sqlCount.statements);
    },
  });
  new Gauge({
    name: 'store_sql_commits',
    help: 'Transactions the embedded store committed in this process (BENCH_COUNT_SQL=1 only).',
    registers: [registry],
    collect() {
      this.set(sqlCount.commits);
    },
  });
}

const jobsTotal = new Counter({
  name: 'jobs_total',
  help: 'Job attempts by job name and outcome (completed, retry: failed and will run again, failed: failed for good).',
  labelNames: ['name', 'outcome'] as const,
  registers: [registry],
});

const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'Duration of job attempts in seconds, by job name.',
  labelNames: ['name'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

/**
 * Records one answered request. `route` must be the route pattern (or a fixed placeholder for
 * unmatched paths), never the raw path, to keep the number of series bounded.
 */
export function observeRequest(method: string, route: string, status: number | string, seconds: number): void {
  const labels = { method: method.toUpperCase(), route, status: String(status) };
  httpDuration.observe(labels, seconds);
  httpTotal.inc(labels);
}

/** Sets the callback read at each scrape for the `queue_depth` gauge (the queue's `depths()`). */
export function setQueueDepthSource(fn: (() => Promise<Record<string, number>>) | undefined): void {
  depthSource = fn;
}

/** Records one job attempt. The queue layer calls it for every attempt it runs. */
export function observeJob(name: string, outcome: JobOutcome, seconds: number): void {
  jobsTotal.inc({ name, outcome });
  jobDuration.observe({ name }, seconds);
}

/** The text exposition of every metric, with its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
