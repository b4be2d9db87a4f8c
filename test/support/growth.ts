/**
 * How a function's cost grows with its input, as a ratio measured in one process, so that a test can
 * tell linear from quadratic work on any machine: `growth(run, n)` is the CPU time of `run(4n)` over
 * that of `run(n)`, each the least of five runs (on a loaded machine a garbage collection or a slow stretch
 * can fall on three runs in a row). Linear work gives about 4, quadratic about 16.
 */
export function growth(run: (n: number) => unknown, n: number): number {
  const cost = (size: number): number => {
    let least = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.cpuUsage();
      run(size);
      const used = process.cpuUsage(started);
      least = Math.min(least, used.user + used.system);
    }
    return Math.max(least, 1);
  };
  run(n); // warm up: the first call pays for compiling the code under test
  return cost(4 * n) / cost(n);
}

/** Below this, `growth` shows work that grows at most a little faster than its input. */
export const LINEAR = 8;
