/**
 * Statements and commits the embedded store ran in this process, counted only when BENCH_COUNT_SQL=1
 * (the benchmark reads them from /metrics to report SQL statements and commits per request). Off, the
 * count costs one property read per statement.
 */
export const sqlCount = {
  on: process.env.BENCH_COUNT_SQL === '1',
  /** Statements prepared or taken from the statement cache (one per statement run). */
  statements: 0,
  /** Outermost transactions committed (a write, a unit of work, nextId outside a unit). */
  commits: 0,
};
