import { memo } from './memo';

describe('memo', () => {
  it('answers the same arguments once, and each new argument list afresh', () => {
    const seen: string[] = [];
    const f = memo((zone: string, day: number) => {
      seen.push(`${zone}:${day}`);
      return { zone, day };
    });
    const first = f('UTC', 1);
    expect(f('UTC', 1)).toBe(first);
    expect(f('UTC', 2)).toEqual({ zone: 'UTC', day: 2 });
    expect(f('Europe/Paris', 2)).toEqual({ zone: 'Europe/Paris', day: 2 });
    expect(seen).toEqual(['UTC:1', 'UTC:2', 'Europe/Paris:2']);
  });

  it('keeps at most `size` answers, dropping the least recently used', () => {
    let calls = 0;
    const f = memo((n: number) => {
      calls++;
      return n * 2;
    }, 2);
    f(1);
    f(2);
    f(1); // 1 is now the most recent
    f(3); // drops 2
    expect(calls).toBe(3);
    f(1);
    expect(calls).toBe(3);
    f(2);
    expect(calls).toBe(4);
  });

  it('compares arguments with ===: NaN is never remembered, 1 and "1" differ', () => {
    let calls = 0;
    const f = memo((x: number | string) => {
      calls++;
      return String(x);
    }, 4);
    f(NaN);
    f(NaN);
    expect(calls).toBe(2);
    f(1);
    f('1');
    expect(calls).toBe(4);
    f(1);
    expect(calls).toBe(4);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => memo(() => 1, 0)).toThrow(RangeError);
    expect(() => memo(() => 1, 1.5)).toThrow(RangeError);
  });
});
