/**
 * How a function's cost grows with its input, as a ratio measured in one process, so that a test can
 * tell linear from quadratic work on any machine: `growth(run, n)` is the CPU time of `run(4n)` over
 * that of `run(n)`, each the least of three runs, and the least such ratio of three measurements.
 * Linear work gives about 4, quadratic about 16. A test worker that has run many suites sometimes bills
 * one measurement for a pause that is not the code's own (ratios of 8-14 seen there for a filter that
 * gives 3.4-4.2 alone); work that really grows faster than its input does so in every measurement.
 */
export function growth(run: (n: number) => unknown, n: number): number {
  const cost = (size: number): number => {
    let least = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = process.cpuUsage();
      run(size);
      const used = process.cpuUsage(started);
      least = Math.min(least, used.user + used.system);
    }
    return Math.max(least, 1);
  };
  run(n); // warm up: the first call pays for compiling the code under test
  let ratio = Infinity;
  for (let i = 0; i < 3; i++) ratio = Math.min(ratio, cost(4 * n) / cost(n));
  return ratio;
}

/** Below this, `growth` shows work that grows at most a little faster than its input. */
export const LINEAR = 8;
