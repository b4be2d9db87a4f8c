import { inNameOrder } from './order';

describe('inNameOrder', () => {
  const names = new Map([
    [1, 'food'],
    [2, 'Farm'],
    [3, 'apple'],
    [4, 'farm'],
  ]);
  it('lists terms by name, case-insensitively, keeping the given order among equal names', () => {
    expect(inNameOrder([1, 2, 3], (id) => names.get(id))).toEqual([3, 2, 1]);
    expect(inNameOrder([4, 2], (id) => names.get(id))).toEqual([4, 2]);
  });
  it('puts terms without a known name last, in their own order', () => {
    expect(inNameOrder([9, 1, 8, 3], (id) => names.get(id))).toEqual([3, 1, 9, 8]);
  });
});
