import { listSkip } from './paging';

describe('listSkip', () => {
  it('skips a non-zero offset as the reference reads it (absint), else whole pages', () => {
    expect(listSkip(5, 3, 10)).toBe(5);
    expect(listSkip(-5, 3, 10)).toBe(5);
    expect(listSkip(0, 3, 10)).toBe(20);
    expect(listSkip(undefined, 1, 10)).toBe(0);
    expect(listSkip(2.7, 1, 10)).toBe(2);
  });

  it('gives a non-negative integer for whatever passed validation', () => {
    for (const offset of [-1e21, 1e21, -Number.MAX_SAFE_INTEGER, Infinity, NaN, '3', null]) {
      const skip = listSkip(offset, 1e20, 100);
      expect([offset, Number.isInteger(skip) && skip >= 0]).toEqual([offset, true]);
    }
  });
});
