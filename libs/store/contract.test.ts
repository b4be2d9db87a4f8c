/**
 * The store port's contract: one suite, run against both adapters, so a query that works on one works on
 * the other. MongoDB is whatever test/support/global-setup.js found (TEST_MONGO_URL): a real server, a
 * container, or the wire-compatible test server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openStore } from './index';
import { mapError, MongoStore } from './mongo';
import { UNIT_JOURNAL, UNIT_LEASE_MS, UnitAbandonedError } from './mongo-unit';
import { MAX_NEEDLE, normalizeFilter } from './query';
import { Repository } from './repository';
import { SqliteStore } from './sqlite';
import { DuplicateKeyError, type Collection, type CollectionSpec, type Doc, type Filter, type Store } from './types';

interface Harness {
  store: Store;
  /**
   * What the server under the adapter does; all true except on the wire-compatible MongoDB test server
   * (used where no real MongoDB can run), whose gaps are probed with the raw driver in mongoHarness.
   */
  server: {
    /** A unique index rejects duplicates (the test server keeps unique indexes but never enforces them). */
    uniqueEnforced: boolean;
    /** `distinct` returns Dates as Dates (the test server turns them into ISO strings). */
    distinctKeepsDates: boolean;
    /** `$pull` of a Date removes only equal Dates (the test server reads a Date as an empty sub-document pattern and removes every Date). */
    pullMatchesDates: boolean;
  };
  cleanup(): Promise<void>;
}

const REAL_SERVER = { uniqueEnforced: true, distinctKeepsDates: true, pullMatchesDates: true };

async function sqliteHarness(): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-contract-'));
  const store = new SqliteStore({ dataDir: dir });
  return {
    store,
    server: REAL_SERVER,
    cleanup: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function mongoHarness(): Promise<Harness> {
  const url = process.env.TEST_MONGO_URL;
  if (!url) throw new Error('TEST_MONGO_URL is not set; run the tests through jest so its globalSetup starts MongoDB');
  const store = await MongoStore.connect({ url, db: `contract_${process.pid}_${Date.now()}` });
  // Probe the server itself, with the raw driver, so a gap of the server is never mistaken for (or hides)
  // a bug of the adapter.
  const probe = store.db.collection('server_probe');
  await probe.createIndex({ k: 1 }, { unique: true });
  await probe.insertOne({ k: 1, d: [new Date(0), new Date(1)] });
  const uniqueEnforced = await probe.insertOne({ k: 1 }).then(
    () => false,
    (e: { code?: number }) => e.code === 11000,
  );
  const distinctKeepsDates = (await probe.distinct('d', { k: 1 })).every((v) => v instanceof Date);
  await probe.updateMany({}, { $pull: { d: new Date(0) } } as never);
  const pullMatchesDates = ((await probe.findOne({ d: { $exists: true } }))?.d as unknown[] | undefined)?.length === 1;
  await probe.drop();
  return {
    store,
    server: { uniqueEnforced, distinctKeepsDates, pullMatchesDates },
    cleanup: async () => {
      await store.db.dropDatabase();
      await store.close();
    },
  };
}

const ITEMS: CollectionSpec = {
  name: 'items',
  fields: {
    id: 'int',
    slug: 'text',
    status: 'text',
    title: 'text',
    rank: 'int',
    score: 'number',
    sticky: 'bool',
    date: 'date',
    'meta.start': 'date',
  },
  arrays: { terms: 'int', tags: 'text', dates: 'date' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['slug'], unique: true, sparse: true }, { keys: ['status', 'date'] }, { keys: ['meta.start'] }],
};

const OPTIONS: CollectionSpec = { name: 'options', fields: { id: 'text' }, indexes: [{ keys: ['id'], unique: true }] };

const BULK: CollectionSpec = {
  name: 'bulk',
  fields: { id: 'int', group: 'int' },
  arrays: { terms: 'int' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['group'] }],
};

const D = (s: string): Date => new Date(s);

function fixture(): Doc[] {
  return [
    {
      id: 1,
      slug: 'alpha',
      status: 'publish',
      title: 'Alpha Ümlaut',
      rank: 3,
      score: 1.5,
      sticky: true,
      date: D('2024-01-10T10:00:00Z'),
      terms: [1, 2],
      tags: ['red', 'Blue'],
      dates: [D('2024-05-01T00:00:00Z'), D('2024-05-02T00:00:00Z')],
      meta: { start: D('2024-03-01T09:00:00Z'), color: 'red', n: 5, history: [{ at: D('2020-01-01T00:00:00.123Z') }] },
      extra: 'x',
      mixed: 5,
      list: ['a', 'b'],
    },
    {
      id: 2,
      slug: 'beta',
      status: 'draft',
      title: '100% _done_',
      rank: 1,
      score: 2.5,
      sticky: false,
      date: D('2024-02-10T10:00:00Z'),
      terms: [2, 3],
      tags: ['green'],
      meta: { start: D('2024-04-01T09:00:00Z'), color: 'blue', n: 7 },
      extra: null,
      mixed: '7',
      list: ['c'],
    },
    {
      id: 3,
      slug: 'gamma',
      status: 'publish',
      title: 'a.*b \\ c',
      rank: 2,
      score: 0,
      sticky: false,
      date: D('2023-12-31T23:59:59.999Z'),
      terms: 5,
      tags: [],
      meta: { color: 'green' },
      list: 'a',
    },
    { id: 4, status: 'future', title: 'Gamma ray', rank: 5, date: D('2024-06-01T00:00:00Z'), terms: [], meta: {} },
    { id: 5, slug: 'epsilon', status: 'publish', title: `it's "quoted"`, rank: 4, score: -1, sticky: true, terms: [3], tags: ['red'] },
  ];
}

const ids = (docs: Doc[]): number[] => docs.map((d) => d.id as number).sort((a, b) => a - b);
const inOrder = (docs: Doc[]): number[] => docs.map((d) => d.id as number);
const sortValues = (vs: unknown[]): string[] => vs.map((v) => (v instanceof Date ? v.toISOString() : JSON.stringify(v))).sort();

describe.each([
  ['sqlite', sqliteHarness],
  ['mongo', mongoHarness],
] as const)('store contract: %s', (_kind, open) => {
  let h: Harness;
  let items: Collection;

  beforeAll(async () => {
    h = await open();
    await h.store.ensure([ITEMS, OPTIONS, BULK]);
    items = h.store.collection('items');
  });

  afterAll(async () => {
    await h?.cleanup();
  });

  beforeEach(async () => {
    await items.deleteMany({});
    await items.insertMany(fixture());
  });

  const match = async (filter: Filter): Promise<number[]> => ids(await items.find(filter));

  describe('documents', () => {
    it('round-trips documents with Dates at any depth and never shows adapter keys', async () => {
      const doc = await items.findOne({ id: 1 });
      expect(doc).toEqual(fixture()[0]);
      expect(doc).not.toHaveProperty('_id');
      expect(doc!.date).toBeInstanceOf(Date);
      expect((doc!.dates as Date[])[1]).toBeInstanceOf(Date);
      const history = (doc!.meta as { history: Array<{ at: Date }> }).history;
      expect(history[0].at).toBeInstanceOf(Date);
      expect(history[0].at.toISOString()).toBe('2020-01-01T00:00:00.123Z');
      for (const d of await items.find({})) expect(d).not.toHaveProperty('_id');
    });

    it('leaves the caller’s document untouched on insert', async () => {
      const doc = { id: 10, title: 'fresh', when: D('2025-01-01T00:00:00Z') };
      await items.insertOne(doc);
      expect(doc).toEqual({ id: 10, title: 'fresh', when: D('2025-01-01T00:00:00Z') });
      expect(await items.findOne({ id: 10 })).toEqual(doc);
    });

    it('keys documents by string ids', async () => {
      const options = h.store.collection('options');
      await options.deleteMany({});
      await options.insertMany([
        { id: 'blogname', value: 'Calendar' },
        { id: 'siteurl', value: 'http://example.test' },
      ]);
      expect(await options.findOne({ id: 'blogname' })).toEqual({ id: 'blogname', value: 'Calendar' });
      expect(await options.updateOne({ id: 'siteurl' }, { $set: { value: 'https://example.test' } })).toEqual({ matched: 1, modified: 1 });
      expect((await options.findOne({ id: 'siteurl' }))!.value).toBe('https://example.test');
      expect(await options.find({ id: { $in: ['siteurl', 'nope'] } })).toHaveLength(1);
      expect(await options.deleteOne({ id: 'blogname' })).toBe(1);
      expect(await options.count({})).toBe(1);
    });

    it('moves a collection’s write generation on every kind of write, and only that collection’s', async () => {
      const g = () => h.store.generations.of('items');
      const other = h.store.generations.of('options');
      const writes: Array<() => Promise<unknown>> = [
        () => items.insertOne({ id: 20, title: 'new' }),
        () => items.insertMany([{ id: 21 }, { id: 22 }]),
        () => items.updateOne({ id: 20 }, { $set: { title: 'changed' } }),
        () => items.updateMany({ id: { $in: [21, 22] } }, { $set: { title: 'both' } }),
        () => items.findOneAndUpdate({ id: 20 }, { $inc: { rank: 1 } }),
        () => items.deleteOne({ id: 22 }),
        () => items.deleteMany({ id: { $in: [20, 21] } }),
      ];
      for (const write of writes) {
        const before = g();
        await write();
        expect(g()).toBeGreaterThan(before);
      }
      // Reads do not.
      const read = g();
      await items.find({});
      await items.count({});
      expect(g()).toBe(read);
      expect(h.store.generations.of('options')).toBe(other);
    });

    it('ensure() is idempotent and ping() answers', async () => {
      await h.store.ensure([ITEMS, OPTIONS, BULK]);
      await expect(h.store.ping()).resolves.toBeUndefined();
      expect(await items.count({})).toBe(5);
    });
  });

  describe('equality', () => {
    it('matches declared, undeclared and dotted fields', async () => {
      expect(await match({ status: 'publish' })).toEqual([1, 3, 5]);
      expect(await match({ status: { $eq: 'draft' } })).toEqual([2]);
      expect(await match({ extra: 'x' })).toEqual([1]);
      expect(await match({ 'meta.color': 'red' })).toEqual([1]);
      expect(await match({ 'meta.n': 7 })).toEqual([2]);
      expect(await match({ 'meta.start': D('2024-03-01T09:00:00Z') })).toEqual([1]);
      expect(await match({ date: D('2024-01-10T10:00:00Z') })).toEqual([1]);
      expect(await match({ sticky: true })).toEqual([1, 5]);
      expect(await match({ sticky: false })).toEqual([2, 3]);
      expect(await match({ score: 0 })).toEqual([3]);
      expect(await match({ score: 1.5 })).toEqual([1]);
      expect(await match({ status: 'publish', rank: 2 })).toEqual([3]);
    });

    it('keeps types apart: numbers never equal strings', async () => {
      expect(await match({ mixed: 5 })).toEqual([1]);
      expect(await match({ mixed: '5' })).toEqual([]);
      expect(await match({ mixed: '7' })).toEqual([2]);
      expect(await match({ rank: 3, mixed: { $in: [5, '7'] } })).toEqual([1]);
    });

    it('reads equality on arrays as "contains", for declared array fields', async () => {
      expect(await match({ terms: 2 })).toEqual([1, 2]);
      expect(await match({ terms: 5 })).toEqual([3]);
      expect(await match({ terms: { $in: [3, 5] } })).toEqual([2, 3, 5]);
      expect(await match({ terms: { $nin: [2, 3] } })).toEqual([3, 4]);
      expect(await match({ terms: { $ne: 2 } })).toEqual([3, 4, 5]);
      expect(await match({ terms: { $gt: 2 } })).toEqual([2, 3, 5]);
      expect(await match({ terms: { $in: [] } })).toEqual([]);
      expect(await match({ terms: { $nin: [] } })).toEqual([1, 2, 3, 4, 5]);
      expect(await match({ tags: 'red' })).toEqual([1, 5]);
      expect(await match({ tags: { $in: ['green', 'nope'] } })).toEqual([2]);
      expect(await match({ dates: D('2024-05-02T00:00:00Z') })).toEqual([1]);
      expect(await match({ dates: { $gte: D('2024-05-02T00:00:00Z') } })).toEqual([1]);
      expect(await match({ dates: { $gt: D('2024-05-02T00:00:00Z') } })).toEqual([]);
    });

    it('reads equality on arrays as "contains", for undeclared JSON arrays', async () => {
      expect(await match({ list: 'a' })).toEqual([1, 3]);
      expect(await match({ list: { $in: ['c', 'z'] } })).toEqual([2]);
      expect(await match({ list: { $nin: ['a'] } })).toEqual([2, 4, 5]);
      expect(await match({ list: { $ne: 'b' } })).toEqual([2, 3, 4, 5]);
    });
  });

  describe('null and missing', () => {
    it('treats null as "null or missing"', async () => {
      expect(await match({ slug: null })).toEqual([4]);
      expect(await match({ extra: null })).toEqual([2, 3, 4, 5]);
      expect(await match({ 'meta.start': null })).toEqual([3, 4, 5]);
      expect(await match({ extra: { $ne: null } })).toEqual([1]);
      expect(await match({ slug: { $ne: null } })).toEqual([1, 2, 3, 5]);
      expect(await match({ date: { $in: [null, D('2024-01-10T10:00:00Z')] } })).toEqual([1, 5]);
      expect(await match({ score: { $nin: [null, 0] } })).toEqual([1, 2, 5]);
    });

    it('matches missing fields with $ne', async () => {
      expect(await match({ status: { $ne: 'publish' } })).toEqual([2, 4]);
      expect(await match({ sticky: { $ne: true } })).toEqual([2, 3, 4]);
      expect(await match({ 'meta.color': { $ne: 'red' } })).toEqual([2, 3, 4, 5]);
      expect(await match({ date: { $ne: D('2024-01-10T10:00:00Z') } })).toEqual([2, 3, 4, 5]);
    });

    it('distinguishes present-but-null from missing with $exists', async () => {
      expect(await match({ extra: { $exists: true } })).toEqual([1, 2]);
      expect(await match({ extra: { $exists: false } })).toEqual([3, 4, 5]);
      expect(await match({ slug: { $exists: false } })).toEqual([4]);
      expect(await match({ 'meta.start': { $exists: true } })).toEqual([1, 2]);
      expect(await match({ tags: { $exists: true } })).toEqual([1, 2, 3, 5]);
    });
  });

  describe('ranges', () => {
    it('compares numbers, strings and dates on declared fields', async () => {
      expect(await match({ rank: { $gt: 2, $lte: 4 } })).toEqual([1, 5]);
      expect(await match({ score: { $lt: 1 } })).toEqual([3, 5]);
      expect(await match({ score: { $gte: 1.5 } })).toEqual([1, 2]);
      expect(await match({ slug: { $gt: 'b', $lt: 'f' } })).toEqual([2, 5]);
      expect(await match({ date: { $gte: D('2024-01-01T00:00:00Z'), $lt: D('2024-03-01T00:00:00Z') } })).toEqual([1, 2]);
      expect(await match({ date: { $lt: D('2024-01-01T00:00:00Z') } })).toEqual([3]);
      expect(await match({ date: { $lte: D('2023-12-31T23:59:59.998Z') } })).toEqual([]);
      expect(await match({ 'meta.start': { $gt: D('2024-03-15T00:00:00Z') } })).toEqual([2]);
    });

    it('compares undeclared fields with type bracketing', async () => {
      expect(await match({ 'meta.n': { $gte: 6 } })).toEqual([2]);
      expect(await match({ 'meta.n': { $lt: 100 } })).toEqual([1, 2]);
      expect(await match({ mixed: { $gt: 1 } })).toEqual([1]);
      expect(await match({ mixed: { $gt: '1' } })).toEqual([2]);
      expect(await match({ 'meta.color': { $gte: 'green' } })).toEqual([1, 3]);
    });
  });

  describe('$icontains', () => {
    it('matches case-insensitively, including non-ASCII letters', async () => {
      expect(await match({ title: { $icontains: 'alpha' } })).toEqual([1]);
      expect(await match({ title: { $icontains: 'ümlaut' } })).toEqual([1]);
      expect(await match({ title: { $icontains: 'ÜM' } })).toEqual([1]);
      expect(await match({ title: { $icontains: 'GAMMA' } })).toEqual([4]);
      expect(await match({ title: { $icontains: '' } })).toEqual([1, 2, 3, 4, 5]);
      expect(await match({ tags: { $icontains: 'BLU' } })).toEqual([1]);
      expect(await match({ 'meta.color': { $icontains: 'RE' } })).toEqual([1, 3]);
      expect(await match({ extra: { $icontains: 'X' } })).toEqual([1]);
    });

    it('reads the needle literally', async () => {
      expect(await match({ title: { $icontains: '%' } })).toEqual([2]);
      expect(await match({ title: { $icontains: '_done_' } })).toEqual([2]);
      expect(await match({ title: { $icontains: '0%' } })).toEqual([2]);
      expect(await match({ title: { $icontains: 'l_h' } })).toEqual([]);
      expect(await match({ title: { $icontains: 'a%a' } })).toEqual([]);
      expect(await match({ title: { $icontains: '.*' } })).toEqual([3]);
      expect(await match({ title: { $icontains: 'a.*b' } })).toEqual([3]);
      expect(await match({ title: { $icontains: 'a.b' } })).toEqual([]);
      expect(await match({ title: { $icontains: '\\' } })).toEqual([3]);
      expect(await match({ title: { $icontains: '\\ c' } })).toEqual([3]);
      expect(await match({ title: { $icontains: "'" } })).toEqual([5]);
      expect(await match({ title: { $icontains: '"quoted"' } })).toEqual([5]);
      expect(await match({ title: { $icontains: '(' } })).toEqual([]);
      expect(await match({ title: { $icontains: '[a-z]' } })).toEqual([]);
    });

    it('matches a needle longer than a store takes as a pattern by its first MAX_NEEDLE units', async () => {
      const bulk = h.store.collection('bulk');
      await bulk.deleteMany({});
      const long = 'ab'.repeat(30_000);
      await bulk.insertMany([
        { id: 1, group: 1, title: `x${long}y` },
        { id: 2, group: 1, title: `${'ab'.repeat(MAX_NEEDLE / 2 - 1)}\u{1F600}` },
        { id: 3, group: 1, title: 'short' },
      ]);
      expect(inOrder(await bulk.find({ title: { $icontains: long.toUpperCase() } }))).toEqual([1]);
      // Only the first MAX_NEEDLE units count, so a needle whose start is there matches.
      expect(inOrder(await bulk.find({ title: { $icontains: `${long}!` } }))).toEqual([1]);
      expect(inOrder(await bulk.find({ title: { $icontains: `${'AB'.repeat(MAX_NEEDLE / 2 - 1)}\u{1F600}tail` } }))).toEqual([2]);
      await bulk.deleteMany({});
      // A cut never splits a surrogate pair.
      const cut = normalizeFilter({ title: { $icontains: `${'a'.repeat(MAX_NEEDLE - 1)}\u{1F600}` } }) as { value: string };
      expect(cut.value).toBe('a'.repeat(MAX_NEEDLE - 1));
    });
  });

  describe('$and and $or', () => {
    it('combines conditions', async () => {
      expect(await match({ $or: [{ status: 'draft' }, { rank: { $gte: 5 } }] })).toEqual([2, 4]);
      expect(await match({ status: 'publish', $or: [{ terms: 1 }, { tags: 'red' }] })).toEqual([1, 5]);
      expect(await match({ $and: [{ rank: { $gt: 1 } }, { $or: [{ sticky: true }, { slug: null }] }] })).toEqual([1, 4, 5]);
      expect(await match({ $and: [{ terms: { $ne: 2 } }, { terms: { $ne: 3 } }] })).toEqual([3, 4]);
      expect(await match({ $or: [{ extra: { $exists: true } }, { 'meta.color': 'green' }] })).toEqual([1, 2, 3]);
    });
  });

  describe('find options', () => {
    it('sorts by one or more keys, missing values first when ascending', async () => {
      expect(inOrder(await items.find({}, { sort: [['rank', 1]] }))).toEqual([2, 3, 1, 5, 4]);
      expect(inOrder(await items.find({}, { sort: [['date', -1]] }))).toEqual([4, 2, 1, 3, 5]);
      expect(inOrder(await items.find({}, { sort: [['date', 1]] }))).toEqual([5, 3, 1, 2, 4]);
      expect(
        inOrder(
          await items.find(
            {},
            {
              sort: [
                ['status', 1],
                ['rank', -1],
              ],
            },
          ),
        ),
      ).toEqual([2, 4, 5, 1, 3]);
      expect(inOrder(await items.find({}, { sort: [['meta.n', 1]] }))).toEqual([3, 4, 5, 1, 2]);
      expect(inOrder(await items.find({}, { sort: [['meta.start', -1]] }))).toEqual([2, 1, 5, 4, 3]);
      expect(inOrder(await items.find({ status: 'publish' }, { sort: [['slug', -1]] }))).toEqual([3, 5, 1]);
    });

    it('orders ties by insertion, in the direction of the last key', async () => {
      expect(inOrder(await items.find({}, { sort: [['sticky', -1]] }))).toEqual([5, 1, 3, 2, 4]);
      expect(inOrder(await items.find({}, { sort: [['sticky', 1]] }))).toEqual([4, 2, 3, 1, 5]);
    });

    it('pages with skip and limit', async () => {
      expect(inOrder(await items.find({}, { sort: [['rank', 1]], skip: 1, limit: 2 }))).toEqual([3, 1]);
      expect(inOrder(await items.find({}, { sort: [['rank', 1]], skip: 4, limit: 10 }))).toEqual([4]);
      expect(inOrder(await items.find({}, { sort: [['rank', 1]], skip: 3 }))).toEqual([5, 4]);
      expect(await items.find({}, { sort: [['rank', 1]], skip: 10, limit: 2 })).toEqual([]);
      expect(await items.find({}, { limit: 0 })).toHaveLength(5);
      await expect(items.find({}, { limit: -1 })).rejects.toThrow();
    });

    it('takes a skip or limit past any integer a driver binds as asking past every row', async () => {
      // A page number of 99999999999999999999 from a query string becomes a skip of about 1e21.
      expect(await items.find({}, { sort: [['rank', 1]], skip: 1e21, limit: 10 })).toEqual([]);
      expect(await items.find({}, { skip: Number.MAX_SAFE_INTEGER })).toEqual([]);
      expect(await items.find({}, { limit: 1e21 })).toHaveLength(5);
      expect(await items.findOne({}, { skip: 1e21 })).toBeNull();
      await expect(items.find({}, { skip: Infinity })).rejects.toThrow();
    });

    it('projects top-level fields plus id', async () => {
      expect(await items.find({ id: { $in: [1, 4] } }, { fields: ['slug', 'date'], sort: [['id', 1]] })).toEqual([
        { id: 1, slug: 'alpha', date: D('2024-01-10T10:00:00Z') },
        { id: 4, date: D('2024-06-01T00:00:00Z') },
      ]);
      expect(await items.findOne({ id: 2 }, { fields: ['meta'] })).toEqual({
        id: 2,
        meta: { start: D('2024-04-01T09:00:00Z'), color: 'blue', n: 7 },
      });
    });

    it('findOne honours sort and skip, and returns null for no match', async () => {
      expect((await items.findOne({ status: 'publish' }, { sort: [['rank', -1]] }))!.id).toBe(5);
      expect((await items.findOne({ status: 'publish' }, { sort: [['rank', -1]], skip: 1 }))!.id).toBe(1);
      expect(await items.findOne({ status: 'nope' })).toBeNull();
    });

    it('counts matches', async () => {
      expect(await items.count({})).toBe(5);
      expect(await items.count({ status: 'publish' })).toBe(3);
      expect(await items.count({ terms: { $in: [2, 3] } })).toBe(3);
      expect(await items.count({ title: { $icontains: 'A' } })).toBe(3);
      expect(await items.count({ date: { $gte: D('2024-01-01T00:00:00Z') } })).toBe(3);
      expect(await items.count({ status: 'nope' })).toBe(0);
    });

    it('lists distinct values; array fields contribute each element', async () => {
      expect(sortValues(await items.distinct('status', {}))).toEqual(sortValues(['draft', 'future', 'publish']));
      expect(sortValues(await items.distinct('terms', { status: 'publish' }))).toEqual(sortValues([1, 2, 3, 5]));
      expect(sortValues(await items.distinct('tags', {}))).toEqual(sortValues(['Blue', 'green', 'red']));
      expect(sortValues(await items.distinct('meta.color', {}))).toEqual(sortValues(['blue', 'green', 'red']));
      expect(sortValues(await items.distinct('sticky', {}))).toEqual(sortValues([false, true]));
      const dates = await items.distinct('date', { status: 'draft' });
      if (h.server.distinctKeepsDates) {
        expect(dates).toEqual([D('2024-02-10T10:00:00Z')]);
        expect(dates[0]).toBeInstanceOf(Date);
      } else {
        // Test-server gap (see Harness.server): the value is right, only its type is lost.
        expect(dates).toEqual(['2024-02-10T10:00:00.000Z']);
      }
      expect(await items.distinct('extra', {})).toEqual(expect.arrayContaining(['x', null]));
      expect(await items.distinct('extra', {})).toHaveLength(2);
      expect(await items.distinct('slug', { status: 'nope' })).toEqual([]);
    });
  });

  describe('updates', () => {
    it('$set writes top-level and dotted paths and keeps indexed queries in step', async () => {
      const when = D('2025-02-03T04:05:06.789Z');
      const r = await items.updateOne({ id: 4 }, { $set: { slug: 'delta', 'meta.venue.city': 'Berlin', date: when, status: 'publish' } });
      expect(r).toEqual({ matched: 1, modified: 1 });
      expect(await match({ slug: 'delta' })).toEqual([4]);
      expect(await match({ 'meta.venue.city': 'Berlin' })).toEqual([4]);
      expect(await match({ date: { $gt: D('2025-01-01T00:00:00Z') } })).toEqual([4]);
      expect(await match({ status: 'publish' })).toEqual([1, 3, 4, 5]);
      const doc = await items.findOne({ id: 4 });
      expect(doc!.meta).toEqual({ venue: { city: 'Berlin' } });
      expect(doc!.date).toEqual(when);
    });

    it('$unset removes fields', async () => {
      expect(await items.updateOne({ id: 1 }, { $unset: { slug: '', 'meta.color': 1 } })).toEqual({ matched: 1, modified: 1 });
      const doc = await items.findOne({ id: 1 });
      expect(doc).not.toHaveProperty('slug');
      expect(doc!.meta).not.toHaveProperty('color');
      expect(await match({ slug: null })).toEqual([1, 4]);
      expect(await match({ 'meta.color': 'red' })).toEqual([]);
    });

    it('$inc adds to numbers and creates missing ones', async () => {
      await items.updateOne({ id: 2 }, { $inc: { rank: 10, views: 1, 'meta.n': -2 } });
      const doc = await items.findOne({ id: 2 });
      expect(doc).toMatchObject({ rank: 11, views: 1, meta: { n: 5 } });
      expect(await match({ rank: { $gt: 10 } })).toEqual([2]);
    });

    it('$push appends, creating the array when missing', async () => {
      const at = D('2025-01-01T00:00:00Z');
      await items.updateOne({ id: 4 }, { $push: { terms: 9, history: { at } } });
      await items.updateOne({ id: 4 }, { $push: { terms: 10 } });
      const doc = await items.findOne({ id: 4 });
      expect(doc!.terms).toEqual([9, 10]);
      expect(doc!.history).toEqual([{ at }]);
      expect((doc!.history as Array<{ at: Date }>)[0].at).toBeInstanceOf(Date);
      expect(await match({ terms: 10 })).toEqual([4]);
    });

    it('$pull removes every equal element', async () => {
      expect(await items.updateMany({ terms: 2 }, { $pull: { terms: 2 } })).toEqual({ matched: 2, modified: 2 });
      expect(await match({ terms: 2 })).toEqual([]);
      expect((await items.findOne({ id: 1 }))!.terms).toEqual([1]);
      await items.updateOne({ id: 1 }, { $pull: { dates: D('2024-05-01T00:00:00Z') } });
      // Test-server gap (see Harness.server): there every Date is pulled, so only the removal is checked.
      if (h.server.pullMatchesDates) expect((await items.findOne({ id: 1 }))!.dates).toEqual([D('2024-05-02T00:00:00Z')]);
      expect(await match({ dates: D('2024-05-01T00:00:00Z') })).toEqual([]);
    });

    it('reports matched and modified counts like MongoDB', async () => {
      expect(await items.updateOne({ id: 1 }, { $set: { status: 'publish' } })).toEqual({ matched: 1, modified: 0 });
      expect(await items.updateMany({ status: 'publish' }, { $set: { flag: true } })).toEqual({ matched: 3, modified: 3 });
      expect(await items.updateMany({ status: 'nope' }, { $set: { flag: true } })).toEqual({ matched: 0, modified: 0 });
      expect(await items.updateOne({ status: 'publish' }, { $set: { flag2: 1 } })).toEqual({ matched: 1, modified: 1 });
      expect(await items.count({ flag2: 1 })).toBe(1);
    });

    it('findOneAndUpdate returns the document after the update, or null', async () => {
      const doc = await items.findOneAndUpdate({ slug: 'beta' }, { $set: { status: 'publish' }, $inc: { rank: 1 } });
      expect(doc).toEqual({ ...fixture()[1], status: 'publish', rank: 2 });
      expect(doc).not.toHaveProperty('_id');
      expect(await items.findOneAndUpdate({ slug: 'nope' }, { $set: { status: 'x' } })).toBeNull();
    });

    it('rejects malformed updates', async () => {
      await expect(items.updateOne({ id: 1 }, { $rename: { a: 'b' } } as never)).rejects.toThrow(/unsupported update operator/);
      await expect(items.updateOne({ id: 1 }, {})).rejects.toThrow();
      await expect(items.updateOne({ id: 1 }, { $set: { 'a"b': 1 } })).rejects.toThrow(/invalid field path/);
      await expect(items.updateOne({ id: 1 }, { $inc: { rank: 'x' as never } })).rejects.toThrow();
      expect(await items.findOne({ id: 1 })).toEqual(fixture()[0]);
    });
  });

  describe('deletes', () => {
    it('deletes one or many and forgets array entries', async () => {
      expect(await items.deleteOne({ status: 'publish' })).toBe(1);
      expect(await items.count({ status: 'publish' })).toBe(2);
      expect(await items.deleteMany({ terms: 3 })).toBeGreaterThanOrEqual(1);
      expect(await match({ terms: 3 })).toEqual([]);
      expect(await items.deleteMany({ status: 'nope' })).toBe(0);
      const left = await items.count({});
      expect(await items.deleteMany({})).toBe(left);
      expect(await items.count({})).toBe(0);
    });
  });

  describe('unique indexes', () => {
    // The wire-compatible test server stores unique indexes without enforcing them (see Harness.server);
    // there only the DuplicateKeyError assertions are left out, the writes still run.
    const expectDuplicate = async (write: Promise<unknown>, key: string): Promise<void> => {
      if (!h.server.uniqueEnforced) {
        await write;
        return;
      }
      const err = await write.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DuplicateKeyError);
      expect((err as DuplicateKeyError).collection).toBe('items');
      expect((err as DuplicateKeyError).keys).toContain(key);
    };

    it('rejects duplicate keys on insert and update', async () => {
      await expectDuplicate(items.insertOne({ id: 1, title: 'again' }), 'id');
      await expectDuplicate(items.insertOne({ id: 20, slug: 'alpha' }), 'slug');
      await expectDuplicate(items.updateOne({ id: 2 }, { $set: { slug: 'alpha' } }), 'slug');
      await expectDuplicate(items.findOneAndUpdate({ id: 3 }, { $set: { slug: 'beta' } }), 'slug');
      if (h.server.uniqueEnforced) {
        expect((await items.findOne({ id: 2 }))!.slug).toBe('beta');
        expect(await items.count({ id: 1 })).toBe(1);
      }
    });

    it('replaces an index whose declaration changed, refusing to make it unique while duplicates exist', async () => {
      const plain: CollectionSpec = { name: 'redeclared', fields: { id: 'int', slug: 'text' }, indexes: [{ keys: ['id'], unique: true }, { keys: ['slug'] }] };
      const unique: CollectionSpec = {
        ...plain,
        indexes: [
          { keys: ['id'], unique: true },
          { keys: ['slug'], unique: true },
        ],
      };
      await h.store.ensure([plain]);
      const c = h.store.collection('redeclared');
      await c.deleteMany({});
      await c.insertMany([
        { id: 1, slug: 'a' },
        { id: 2, slug: 'a' },
      ]);
      if (h.server.uniqueEnforced) {
        const err = await h.store.ensure([unique]).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(DuplicateKeyError);
        expect((err as DuplicateKeyError).collection).toBe('redeclared');
        expect((err as DuplicateKeyError).keys).toContain('slug');
      }
      await c.updateOne({ id: 2 }, { $set: { slug: 'b' } });
      await h.store.ensure([unique]);
      await h.store.ensure([unique]);
      const dup = c.insertOne({ id: 3, slug: 'a' }).then(
        () => null,
        (e: unknown) => e,
      );
      if (h.server.uniqueEnforced) expect(await dup).toBeInstanceOf(DuplicateKeyError);
      else await dup;
      // Declared plain again, the unique index goes.
      await c.deleteMany({ id: 3 });
      await h.store.ensure([plain]);
      await c.insertOne({ id: 4, slug: 'b' });
      expect(await c.count({ slug: 'b' })).toBe(2);
    });

    it('lets a sparse unique index hold many documents without the key', async () => {
      await items.insertMany([{ id: 30 }, { id: 31 }]);
      expect(await match({ slug: { $exists: false } })).toEqual([4, 30, 31]);
    });

    it('inserts all or none', async () => {
      const batch = [
        { id: 100, terms: [77] },
        { id: 101, terms: [77] },
        { id: 1, terms: [77] },
        { id: 102, terms: [77] },
      ];
      await expectDuplicate(items.insertMany(batch), 'id');
      if (h.server.uniqueEnforced) {
        expect(await items.count({ id: { $gte: 100 } })).toBe(0);
        expect(await match({ terms: 77 })).toEqual([]);
        expect(await items.count({})).toBe(5);
      }
    });
  });

  describe('units of work', () => {
    const deferred = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const boom = () => {
      throw new Error('boom');
    };

    it('keeps a unit’s writes, which its own reads see, and answers its result', async () => {
      const result = await h.store.unit(async () => {
        await items.insertOne({ id: 100, title: 'unit' });
        await items.updateOne({ id: 1 }, { $set: { title: 'in unit' } });
        expect(await items.count({ id: 100 })).toBe(1);
        expect((await items.findOne({ id: 1 }))!.title).toBe('in unit');
        return 7;
      });
      expect(result).toBe(7);
      expect(await match({ id: { $gte: 100 } })).toEqual([100]);
      expect((await items.findOne({ id: 1 }))!.title).toBe('in unit');
    });

    it('leaves none of the inserts of a unit that fails, nested units included', async () => {
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 101 });
        await h.store.unit(async () => {
          await items.insertMany([{ id: 102 }, { id: 103, terms: [77] }]);
        });
        boom();
      });
      await expect(failing).rejects.toThrow('boom');
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
      expect(await match({ terms: 77 })).toEqual([]);
    });

    it('leaves none of its writes with transactions; without, keeps what its first update committed', async () => {
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 104 });
        await items.updateOne({ id: 1 }, { $set: { title: 'changed' } });
        await items.insertOne({ id: 105 });
        await items.deleteOne({ id: 2 });
        boom();
      });
      await expect(failing).rejects.toThrow('boom');
      if (h.store.unitMode === 'transaction') {
        expect(await match({ id: { $gte: 100 } })).toEqual([]);
        expect((await items.findOne({ id: 1 }))!.title).toBe('Alpha Ümlaut');
        expect(await items.count({ id: 2 })).toBe(1);
      } else {
        // The update may name what was inserted before it, so from there on nothing is undone.
        expect(await match({ id: { $gte: 100 } })).toEqual([104, 105]);
        expect((await items.findOne({ id: 1 }))!.title).toBe('changed');
        expect(await items.count({ id: 2 })).toBe(0);
      }
    });

    it('undoes the inserts before an update that fails (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 106 });
        await items.updateOne({ id: 1 }, { $set: { 'bad path': 1 } });
      });
      await expect(failing).rejects.toThrow();
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
    });

    it('never takes in, nor undoes, a write made outside it while it is open', async () => {
      const held = deferred();
      const unit = h.store.unit(async () => {
        await items.insertOne({ id: 110 });
        await held.promise;
        await items.insertOne({ id: 111 });
        boom();
      });
      await new Promise((r) => setImmediate(r));
      const outside = items.insertOne({ id: 112 });
      const outsideUpdate = items.updateOne({ id: 2 }, { $set: { title: 'outside' } });
      await new Promise((r) => setImmediate(r));
      held.resolve();
      await expect(unit).rejects.toThrow('boom');
      await outside;
      await outsideUpdate;
      expect(await match({ id: { $gte: 100 } })).toEqual([112]);
      expect((await items.findOne({ id: 2 }))!.title).toBe('outside');
    });

    it('shows nothing it has not committed to readers outside it (with transactions)', async () => {
      if (h.store.unitMode !== 'transaction') return;
      const held = deferred();
      const inserted = deferred();
      const unit = h.store.unit(async () => {
        await items.insertOne({ id: 120, status: 'unit' });
        inserted.resolve();
        await held.promise;
        boom();
      });
      await inserted.promise;
      const seen = items.count({ status: 'unit' });
      const seenPage = items.find({ id: { $gte: 100 } });
      held.resolve();
      await expect(unit).rejects.toThrow('boom');
      expect(await seen).toBe(0);
      expect(await seenPage).toEqual([]);
    });

    it('runs units one at a time on the embedded store, so a read-then-write inside one is never raced', async () => {
      if (h.store.kind !== 'sqlite') return;
      const claim = (title: string) =>
        h.store.unit(async () => {
          const taken = await items.count({ status: 'claimed' });
          // A turn of the event loop in the middle, where another unit could start were units not serialised.
          await new Promise((r) => setImmediate(r));
          await items.insertOne({ id: 130 + taken, status: 'claimed', title });
        });
      await Promise.all(['a', 'b', 'c', 'd'].map(claim));
      expect(await match({ status: 'claimed' })).toEqual([130, 131, 132, 133]);
    });

    it('undoes, from another process, the inserts of a unit whose process died before it ended (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      const store = h.store as MongoStore;
      const journal = store.db.collection(UNIT_JOURNAL);
      expect(await journal.countDocuments()).toBe(0);
      const held = deferred();
      const inserted = deferred();
      // This unit stands for a process killed in the middle: it stops after its first inserts.
      const unit = store.unit(async () => {
        await items.insertOne({ id: 140 });
        await items.insertMany([{ id: 141 }, { id: 142 }]);
        inserted.resolve();
        await held.promise;
        await items.insertOne({ id: 143 });
      });
      await inserted.promise;
      expect(await match({ id: { $gte: 100 } })).toEqual([140, 141, 142]);
      const other = await MongoStore.connect({ url: process.env.TEST_MONGO_URL!, db: store.db.databaseName });
      try {
        expect(await other.units.recover(new Date())).toBe(0);
        expect(await match({ id: { $gte: 100 } })).toEqual([140, 141, 142]);
        expect(await other.units.recover(new Date(Date.now() + UNIT_LEASE_MS + 1000))).toBe(1);
      } finally {
        await other.close();
      }
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
      expect(await journal.countDocuments()).toBe(0);
      // Should the unit go on after all, it cannot commit, and inserts nothing more.
      held.resolve();
      await expect(unit).rejects.toBeInstanceOf(UnitAbandonedError);
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
    });

    it('leaves no journal behind (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      await h.store.unit(async () => void (await items.insertOne({ id: 150 })));
      await expect(h.store.unit(async () => boom())).rejects.toThrow('boom');
      await expect(h.store.unit(async () => (await items.insertOne({ id: 151 }), boom()))).rejects.toThrow('boom');
      expect(await (h.store as MongoStore).db.collection(UNIT_JOURNAL).countDocuments()).toBe(0);
      expect(await match({ id: { $gte: 100 } })).toEqual([150]);
    });
  });

  describe('nextId', () => {
    it('counts from 1 and hands out blocks', async () => {
      expect(await h.store.nextId('posts')).toBe(1);
      expect(await h.store.nextId('posts')).toBe(2);
      expect(await h.store.nextId('posts', 10)).toBe(3);
      expect(await h.store.nextId('posts')).toBe(13);
      expect(await h.store.nextId('terms')).toBe(1);
      await expect(h.store.nextId('posts', 0)).rejects.toThrow();
    });

    it('never hands the same id to concurrent callers', async () => {
      const got = await Promise.all(Array.from({ length: 20 }, (_, i) => h.store.nextId('concurrent', (i % 3) + 1)));
      const all = got.flatMap((first, i) => Array.from({ length: (i % 3) + 1 }, (_, k) => first + k));
      expect(new Set(all).size).toBe(all.length);
      expect(Math.min(...all)).toBe(1);
      expect(Math.max(...all)).toBe(all.length);
    });
  });

  describe('the query language is closed', () => {
    it('treats filter values as literals', async () => {
      expect(await match({ slug: "{$gt: ''}" })).toEqual([]);
      expect(await match({ slug: "' OR 1=1 --" })).toEqual([]);
      expect(await match({ slug: '%' })).toEqual([]);
      expect(await match({ title: '.*' })).toEqual([]);
      expect(await match({ 'meta.color': "red' OR '1'='1" })).toEqual([]);
      expect(await match({ status: { $in: ["publish') OR ('1'='1"] } })).toEqual([]);
    });

    it('rejects unsafe paths and unknown operators', async () => {
      for (const bad of ['a"b', "a'b", 'a b', 'a..b', 'a.', '.a', 'a.$b', 'a]', 'a;drop']) {
        await expect(items.find({ [bad]: 1 })).rejects.toThrow(/invalid field path/);
      }
      await expect(items.find({}, { sort: [['a"b', 1]] })).rejects.toThrow(/invalid field path/);
      await expect(items.find({}, { fields: ["a'b"] })).rejects.toThrow(/invalid field path/);
      await expect(items.distinct('a"b', {})).rejects.toThrow(/invalid field path/);
      await expect(items.find({ $where: 'true' } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ $nor: [{ id: 1 }] } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ slug: { $regex: '.*' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ slug: { $gt: '', $where: '1' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ meta: { color: 'red' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ terms: [1, 2] } as unknown as Filter)).rejects.toThrow();
      await expect(items.find({ slug: undefined })).rejects.toThrow(/undefined/);
      await expect(items.find({ $or: [] })).rejects.toThrow();
      await expect(items.find({ slug: { $icontains: 5 } } as unknown as Filter)).rejects.toThrow();
      await expect(items.find({ id: { $in: 5 } } as unknown as Filter)).rejects.toThrow();
      expect(() => h.store.collection('bad-name')).toThrow();
    });

    it('accepts real operators as operators', async () => {
      expect(await match({ slug: { $gt: '' } })).toEqual([1, 2, 3, 5]);
    });
  });

  describe('Repository', () => {
    type Item = Doc & { id: number };
    let items: Collection<Item>;
    let repo: Repository<Item>;
    beforeEach(() => {
      items = h.store.collection<Item>('items');
      repo = new Repository<Item>(items);
    });
    afterEach(() => {
      jest.restoreAllMocks();
    });

    it('loads by id and by many ids in one query', async () => {
      expect((await repo.byId(3))!.slug).toBe('gamma');
      expect(await repo.byId(99)).toBeNull();
      const find = jest.spyOn(items, 'find');
      const map = await repo.byIds([1, 3, 99, 1]);
      expect(find).toHaveBeenCalledTimes(1);
      expect([...map.keys()].sort()).toEqual([1, 3]);
      expect(map.get(3)!.slug).toBe('gamma');
      expect((await repo.byIds([])).size).toBe(0);
    });

    it('lists a page with its total, counting only when the page cannot tell', async () => {
      const count = jest.spyOn(items, 'count');
      const sort: Array<[string, 1 | -1]> = [['id', 1]];
      expect(await repo.list({ status: 'publish' }, { page: 1, perPage: 10, sort })).toMatchObject({ total: 3 });
      expect(inOrder((await repo.list({ status: 'publish' }, { page: 2, perPage: 2, sort })).items)).toEqual([5]);
      expect(count).not.toHaveBeenCalled();
      const full = await repo.list({ status: 'publish' }, { page: 1, perPage: 2, sort });
      expect([inOrder(full.items), full.total]).toEqual([[1, 3], 3]);
      const beyond = await repo.list({ status: 'publish' }, { page: 3, perPage: 2, sort });
      expect([beyond.items, beyond.total]).toEqual([[], 3]);
      expect(count).toHaveBeenCalledTimes(2);
      expect(await repo.list({ status: 'publish' }, { perPage: 1, fields: ['slug'], sort })).toEqual({ items: [{ id: 1, slug: 'alpha' }], total: 3 });
    });

    it('inserts, updates and removes by id', async () => {
      expect(await repo.insert({ id: 40, slug: 'forty' })).toEqual({ id: 40, slug: 'forty' });
      expect(await repo.update(40, { $set: { status: 'draft' } })).toEqual({ id: 40, slug: 'forty', status: 'draft' });
      expect(await repo.update(41, { $set: { status: 'draft' } })).toBeNull();
      expect(await repo.remove(40)).toBe(true);
      expect(await repo.remove(40)).toBe(false);
    });
  });

  describe('bulk', () => {
    it('inserts 50,000 documents in one call and queries them', async () => {
      const bulk = h.store.collection('bulk');
      await bulk.deleteMany({});
      const docs: Doc[] = [];
      for (let i = 1; i <= 50_000; i++) {
        docs.push({ id: i, group: i % 100, terms: [i % 50, 1000 + (i % 7)], title: `Event ${i}`, start: new Date(Date.UTC(2024, 0, 1) + i * 60_000) });
      }
      await bulk.insertMany(docs);
      expect(await bulk.count({})).toBe(50_000);
      expect(await bulk.count({ group: 7 })).toBe(500);
      expect(await bulk.count({ terms: 1003 })).toBe(Math.floor((50_000 - 3) / 7) + 1);
      expect(inOrder(await bulk.find({ terms: 42 }, { sort: [['id', -1]], limit: 3 }))).toEqual([49_992, 49_942, 49_892]);
      expect((await bulk.findOne({ id: 25_000 }))!.start).toEqual(new Date(Date.UTC(2024, 0, 1) + 25_000 * 60_000));
      await bulk.deleteMany({});
    }, 120_000);
  });
});

describe('openStore', () => {
  it('opens the embedded store without a MongoDB URL and MongoDB with one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-open-'));
    const sqlite = await openStore({ dataDir: dir });
    expect(sqlite.kind).toBe('sqlite');
    await sqlite.ping();
    await sqlite.close();
    expect(fs.existsSync(path.join(dir, 'store.sqlite'))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });

    const mongo = await openStore({ mongoUrl: process.env.TEST_MONGO_URL, mongoDb: `open_${process.pid}`, dataDir: dir });
    expect(mongo.kind).toBe('mongo');
    await mongo.ping();
    expect(await mongo.nextId('probe')).toBe(1);
    await (mongo as MongoStore).db.dropDatabase();
    await mongo.close();
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('MongoDB duplicate-key errors', () => {
  // Built by hand because the wire-compatible test server never raises them.
  it('become DuplicateKeyError with the index keys, whatever shape the driver reports', () => {
    const single = mapError({ code: 11000, keyPattern: { slug: 1 }, message: 'E11000' }, 'items');
    expect(single).toBeInstanceOf(DuplicateKeyError);
    expect(single).toMatchObject({ collection: 'items', keys: ['slug'] });
    const bulk = mapError({ code: 11000, writeErrors: [{ code: 11000, err: { keyPattern: { id: 1 } } }] }, 'items');
    expect(bulk).toMatchObject({ keys: ['id'] });
    const fromMessage = mapError({ code: 11000, message: 'E11000 duplicate key error collection: db.items index: status_1_date_-1 dup key: { }' }, 'items');
    expect(fromMessage).toMatchObject({ keys: ['status', 'date'] });
    const other = new Error('network');
    expect(mapError(other, 'items')).toBe(other);
  });
});
