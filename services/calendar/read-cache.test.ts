import { SqliteStore } from '../../libs/store/sqlite';
import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([{ name: 'terms', fields: { id: 'int' }, indexes: [] }]);
  });
  afterEach(() => store.close());

  it('drops what it keeps on any write through the store, whichever repository or service made it', async () => {
    const cache = new ReadCache(store.generations);
    cache.keep('term:1', { name: 'Jazz' }, cache.mark());
    expect(cache.peek('term:1')).toEqual({ name: 'Jazz' });
    // A write by another service over the same store (the content service renaming a term).
    await store.collection('terms').insertOne({ id: 1 });
    expect(cache.peek('term:1')).toBeUndefined();
  });

  it('does not keep what was read before a write, and forgets everything on invalidate (a settings change)', async () => {
    const cache = new ReadCache(store.generations);
    const mark = cache.mark();
    await store.collection('terms').insertOne({ id: 2 });
    cache.keep('late', 1, mark);
    expect(cache.peek('late')).toBeUndefined();
    cache.keep('a', 1, cache.mark());
    cache.invalidate();
    expect(cache.peek('a')).toBeUndefined();
  });
});
