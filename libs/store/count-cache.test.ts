import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CountCache } from './count-cache';
import { SqliteStore } from './sqlite';
import type { Store } from './types';

const SPEC = { name: 'items', fields: { id: 'int' as const }, indexes: [] };

describe('CountCache', () => {
  let dir: string;
  let a: SqliteStore;
  let b: SqliteStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'count-cache-'));
    a = new SqliteStore({ dataDir: dir });
    await a.ensure([SPEC]);
    await a.collection('items').insertMany([{ id: 1 }, { id: 2 }]);
    // Another connection to the same file: another process, as far as SQLite can tell.
    b = new SqliteStore({ dataDir: dir });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a total until this process writes the collection, or another process commits', async () => {
    const items = a.collection('items');
    const count = jest.spyOn(items, 'count');
    const totals = new CountCache(a);
    expect(await totals.count(items, {})).toBe(2);
    expect(await totals.count(items, {})).toBe(2);
    expect(count).toHaveBeenCalledTimes(1);
    await items.insertOne({ id: 3 });
    expect(await totals.count(items, {})).toBe(3);
    await b.collection('items').insertOne({ id: 4 });
    // Seen by the next request, which comes in a later turn of the event loop.
    await new Promise((r) => setImmediate(r));
    expect(await totals.count(items, {})).toBe(4);
    expect(count).toHaveBeenCalledTimes(3);
  });

  it('keeps a total for the long time-to-live where other processes’ writes show, the short one where they cannot', async () => {
    const items = a.collection('items');
    const exact = new CountCache(a, { exact: 60_000, blind: 1000 });
    await exact.count(items, {}, 1_000);
    const count = jest.spyOn(items, 'count');
    await exact.count(items, {}, 50_000);
    expect(count).toHaveBeenCalledTimes(0);
    await exact.count(items, {}, 61_000);
    expect(count).toHaveBeenCalledTimes(1);
    // A store that cannot tell (MongoDB): one second.
    const blindStore = Object.assign(Object.create(a) as Store, { foreignWrites: () => null });
    const blind = new CountCache(blindStore, { exact: 60_000, blind: 1000 });
    await blind.count(items, {}, 1_000);
    await blind.count(items, {}, 1_999);
    expect(count).toHaveBeenCalledTimes(2);
    await blind.count(items, {}, 2_000);
    expect(count).toHaveBeenCalledTimes(3);
  });
});
