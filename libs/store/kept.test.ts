import { WriteGenerations } from './generations';
import { Kept } from './kept';

function fakeStore(foreign: number | null = null) {
  const generations = new WriteGenerations();
  const state = { foreign };
  return { state, store: { generations, foreignWrites: () => state.foreign } };
}

describe('Kept', () => {
  it('returns a kept value until a collection it depends on is written', async () => {
    const { store } = fakeStore();
    const kept = new Kept<number>(store, { collections: ['posts', 'terms'], maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await kept.get('k', load)).toBe(1);
    expect(await kept.get('k', load)).toBe(1);
    store.generations.bump('users');
    expect(await kept.get('k', load)).toBe(1);
    store.generations.bump('terms');
    expect(await kept.get('k', load)).toBe(2);
  });

  it('keeps a value that depends only on records it names by id across inserts, not across changes', async () => {
    const { store } = fakeStore();
    const byId = new Kept<number>(store, { collections: ['posts'], maxEntries: 10, byIdOnly: true });
    const list = new Kept<number>(store, { collections: ['posts'], maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    const first = await byId.get('record', load);
    const page = await list.get('page', load);
    store.generations.bump('posts', true);
    expect(await byId.get('record', load)).toBe(first);
    expect(await list.get('page', load)).not.toBe(page);
    store.generations.bump('posts');
    expect(await byId.get('record', load)).not.toBe(first);
  });

  it('does not keep a value read while a write ran', async () => {
    const { store } = fakeStore();
    const kept = new Kept<string>(store, { collections: ['posts'], maxEntries: 10 });
    const value = await kept.get('k', async () => {
      store.generations.bump('posts');
      return 'stale';
    });
    expect(value).toBe('stale');
    expect(kept.peek('k')).toBeUndefined();
  });

  it("lives the short time-to-live when other processes' writes are unseen, the long one when they are seen", () => {
    const blind = fakeStore(null);
    const a = new Kept<string>(blind.store, { collections: ['posts'], maxEntries: 10, blindTtlMs: 1000, seenTtlMs: 60_000 });
    a.keep('k', 'v', a.stamp(), 0);
    expect(a.peek('k', a.stamp(), 999)).toBe('v');
    expect(a.peek('k', a.stamp(), 1000)).toBeUndefined();

    const seen = fakeStore(7);
    const b = new Kept<string>(seen.store, { collections: ['posts'], maxEntries: 10, blindTtlMs: 1000, seenTtlMs: 60_000 });
    b.keep('k', 'v', b.stamp(), 0);
    expect(b.peek('k', b.stamp(), 59_999)).toBe('v');
    // Another process committed: the stamp moved.
    seen.state.foreign = 8;
    expect(b.peek('k', b.stamp(), 1)).toBeUndefined();
  });

  it('follows a further part of the stamp, such as the settings revision', () => {
    const { store } = fakeStore();
    let revision = 1;
    const kept = new Kept<string>(store, {
      collections: [],
      also: {
        get revision() {
          return revision;
        },
      },
      maxEntries: 10,
    });
    kept.keep('k', 'v', kept.stamp());
    expect(kept.peek('k')).toBe('v');
    revision = 2;
    expect(kept.peek('k')).toBeUndefined();
  });

  it('stays within its weight bound and freezes values when asked', () => {
    const { store } = fakeStore();
    const kept = new Kept<number[]>(store, { collections: ['posts'], maxEntries: 5, weigh: (v) => (Array.isArray(v) ? v.length : 1), freeze: true });
    const stamp = kept.stamp();
    kept.keep('a', [1, 2, 3], stamp);
    kept.keep('b', [4, 5], stamp);
    expect(kept.peek('a')).toEqual([1, 2, 3]);
    kept.keep('c', [6], stamp);
    expect(kept.peek('a')).toBeUndefined();
    expect(kept.peek('c')).toEqual([6]);
    expect(Object.isFrozen(kept.peek('c'))).toBe(true);
  });
});
