/**
 * Set-up of the store port's contract suites (contract-*.test.ts): each runs against both adapters, so a
 * query that works on one works on the other. MongoDB is whatever test/support/global-setup.js found
 * (TEST_MONGO_URL): a real server, a container, or the wire-compatible test server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoStore } from './mongo';
import { SqliteStore } from './sqlite';
import { type Collection, type CollectionSpec, type Doc, type Filter, type Store } from './types';

export interface Harness {
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

export const ITEMS: CollectionSpec = {
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

export const OPTIONS: CollectionSpec = { name: 'options', fields: { id: 'text' }, indexes: [{ keys: ['id'], unique: true }] };

export const BULK: CollectionSpec = {
  name: 'bulk',
  fields: { id: 'int', group: 'int' },
  arrays: { terms: 'int' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['group'] }],
};

export const D = (s: string): Date => new Date(s);

export function fixture(): Doc[] {
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

export const ids = (docs: Doc[]): number[] => docs.map((d) => d.id as number).sort((a, b) => a - b);
export const inOrder = (docs: Doc[]): number[] => docs.map((d) => d.id as number);
export const sortValues = (vs: unknown[]): string[] => vs.map((v) => (v instanceof Date ? v.toISOString() : JSON.stringify(v))).sort();

/** Set before each store's tests by describeStores: the store under test and its `items` collection. */
export let h: Harness;
export let items: Collection;

export const match = async (filter: Filter): Promise<number[]> => ids(await items.find(filter));

/**
 * Runs `body`'s tests once per adapter (SQLite, then MongoDB), each store opened before them with the
 * contract's collections, `items` filled with the fixture before each test, and the store dropped after.
 */
export function describeStores(body: () => void): void {
  describe.each([
    ['sqlite', sqliteHarness],
    ['mongo', mongoHarness],
  ] as const)('store contract: %s', (_kind, open) => {
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

    body();
  });
}
