/**
 * Fresh stores of both kinds for tests of code that runs over the store port: the embedded SQLite store
 * in a temporary folder, and a database of its own on the MongoDB the test run found (TEST_MONGO_URL).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoStore } from '#libs/store/mongo';
import { SqliteStore } from '#libs/store/sqlite';
import { DuplicateKeyError, type Collection, type Filter, type Store } from '#libs/store/types';

export interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

export async function openSqlite(): Promise<OpenedStore & { store: SqliteStore }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
  const store = new SqliteStore({ dataDir: dir });
  return {
    store,
    close: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let dbs = 0;

export async function openMongo(): Promise<OpenedStore> {
  const url = process.env.TEST_MONGO_URL;
  if (!url) throw new Error('TEST_MONGO_URL is not set; run the tests through jest so its globalSetup starts MongoDB');
  const store = await MongoStore.connect({ url, db: `store_test_${process.pid}_${Date.now()}_${++dbs}` });
  return {
    store,
    close: async () => {
      await store.db.dropDatabase();
      await store.close();
    },
  };
}

/** For `describe.each`: both kinds, by name. */
export const STORE_KINDS = [
  ['SQLite', openSqlite],
  ['MongoDB', openMongo],
] as const;

/** What the tests of describeEachStore see: the store, its collection, and the ids of a filter's matches in `start` order. */
export interface OneCollection {
  store: Store;
  c: Collection;
  ids(filter: Filter): Promise<unknown[]>;
}

/**
 * A suite run on both store kinds over one collection: before each test a fresh store, on which `setUp`
 * lays the collection out and fills it; closed after each.
 */
export function describeEachStore(title: string, collection: string, setUp: (store: Store) => Promise<void>, body: (t: OneCollection) => void): void {
  describe.each(STORE_KINDS)(`${title} on %s`, (_kind, open) => {
    let opened: OpenedStore;
    const t = {
      ids: async (f: Filter) => (await t.c.find(f, { sort: [['start', 1]] })).map((d) => d.id),
    } as OneCollection;
    beforeEach(async () => {
      opened = await open();
      t.store = opened.store;
      await setUp(t.store);
      t.c = t.store.collection(collection);
    });
    afterEach(async () => opened.close());
    body(t);
  });
}

/** Whether the server refuses duplicates of a unique index (the wire-compatible MongoDB test server keeps them unenforced). */
export async function enforcesUnique(store: Store): Promise<boolean> {
  await store.ensure([{ name: 'unique_probe', fields: { id: 'int' }, indexes: [{ keys: ['id'], unique: true }] }]);
  const probe = store.collection('unique_probe');
  await probe.deleteMany({});
  await probe.insertOne({ id: 1 });
  return probe.insertOne({ id: 1 }).then(
    () => false,
    (e: unknown) => e instanceof DuplicateKeyError,
  );
}
