/**
 * An index on an array field followed by declared fields (the category archive's (terms, event_start,
 * event_end)): both stores answer a filter on the array and a range of those fields alike through
 * inserts, updates of either part and deletes; the embedded store reads only the side-table entries in
 * range, through that index.
 */
import { describeEachStore } from '../../test/support/stores';
import { SqliteStore } from './sqlite';
import type { CollectionSpec, Filter, Store } from './types';

const SPEC: CollectionSpec = {
  name: 'windowed',
  fields: { id: 'int', start: 'date', end: 'date', kind: 'text' },
  arrays: { terms: 'int' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['terms', 'start', 'end'] }],
};

const day = (n: number) => new Date(Date.UTC(2030, 0, 1 + n));
const doc = (id: number, terms: number[], start: number) => ({ id, kind: 'event', terms, start: day(start), end: day(start + 1) });
/** Records of `term` meeting the window [from, to] (ending at or after its start, starting by its end). */
const window = (term: number, from: number, to: number): Filter => ({
  $and: [{ kind: 'event' }, { end: { $gte: day(from) } }, { start: { $lte: day(to) } }, { terms: { $in: [term] } }],
});

const setUp = async (store: Store) => {
  await store.ensure([SPEC]);
  // Term 1 on every record, term 2 on the even ones; one record a day from day 0 to day 29.
  await store.collection('windowed').insertMany(Array.from({ length: 30 }, (_, i) => doc(i + 1, i % 2 ? [1] : [1, 2], i)));
};

describeEachStore('array-and-field indexes', 'windowed', setUp, (t) => {
  it('answers a term and a window as the records say, in inserts, updates and deletes', async () => {
    expect(await t.ids(window(2, 10, 15))).toEqual([11, 13, 15]);
    expect(await t.c.count(window(1, 10, 15))).toBe(7);
    // A record moved out of the window, one moved in, one that loses the term, one that gains it.
    await t.c.updateOne({ id: 11 }, { $set: { start: day(40), end: day(41) } });
    await t.c.updateOne({ id: 1 }, { $set: { start: day(12), end: day(12) } });
    await t.c.updateOne({ id: 13 }, { $set: { terms: [1] } });
    await t.c.updateOne({ id: 14 }, { $set: { terms: [1, 2], start: day(13), end: day(13) } });
    expect(await t.ids(window(2, 10, 15))).toEqual([1, 14, 15]);
    await t.c.deleteOne({ id: 15 });
    expect(await t.ids(window(2, 10, 15))).toEqual([1, 14]);
    // Outside an AND, and negated, the same answers as without the index.
    expect(await t.c.count({ terms: 2 })).toBe(14);
    expect(await t.c.count({ $and: [{ start: { $gte: day(20) } }, { terms: { $nin: [2] } }] })).toBe(5);
  });

  it('the embedded store reads the window from the side table’s (term, start, end) index', async () => {
    if (!(t.store instanceof SqliteStore)) return;
    const plan = t.store.explain('windowed', window(2, 10, 15)).join('\n');
    expect(plan).toMatch(/USING COVERING INDEX ix:windowed:terms\+start\+end \(value=\? AND start<\?\)/);
  });

  it('the embedded store fills the copies of records written before the index was declared', async () => {
    if (!(t.store instanceof SqliteStore)) return;
    await t.store.ensure([{ ...SPEC, name: 'late', indexes: [{ keys: ['id'], unique: true }] }]);
    const late = t.store.collection('late');
    await late.insertMany([doc(1, [7], 3), doc(2, [7], 20)]);
    await t.store.ensure([{ ...SPEC, name: 'late' }]);
    expect((await late.find(window(7, 0, 5))).map((d) => d.id)).toEqual([1]);
  });
});
