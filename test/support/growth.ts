/**
 * How a function's cost grows with its input, as a ratio measured in one process, so that a test can
 * tell linear from quadratic work on any machine: `growth(run, n)` is the CPU time of `run(4n)` over
 * that of `run(n)`, each the least of five runs (on a loaded machine a garbage collection or a slow stretch
 * can fall on three runs in a row). Linear work gives about 4, quadratic about 16.
 */
import * as v8 from 'node:v8';

// A regular expression first runs as bytecode and is compiled to machine code once it has run a while
// ("tier-up"); a collection may drop that code again. In a test worker that has run many suites the
// collections come often, so a measurement could time the bytecode at one size and machine code at the
// other (ratios of 8-14 measured where the filter alone gives 3.4-4.2). Compiled at once, every run
// measures the same code.
v8.setFlagsFromString('--no-regexp-tier-up');

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
