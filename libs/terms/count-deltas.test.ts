import { countDeltas } from './repository';

const rec = (status: string, tax: Record<string, number[]>) => ({ status, tax });

describe('countDeltas', () => {
  it('counts a published record once per term, whatever the taxonomy', () => {
    expect([...countDeltas(null, rec('publish', { category: [1, 2], post_tag: [3] }))]).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  it('moves only the terms gained or lost, and none for a record that is not published', () => {
    expect([...countDeltas(rec('publish', { category: [1, 2] }), rec('publish', { category: [2, 4] }))]).toEqual([
      [4, 1],
      [1, -1],
    ]);
    expect(countDeltas(rec('draft', { category: [1] }), rec('draft', { category: [2] })).size).toBe(0);
  });

  it('takes every term off when a record leaves publish or is deleted', () => {
    expect([...countDeltas(rec('publish', { category: [1] }), rec('trash', { category: [1] }))]).toEqual([[1, -1]]);
    expect([...countDeltas(rec('publish', { category: [1] }), null)]).toEqual([[1, -1]]);
  });
});
