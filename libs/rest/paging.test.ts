import { MAX_WINDOW } from '../store/query';
import { listSkip, pageSlice } from './paging';

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

describe('list windows no store could reach', () => {
  it('skips at most MAX_WINDOW rows, even where page × per_page is Infinity', () => {
    expect(listSkip(undefined, 1e308, 10)).toBe(MAX_WINDOW);
    expect(listSkip(undefined, 3, 1e308)).toBe(MAX_WINDOW);
    expect(listSkip(1e308, 1, 10)).toBe(MAX_WINDOW);
    expect(listSkip(-1e308, 1, 10)).toBe(MAX_WINDOW);
    expect(listSkip(undefined, 2, NaN)).toBe(0);
  });

  it('slices a list held in memory as a stored one is windowed', () => {
    const items = [1, 2, 3, 4, 5];
    expect(pageSlice(items, 2, 2)).toEqual([3, 4]);
    expect(pageSlice(items, 1, 2, -3)).toEqual([4, 5]);
    expect(pageSlice(items, 1e308, 10)).toEqual([]);
    expect(pageSlice(items, 1, 1e308)).toEqual(items);
  });
});
