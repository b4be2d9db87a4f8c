/**
 * Group commit of the embedded store's units of work (sqlite-unit.ts): units that ask within one turn
 * of the event loop share one SQLite transaction and one COMMIT, each in a savepoint of its own.
 */
import Database from 'better-sqlite3';
import { openSqlite, type OpenedStore } from '../../test/support/stores';
import type { SqliteStore } from './sqlite';
import type { CollectionSpec } from './types';

const SPEC: CollectionSpec = { name: 'items', fields: { id: 'int' }, indexes: [{ keys: ['id'], unique: true }] };

let opened: OpenedStore & { store: SqliteStore };
let store: SqliteStore;
let commits: number;

beforeEach(async () => {
  opened = await openSqlite();
  store = opened.store;
  await store.ensure([SPEC]);
  commits = 0;
  const exec = store.db.exec.bind(store.db);
  jest.spyOn(store.db, 'exec').mockImplementation((sql: string) => {
    if (sql === 'COMMIT') commits++;
    return exec(sql);
  });
});

afterEach(() => opened.close());

const items = () => store.collection('items');
const ids = async () => (await items().find({}, { sort: [['id', 1]] })).map((d) => d.id);
const insertIn = (id: number) => store.unit(async () => void (await items().insertOne({ id })));

/**
 * A group whose commit comes due while its second unit runs: a unit that inserts id 1, then one that
 * inserts id 2, waits past the end of the turn (when the group's commit is scheduled) and then does `rest`.
 */
const afterWaiting = (rest: () => Promise<void>): [Promise<void>, Promise<void>] => [
  insertIn(1),
  store.unit(async () => {
    await items().insertOne({ id: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await rest();
  }),
];

describe('group commit', () => {
  it('commits units asked in the same turn once, and keeps every one of them', async () => {
    await Promise.all([1, 2, 3, 4, 5].map(insertIn));
    expect(commits).toBe(1);
    expect(await ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('commits units asked in different turns apart', async () => {
    await insertIn(1);
    await insertIn(2);
    expect(commits).toBe(2);
    expect(await ids()).toEqual([1, 2]);
  });

  it('takes back only the failing unit’s writes, and tells only that unit', async () => {
    const results = await Promise.allSettled([
      insertIn(1),
      store.unit(async () => {
        await items().insertOne({ id: 2 });
        throw new Error('boom');
      }),
      insertIn(3),
      // A duplicate id: the store's own error, after the unit's first insert went in.
      store.unit(async () => {
        await items().insertOne({ id: 4 });
        await items().insertOne({ id: 1 });
      }),
      insertIn(5),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(commits).toBe(1);
    expect(await ids()).toEqual([1, 3, 5]);
  });

  it('starts over when the group’s first unit fails, without losing the units after it', async () => {
    const results = await Promise.allSettled([
      store.unit(async () => {
        await items().insertOne({ id: 1 });
        throw new Error('boom');
      }),
      insertIn(2),
      insertIn(3),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(await ids()).toEqual([2, 3]);
  });

  it('shows a unit’s writes to nobody outside it before the group has committed', async () => {
    const outside = new Database(store.db.name, { readonly: true });
    const count = () => Number(outside.prepare('SELECT COUNT(*) FROM items').pluck().get());
    try {
      let seenInside = -1;
      let readerSawCommits = -1;
      let reader: Promise<unknown> | undefined;
      const unit = store.unit(async () => {
        await items().insertOne({ id: 1 });
        // Once the unit's work is over, and before its commit (scheduled after this): a reader of the store,
        // and another connection.
        setImmediate(() => {
          seenInside = count();
          reader = items()
            .findOne({ id: 1 })
            .then((doc) => {
              readerSawCommits = commits;
              return doc;
            });
        });
      });
      await unit;
      expect(seenInside).toBe(0);
      expect(count()).toBe(1);
      expect(await reader).toMatchObject({ id: 1 });
      expect(readerSawCommits).toBe(1);
    } finally {
      outside.close();
    }
  });

  it('fails every unit of the group when the commit fails, and keeps none of their writes', async () => {
    store.db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
    store.db.pragma('foreign_keys = ON');
    const results = await Promise.allSettled([
      insertIn(1),
      // Checked only at COMMIT: a child whose parent does not exist.
      store.unit(async () => {
        await items().insertOne({ id: 2 });
        store.db.prepare('INSERT INTO child (p) VALUES (99)').run();
      }),
      insertIn(3),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(store.db.inTransaction).toBe(false);
    expect(await ids()).toEqual([]);
    // The store goes on: the next unit commits.
    await insertIn(4);
    expect(await ids()).toEqual([4]);
  });

  it('commits the group when a unit that waited past the scheduled commit fails, and keeps the units before it', async () => {
    const [first, late] = afterWaiting(async () => {
      throw new Error('late');
    });
    // No unit after it, whose end would commit the group instead.
    const results = await Promise.allSettled([first, late]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await ids()).toEqual([1]);
  });

  it('commits a group whose unit waited past the scheduled commit as that unit ends', async () => {
    await Promise.all(afterWaiting(async () => void (await items().insertOne({ id: 3 }))));
    expect(commits).toBe(1);
    expect(await ids()).toEqual([1, 2, 3]);
  });
});

describe('writes inside a unit', () => {
  it('keeps the unit going after a single-row insert it caught failed, with nothing of that insert written', async () => {
    await insertIn(1);
    await store.unit(async () => {
      await items().insertOne({ id: 2 });
      // One statement, run without a savepoint of its own: SQLite takes back the statement alone.
      await expect(items().insertOne({ id: 1, extra: 'dropped' })).rejects.toThrow();
      await expect(items().insertMany([{ id: 3 }, { id: 1 }])).rejects.toThrow();
      await items().insertOne({ id: 4 });
    });
    expect(await ids()).toEqual([1, 2, 4]);
    expect(await items().findOne({ id: 1 })).toEqual({ id: 1 });
  });
});

describe('ids taken inside a group', () => {
  const stored = () => store.db.prepare(`SELECT seq FROM counters WHERE name = 'items'`).pluck().get();
  const takeIn = (fail = false) =>
    store.unit(async () => {
      const id = await store.nextId('items', 2);
      await items().insertOne({ id });
      if (fail) throw new Error('taken back');
      return id;
    });
  let upserts: number;
  beforeEach(() => {
    upserts = 0;
    const prepare = store.db.prepare.bind(store.db);
    jest.spyOn(store.db, 'prepare').mockImplementation((sql: string) => {
      const st = prepare(sql);
      if (!/RETURNING seq/.test(sql)) return st;
      const get = st.get.bind(st);
      return Object.assign(st, { get: (...a: unknown[]) => (upserts++, get(...a)) });
    });
  });

  it('gives each unit its own block, moving the stored counter once per group', async () => {
    const got = await Promise.all([takeIn(), takeIn(), takeIn()]);
    expect(got).toEqual([1, 3, 5]);
    expect(upserts).toBe(1);
    expect(commits).toBe(1);
    // Written back before the commit: the next caller, in or outside a unit, goes on after the block.
    expect(stored()).toBe(6);
    expect(await store.nextId('items')).toBe(7);
    expect(await takeIn()).toBe(8);
  });

  it('never gives again the ids of a unit taken back, even one whose move of the counter was taken back with it', async () => {
    // The second unit is the first to take an id: its move of the stored counter is taken back with it.
    const results = await Promise.allSettled([insertIn(100), takeIn(true), takeIn()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<number>).value).toBe(3);
    expect(stored()).toBe(4);
    expect(await ids()).toEqual([3, 100]);
  });

  it('takes back every id of a group taken back whole', async () => {
    const results = await Promise.allSettled([takeIn(true)]);
    expect(results[0].status).toBe('rejected');
    expect(stored()).toBeUndefined();
    expect(await store.nextId('items')).toBe(1);
  });
});
