/**
 * Remembered answers of a costly pure function, within one process: the one mechanism for a module that
 * would otherwise keep "the last answer" in a variable of its own. (What is kept between requests from
 * the store, and dropped when it is written, is libs/store/kept.ts's business, not this.)
 *
 * `memo(fn, size)` keeps the answers for the last `size` distinct argument lists, the least recently
 * used dropped first. Arguments are compared one by one with `===`, so only strings, numbers and
 * booleans can be arguments, and NaN, which equals nothing, is never remembered. The function must be
 * pure: its answer depends on its arguments alone. Whatever else it would read (the clock, a setting)
 * is passed in, in the form the answer depends on (the local day rather than the instant "now"), so
 * a remembered answer is always the one the function would give. Answers are shared between callers:
 * nobody may change one.
 */
export type MemoArg = string | number | boolean;

export function memo<A extends MemoArg[], R>(fn: (...args: A) => R, size = 1): (...args: A) => R {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`memo size must be a positive integer, not ${size}`);
  /** Most recently used first; a few entries, so a scan is cheaper than hashing the arguments. */
  const entries: Array<{ args: A; value: R }> = [];
  const same = (a: A, b: A) => a.length === b.length && a.every((x, i) => x === b[i]);
  return (...args: A): R => {
    const i = entries.findIndex((e) => same(e.args, args));
    if (i >= 0) {
      const hit = entries[i];
      if (i > 0) {
        entries.splice(i, 1);
        entries.unshift(hit);
      }
      return hit.value;
    }
    const value = fn(...args);
    entries.unshift({ args, value });
    if (entries.length > size) entries.pop();
    return value;
  };
}
