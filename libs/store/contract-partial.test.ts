/**
 * Partial indexes (CollectionSpec index `partial`: only the records whose field holds a value): both
 * stores answer every filter on the field as without them, an existing full index on the same keys is
 * replaced by the partial one, and the embedded store uses the index for an equality on the value (the
 * value written as a literal, other values as `+?`, so no statement is prepared again at each run) and
 * writes no entry of another record into it.
 */
import { describeEachStore } from '../../test/support/stores';
import { SqliteStore } from './sqlite';
import type { CollectionSpec, Filter, Store } from './types';

const FULL: CollectionSpec = {
  name: 'typed',
  fields: { id: 'int', type: 'text', start: 'date' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['type', 'start'] }],
};
const PARTIAL: CollectionSpec = {
  ...FULL,
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['type', 'start'], partial: { type: 'event' } },
  ],
};

const day = (n: number) => new Date(Date.UTC(2030, 0, 1 + n));
const docs = () => Array.from({ length: 30 }, (_, i) => ({ id: i + 1, type: i % 3 ? 'event' : 'post', start: day(i) }));

const setUp = async (store: Store) => {
  await store.ensure([FULL]);
  await store.collection('typed').insertMany(docs());
  // The declaration changes on an existing store: the full index gives way to the partial one.
  await store.ensure([PARTIAL]);
  await store.ensure([PARTIAL]);
};

describeEachStore('partial indexes', 'typed', setUp, (t) => {
  it('answers every filter on the field as the records say', async () => {
    const later = { start: { $gte: day(20) } };
    expect(await t.ids({ type: 'event', ...later })).toEqual([21, 23, 24, 26, 27, 29, 30]);
    expect(await t.ids({ type: 'post', ...later })).toEqual([22, 25, 28]);
    expect(await t.ids({ type: { $in: ['event'] }, ...later })).toEqual([21, 23, 24, 26, 27, 29, 30]);
    expect(await t.ids({ type: { $in: ['event', 'post'] }, ...later })).toHaveLength(10);
    expect(await t.ids({ type: { $ne: 'event' }, ...later })).toEqual([22, 25, 28]);
    expect(await t.ids({ type: { $nin: ['post'] }, ...later })).toEqual([21, 23, 24, 26, 27, 29, 30]);
    expect(await t.c.count({ type: "event' OR 1=1 --" })).toBe(0);
    // A record that changes type moves into or out of the index.
    await t.c.updateOne({ id: 22 }, { $set: { type: 'event' } });
    await t.c.updateOne({ id: 21 }, { $set: { type: 'post' } });
    expect(await t.ids({ type: 'event', ...later })).toEqual([22, 23, 24, 26, 27, 29, 30]);
  });

  it('keeps the partial index, and only it, on the keys', async () => {
    if (t.store instanceof SqliteStore) {
      const names = t.store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'typed'`).pluck().all();
      expect(names).toContain('ix:typed:type+start:where:type=event');
      expect(names).not.toContain('ix:typed:type+start');
      return;
    }
    const { MongoStore } = await import('./mongo');
    if (!(t.store instanceof MongoStore)) return;
    const indexes = await t.store.db.collection('typed').listIndexes().toArray();
    const onKeys = indexes.filter((ix) => JSON.stringify(ix.key) === JSON.stringify({ type: 1, start: 1 }));
    expect(onKeys).toHaveLength(1);
    // MongoDB reports the filter; the wire-compatible test server keeps none (a probe tells which runs).
    const probe = t.store.db.collection('partial_probe');
    await probe.createIndex({ type: 1 }, { partialFilterExpression: { type: 'event' } });
    const keeps = (await probe.listIndexes().toArray()).some((ix) => ix.partialFilterExpression);
    if (keeps) expect(onKeys[0].partialFilterExpression).toEqual({ type: 'event' });
  });

  it('the embedded store serves the value from the index, which holds only its records', async () => {
    const sqlite = t.store;
    if (!(sqlite instanceof SqliteStore)) return;
    const plan = (f: Filter) => sqlite.explain('typed', f, { sort: [['start', 1]] }).join('\n');
    expect(plan({ type: 'event', start: { $gte: day(20) } })).toMatch(/USING (COVERING )?INDEX ix:typed:type\+start:where:type=event \(type=\? AND start>\?\)/);
    expect(plan({ type: { $in: ['event'] } })).toMatch(/ix:typed:type\+start:where:type=event/);
    expect(plan({ type: 'post' })).not.toMatch(/ix:typed:type\+start/);
    const entries = sqlite.db.prepare(`SELECT COUNT(*) FROM typed INDEXED BY "ix:typed:type+start:where:type=event" WHERE type = 'event'`).pluck().get();
    expect(entries).toBe(20);
    // Reopened without ensure(), the store still knows the index's value.
    const reopened = new SqliteStore({ dataDir: sqlite.db.name.replace(/\/store\.sqlite$/, '') });
    try {
      expect(reopened.explain('typed', { type: 'event' }).join('\n')).toMatch(/ix:typed:type\+start:where:type=event/);
    } finally {
      await reopened.close();
    }
  });

  it('refuses a partial value that is not a plain word, or a field that is not declared text', async () => {
    if (!(t.store instanceof SqliteStore)) return;
    const bad = (partial: Record<string, string>) => t.store.ensure([{ ...FULL, name: 'bad', indexes: [{ keys: ['type'], partial }] }]);
    await expect(bad({ type: "x' OR '1" })).rejects.toThrow(/plain word/);
    await expect(bad({ id: '1' })).rejects.toThrow(/declared text field/);
  });
});

const FLAGGED: CollectionSpec = {
  name: 'flagged',
  fields: { id: 'int', type: 'text', featured: 'bool', start: 'date' },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['type', 'featured', 'start'], partial: { type: 'event', featured: true } },
  ],
};

const setUpFlagged = async (store: Store) => {
  await store.ensure([
    {
      ...FLAGGED,
      indexes: [
        { keys: ['id'], unique: true },
        { keys: ['type', 'featured', 'start'], partial: { type: 'event' } },
      ],
    },
  ]);
  await store
    .collection('flagged')
    .insertMany(Array.from({ length: 30 }, (_, i) => ({ id: i + 1, type: i % 3 ? 'event' : 'post', featured: i % 4 === 0, start: day(i) })));
  // The index narrows to the records where the flag is true.
  await store.ensure([FLAGGED]);
};

describeEachStore('partial indexes on a boolean field', 'flagged', setUpFlagged, (t) => {
  it('answers every filter on the flag as the records say', async () => {
    expect(await t.ids({ type: 'event', featured: true })).toEqual([5, 9, 17, 21, 29]);
    expect(await t.ids({ type: 'event', featured: false, start: { $gte: day(20) } })).toEqual([23, 24, 26, 27, 30]);
    expect(await t.c.count({ featured: true })).toBe(8);
    await t.c.updateOne({ id: 23 }, { $set: { featured: true } });
    await t.c.updateOne({ id: 29 }, { $set: { featured: false } });
    expect(await t.ids({ type: 'event', featured: true, start: { $gte: day(18) } })).toEqual([21, 23]);
  });

  it('the embedded store serves `true` from the index, which holds only those records', async () => {
    const sqlite = t.store;
    if (!(sqlite instanceof SqliteStore)) return;
    const name = 'ix:flagged:type+featured+start:where:type=event:where:featured=true';
    expect(sqlite.explain('flagged', { type: 'event', featured: true }, { sort: [['start', 1]] }).join('\n')).toContain(name);
    expect(sqlite.explain('flagged', { type: 'event', featured: false }).join('\n')).not.toContain(name);
    expect(sqlite.db.prepare(`SELECT COUNT(*) FROM flagged INDEXED BY "${name}" WHERE type = 'event' AND featured = 1`).pluck().get()).toBe(5);
    const names = sqlite.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'flagged'`).pluck().all();
    expect(names).not.toContain('ix:flagged:type+featured+start:where:type=event');
  });

  it('refuses a boolean field conditioned on anything but true', async () => {
    if (!(t.store instanceof SqliteStore)) return;
    await expect(t.store.ensure([{ ...FLAGGED, name: 'bad_flag', indexes: [{ keys: ['type'], partial: { featured: 'yes' } }] }])).rejects.toThrow(
      /declared text field/,
    );
  });
});
