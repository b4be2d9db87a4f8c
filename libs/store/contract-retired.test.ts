/**
 * Retired indexes (CollectionSpec `retired`): a declaration that no longer wants an index drops it from
 * an existing store, under whatever options it was made with, and keeps the declared ones; the records
 * are answered as before.
 */
import { describeEachStore } from '../../test/support/stores';
import { SqliteStore } from './sqlite';
import type { CollectionSpec, Store } from './types';

const BEFORE: CollectionSpec = {
  name: 'retiring',
  fields: { id: 'int', type: 'text', status: 'text', start: 'date' },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['type', 'status', 'start'], partial: { type: 'event' } },
    { keys: ['status'], sparse: true },
    { keys: ['type', 'start'] },
  ],
};
const AFTER: CollectionSpec = {
  ...BEFORE,
  indexes: [{ keys: ['id'], unique: true }, { keys: ['type', 'start'] }],
  // The last one is still declared: it stays.
  retired: [{ keys: ['type', 'status', 'start'] }, { keys: ['status'] }, { keys: ['type', 'start'] }],
};

const day = (n: number) => new Date(Date.UTC(2030, 0, 1 + n));

const setUp = async (store: Store) => {
  await store.ensure([BEFORE]);
  await store
    .collection('retiring')
    .insertMany(Array.from({ length: 12 }, (_, i) => ({ id: i + 1, type: i % 2 ? 'event' : 'post', status: i % 3 ? 'publish' : 'draft', start: day(i) })));
  await store.ensure([AFTER]);
  // Again: nothing left to drop.
  await store.ensure([AFTER]);
};

/** The key lists of the collection's indexes, each joined with '+'. */
async function indexKeys(store: Store): Promise<string[]> {
  if (store instanceof SqliteStore) {
    const names = store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'retiring'`).pluck().all() as string[];
    return names.map((n) => n.split(':')[2]).sort();
  }
  const { MongoStore } = await import('./mongo');
  if (!(store instanceof MongoStore)) throw new Error('unknown store');
  const indexes = await store.db.collection('retiring').listIndexes().toArray();
  return indexes
    .map((ix) => Object.keys(ix.key).join('+'))
    .filter((k) => k !== '_id')
    .sort();
}

describeEachStore('retired indexes', 'retiring', setUp, (t) => {
  it('drops the retired indexes and keeps the declared ones', async () => {
    expect(await indexKeys(t.store)).toEqual(['id', 'type+start']);
  });

  it('answers as before', async () => {
    expect(await t.ids({ type: 'event', status: 'publish', start: { $gte: day(4) } })).toEqual([6, 8, 12]);
    expect(await t.c.count({ status: 'draft' })).toBe(4);
  });
});
