/** The bench's settings from the environment (documented in bench/run.ts), and what its parts share. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchEndpoint } from './endpoints';

const env = process.env;
/** BENCH_QUICK=1: only the limit table, 2 s a measurement after 1 s of warm-up, 3 rounds (under ~3 minutes). */
export const QUICK = env.BENCH_QUICK === '1';
export const DURATION = Number(env.BENCH_DURATION ?? (QUICK ? 2 : 10));
export const WARMUP = Number(env.BENCH_WARMUP ?? (QUICK ? 1 : 2));
/** Measurements per row; the one with the median rate is reported, so one noisy stretch of a shared machine does not make a row. */
export const REPEAT = Math.max(1, Math.floor(Number(env.BENCH_REPEAT ?? 3)) || 1);
export const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 8);
export const SCALE = Number(env.BENCH_SCALE ?? 1);
export const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
export const SCALES = env.BENCH_SCALES ? env.BENCH_SCALES.split(',').map((s) => Number(s.trim())) : null;
if (SCALES?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SCALES: a comma list of event counts, not ${env.BENCH_SCALES}`);
export const TARGET_P99 = 25;
/** BENCH_LOG_LEVEL: the service's log level; info by default, as it runs in production (a request log line per request). */
export const SERVICE_LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';

export const selected = (eps: BenchEndpoint[]) => eps.filter((ep) => !ONLY || ONLY.has(ep.name));

/** BENCH_PORT: the first of the ports the run takes (the service, then the bare server and the minimal app); random otherwise. */
export const randomPort = () => (env.BENCH_PORT ? Number(env.BENCH_PORT) : 18000 + Math.floor(Math.random() * 900));

export function writeResults(prefix: string, data: unknown): string {
  const outDir = resolve(__dirname, '../../bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}
