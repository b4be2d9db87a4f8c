import { SqliteStore } from '../store/sqlite';
import { PresentedCache, jsonBytes, viewerKey } from './presented';

describe('jsonBytes', () => {
  let store: SqliteStore;
  let cache: PresentedCache;
  beforeAll(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([{ name: 'posts', fields: { id: 'int' }, indexes: [] }]);
    cache = new PresentedCache(store, ['posts'], { revision: 1 });
  });
  afterAll(() => store.close());

  const record = (id: number) => ({
    id,
    title: { rendered: `Record ${id} "quoted" \u2028` },
    when: new Date(Date.UTC(2030, 0, id)),
    gone: undefined,
    tags: [1, undefined, 3],
    _links: { self: [{ href: `http://x/${id}` }] },
  });

  it('writes exactly what JSON.stringify writes, with kept records anywhere within two levels', () => {
    const stamp = cache.stamp();
    const kept = [1, 2, 3].map((id) => cache.keep(`r${id}`, record(id), stamp));
    const shapes: unknown[] = [
      kept,
      kept[0],
      [kept[0], record(9), undefined, null, 5, 'text'],
      { events: kept, total: 3, next: undefined, rest_url: 'http://x/events', empty: [] },
      { 10: 'numeric key first', a: kept[1], b: { c: kept[2] } },
      [],
      {},
      [record(4)],
      { body: kept, status: 200, headers: { 'X-WP-Total': '3' } },
      'plain',
      7,
      null,
    ];
    const utf8 = (shape: unknown) => Buffer.from(JSON.stringify(shape) ?? 'null');
    for (const shape of shapes) expect(jsonBytes(shape)).toEqual(utf8(shape));
    // Twice: the second time from the kept bytes.
    for (const shape of shapes) expect(jsonBytes(shape)).toEqual(utf8(shape));
  });
});

describe('PresentedCache', () => {
  let store: SqliteStore;
  let revision: number;
  let cache: PresentedCache;
  beforeEach(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([
      { name: 'posts', fields: { id: 'int' }, indexes: [] },
      { name: 'terms', fields: { id: 'int' }, indexes: [] },
      { name: 'users', fields: { id: 'int' }, indexes: [] },
    ]);
    for (const c of ['posts', 'terms', 'users']) await store.collection(c).insertOne({ id: 1 });
    revision = 1;
    cache = new PresentedCache(
      store,
      ['posts', 'terms'],
      {
        get revision() {
          return revision;
        },
      },
      1000,
    );
  });
  afterEach(() => store.close());

  it('keeps a record until a collection it was built from is changed (not by an insert), or the settings change', async () => {
    let stamp = cache.stamp();
    cache.keep('a', { id: 1 }, stamp);
    expect(cache.peek('a', stamp)).toEqual({ id: 1 });
    await store.collection('users').updateOne({ id: 1 }, { $set: { name: 'x' } });
    expect(cache.peek('a', cache.stamp())).toEqual({ id: 1 });
    await store.collection('terms').insertOne({ id: 2 });
    expect(cache.peek('a', cache.stamp())).toEqual({ id: 1 });
    await store.collection('terms').updateOne({ id: 1 }, { $set: { name: 'x' } });
    stamp = cache.stamp();
    expect(cache.peek('a', stamp)).toBeUndefined();
    cache.keep('a', { id: 2 }, stamp);
    revision = 2;
    expect(cache.peek('a', cache.stamp())).toBeUndefined();
  });

  it('does not keep what was read before a write that landed while it was presented', async () => {
    const stamp = cache.stamp();
    await store.collection('posts').updateOne({ id: 1 }, { $set: { title: 'x' } });
    const value = cache.keep('a', { id: 1 }, stamp);
    expect(value).toEqual({ id: 1 });
    expect(Object.isFrozen(value)).toBe(false);
    expect(cache.peek('a', cache.stamp())).toBeUndefined();
  });

  it('drops an entry after its time-to-live (another process may have written)', () => {
    const stamp = cache.stamp();
    cache.keep('a', { id: 1 }, stamp, 5_000);
    expect(cache.peek('a', stamp, 5_999)).toEqual({ id: 1 });
    expect(cache.peek('a', stamp, 6_000)).toBeUndefined();
  });

  it('freezes what it keeps, deeply, so no answer can change it for the next caller', () => {
    const kept = cache.keep('a', { id: 1, title: { rendered: 'x' }, list: [{ a: 1 }] }, cache.stamp());
    expect(() => {
      (kept as { id: number }).id = 2;
    }).toThrow(TypeError);
    expect(() => {
      (kept.title as { rendered: string }).rendered = 'y';
    }).toThrow(TypeError);
    expect(() => (kept.list as unknown[]).push(1)).toThrow(TypeError);
  });

  it('names callers by id and roles, and every guest alike', () => {
    expect(viewerKey(null)).toBe('-');
    expect(viewerKey({ id: 3, login: 'a', roles: ['editor'], caps: new Set() } as never)).toBe('3/editor');
  });
});
