import { Args, isRecord } from './args';

describe('Args', () => {
  const a = new Args({ s: 'x', n: 1.5, i: 3, b: false, e: 'draft', l: ['a', 2, 'b'], ints: [1, 2.5, 3, '4'], o: { k: 1 }, z: null, arr: [1] });

  it('reads each declared type and answers undefined for an absent or other-typed value', () => {
    expect([a.str('s'), a.str('n'), a.str('missing')]).toEqual(['x', undefined, undefined]);
    expect([a.num('n'), a.num('i'), a.num('s')]).toEqual([1.5, 3, undefined]);
    expect([a.int('i'), a.int('n')]).toEqual([3, undefined]);
    expect([a.bool('b'), a.bool('s')]).toEqual([false, undefined]);
    expect([a.obj('o'), a.obj('arr'), a.obj('z')]).toEqual([{ k: 1 }, undefined, undefined]);
  });

  it('narrows an enum to its allowed values', () => {
    expect(a.oneOf('e', ['draft', 'publish'] as const)).toBe('draft');
    expect(a.oneOf('e', ['publish'] as const)).toBeUndefined();
  });

  it('reads arrays by element type, empty when absent', () => {
    expect(a.list('l')).toEqual(['a', 2, 'b']);
    expect(a.strs('l')).toEqual(['a', 'b']);
    expect(a.ints('ints')).toEqual([1, 3]);
    expect(a.strs('missing')).toEqual([]);
  });

  it('tells a given null from an absent argument', () => {
    expect(a.has('z')).toBe(true);
    expect(a.has('missing')).toBe(false);
    expect(isRecord(null)).toBe(false);
  });
});
