/**
 * Loaded into the service by bench/soak.ts (`node --expose-gc -r dist/bench/soak-probe.js`): on
 * SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() to stderr as one marked
 * line, so that the soak compares live memory rather than wherever the collector's saw-tooth happens
 * to be when it looks. The service itself is unchanged.
 */
export const PROBE_MARK = 'soak-probe-memory ';

// Only in the service the soak starts (bench/soak.ts imports the mark, and must not answer the signal itself).
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  process.on('SIGUSR2', () => {
    gc();
    gc();
    // Let the sweeper give pages back before reading.
    setTimeout(() => process.stderr.write(`${PROBE_MARK}${JSON.stringify(process.memoryUsage())}\n`), 500);
  });
}
