import { keyOf, QueryCache } from './query-cache';
import { SqliteStore } from './sqlite';

describe('QueryCache', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([{ name: 'items', fields: { id: 'int', at: 'date', tag: 'text' }, indexes: [] }]);
    await store
      .collection('items')
      .insertMany([1, 2, 3].map((id) => ({ id, at: new Date(Date.UTC(2030, 0, id)), tag: id === 2 ? '2030-01-01T00:00:00.000Z' : 'x' })));
  });
  afterEach(() => store.close());

  it('answers the same query from memory until the collection is written, then reads again', async () => {
    const items = store.collection('items');
    const find = jest.spyOn(items, 'find');
    const pages = new QueryCache(store);
    const first = await pages.find(items, { id: { $gte: 2 } }, { sort: [['id', 1]] });
    expect(first.map((d) => d.id)).toEqual([2, 3]);
    expect(await pages.find(items, { id: { $gte: 2 } }, { sort: [['id', 1]] })).toBe(first);
    expect(find).toHaveBeenCalledTimes(1);
    // Another window is another query.
    await pages.find(items, { id: { $gte: 2 } }, { sort: [['id', 1]], limit: 1 });
    expect(find).toHaveBeenCalledTimes(2);
    await items.insertOne({ id: 4 });
    expect((await pages.find(items, { id: { $gte: 2 } }, { sort: [['id', 1]] })).map((d) => d.id)).toEqual([2, 3, 4]);
    expect(find).toHaveBeenCalledTimes(3);
  });

  it('answers a record by id from memory, frozen, until its collection is written; a missing id is null', async () => {
    const items = store.collection('items');
    const find = jest.spyOn(items, 'find');
    const pages = new QueryCache(store);
    const two = await pages.byId(items, 2);
    expect(two).toMatchObject({ id: 2, tag: '2030-01-01T00:00:00.000Z' });
    expect(Object.isFrozen(two)).toBe(true);
    expect(await pages.byId(items, 2)).toBe(two);
    expect(find).toHaveBeenCalledTimes(1);
    expect(await pages.byId(items, 9)).toBeNull();
    await items.updateOne({ id: 2 }, { $set: { tag: 'changed' } });
    expect(await pages.byId(items, 2)).toMatchObject({ id: 2, tag: 'changed' });
    expect(find).toHaveBeenCalledTimes(3);
  });

  it('keeps a page for its time-to-live at most, and freezes it', async () => {
    const items = store.collection('items');
    const pages = new QueryCache(store, { exact: 1000, blind: 1000 });
    const now = jest.spyOn(Date, 'now').mockReturnValue(10_000);
    const page = await pages.find(items, {});
    expect(Object.isFrozen(page) && Object.isFrozen(page[0])).toBe(true);
    expect(() => (page as unknown[]).push(1)).toThrow(/not extensible/);
    now.mockReturnValue(10_999);
    expect(await pages.find(items, {})).toBe(page);
    now.mockReturnValue(11_000);
    expect(await pages.find(items, {})).not.toBe(page);
    now.mockRestore();
  });

  it('holds a bounded number of records over all its pages', async () => {
    const items = store.collection('items');
    const find = jest.spyOn(items, 'find');
    const pages = new QueryCache(store, { exact: 1000, blind: 1000 }, 4);
    const a = await pages.find(items, { id: { $lte: 3 } });
    expect(await pages.find(items, { id: { $lte: 3 } })).toBe(a);
    // Three more records would make six: what was kept goes.
    await pages.find(items, { id: { $gte: 1 } });
    expect(await pages.find(items, { id: { $lte: 3 } })).not.toBe(a);
    expect(find).toHaveBeenCalledTimes(3);
  });

  it('tells a Date from a string that reads the same', async () => {
    const items = store.collection('items');
    const pages = new QueryCache(store);
    const asDate = await pages.find(items, { at: new Date('2030-01-01T00:00:00.000Z') });
    const asText = await pages.find(items, { tag: '2030-01-01T00:00:00.000Z' });
    expect(asDate.map((d) => d.id)).toEqual([1]);
    expect(asText.map((d) => d.id)).toEqual([2]);
    expect(await pages.find(items, { at: '2030-01-01T00:00:00.000Z' })).not.toBe(asDate);
  });

  it('keeps a page a minute where every write shows in its stamp (the embedded store), a second where it cannot', async () => {
    const items = store.collection('items');
    const find = jest.spyOn(items, 'find');
    const now = jest.spyOn(Date, 'now').mockReturnValue(10_000);
    const exact = new QueryCache(store);
    const page = await exact.find(items, {});
    now.mockReturnValue(69_999);
    expect(await exact.find(items, {})).toBe(page);
    now.mockReturnValue(70_000);
    expect(await exact.find(items, {})).not.toBe(page);
    const blindStore = { generations: store.generations, foreignWrites: () => null };
    const blind = new QueryCache(blindStore);
    now.mockReturnValue(10_000);
    const kept = await blind.find(items, {});
    now.mockReturnValue(10_999);
    expect(await blind.find(items, {})).toBe(kept);
    now.mockReturnValue(11_000);
    expect(await blind.find(items, {})).not.toBe(kept);
    expect(find).toHaveBeenCalledTimes(4);
    now.mockRestore();
  });

  it('keys a query as JSON.stringify writes it, with Dates as {"$date": ms}', () => {
    const replaced = (v: unknown) =>
      JSON.stringify(v, function (this: Record<string, unknown>, k: string, x: unknown) {
        return this[k] instanceof Date ? { $date: (this[k] as Date).getTime() } : x;
      });
    const at = new Date(Date.UTC(2030, 0, 1));
    const values: unknown[] = [
      { type: 'event', status: { $in: ['publish', 'private'] }, event_start: { $gte: at, $lte: new Date(NaN) }, tag: at.toISOString() },
      { $or: [{ a: 1 }, { b: null }, { c: undefined }], d: [1, undefined, () => 1, 'x"y'], e: { f: { g: -0, h: NaN, i: Infinity } } },
      {
        sort: [
          ['event_start', 1],
          ['id', -1],
        ],
        skip: 20,
        limit: 10,
        fields: ['id'],
      },
      { nested: { toJSON: () => ({ at }) }, re: /x/, empty: {}, list: [] },
      [at, 'a\u2028b', true, null],
      'text',
      3,
      null,
    ];
    for (const v of values) expect(keyOf(v)).toBe(replaced(v));
    expect(keyOf({ at })).not.toBe(keyOf({ at: at.toISOString() }));
  });
});
