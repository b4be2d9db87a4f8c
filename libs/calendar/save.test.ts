/**
 * The one write path of calendar records (save.ts), on an in-memory store: a new event and a changed one
 * come out with the same derived meta and index fields whoever writes them, new records of a bulk write
 * get one block of ids and free slugs, only what changed is saved, term counts move by what the writes
 * changed, and a failed write leaves nothing.
 */
import { COLLECTIONS } from '../data/collections';
import { PostsRepository } from '../posts/repository';
import type { PostDoc } from '../posts/types';
import { openStore } from '../store';
import type { Store } from '../store/types';
import { TermsRepository } from '../terms/repository';
import { CATEGORY_TAXONOMY, EVENT_META, EVENT_TYPE, VENUE_TYPE } from './meta';
import { newCalendarRecord, nextEventRecord, storeRecords, type RecordSaveDeps } from './save';

let store: Store;
let deps: RecordSaveDeps & { terms: TermsRepository };
const now = new Date('2030-01-01T00:00:00Z');
const site = { home: 'http://example.test', timezone: 'Europe/Paris' };

beforeEach(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await store.ensure(COLLECTIONS);
  deps = { store, posts: new PostsRepository(store), terms: new TermsRepository(store), site, now: () => now };
});

afterEach(() => store.close());

const startsAt = (local: string) => ({ [EVENT_META.start]: local, [EVENT_META.end]: local, [EVENT_META.timezone]: 'America/New_York' });

describe('nextEventRecord', () => {
  it('derives the UTC times and index fields of a new event from its local times and zone', () => {
    const doc = nextEventRecord(deps, now, null, { meta: startsAt('2030-03-01 19:00:00'), fields: { title: 'A', status: 'publish' } });
    expect(doc).toMatchObject({ id: 0, type: EVENT_TYPE, title: 'A', status: 'publish', comment_status: 'open' });
    expect(doc.meta?.[EVENT_META.startUtc]).toBe('2030-03-02 00:00:00');
  });

  it('applies a change over the current record and stamps it modified', () => {
    const first = nextEventRecord(deps, new Date('2029-01-01T00:00:00Z'), null, { meta: startsAt('2030-03-01 19:00:00'), fields: { title: 'A' } });
    const next = nextEventRecord(deps, now, first, { meta: { [EVENT_META.cost]: '5' }, fields: { title: 'B' } });
    expect(next).toMatchObject({ title: 'B', modified_gmt: now });
    expect(next.meta).toMatchObject({ [EVENT_META.cost]: '5', [EVENT_META.startUtc]: '2030-03-02 00:00:00' });
  });
});

describe('storeRecords', () => {
  const fresh = (title: string, tax: Record<string, number[]> = {}) =>
    nextEventRecord(deps, now, null, { meta: startsAt('2030-03-01 19:00:00'), fields: { title, status: 'publish', tax } });

  it('gives new records one block of ids, free slugs (the id where none is wanted) and their guids', async () => {
    await deps.posts.create(newCalendarRecord(site, now, { id: await store.nextId('posts'), type: EVENT_TYPE, status: 'publish', slug: 'party' }));
    const { records } = await storeRecords(deps, [
      { before: null, after: fresh('Party'), slug: 'party' },
      { before: null, after: fresh('Party'), slug: 'party' },
      { before: null, after: fresh('Nameless'), slug: '' },
    ]);
    const [a, b, c] = records as PostDoc[];
    expect([b.id - a.id, c.id - b.id]).toEqual([1, 1]);
    expect([a.slug, b.slug, c.slug]).toEqual(['party-2', 'party-3', String(c.id)]);
    expect(a.guid).toBe(`http://example.test/?post_type=${EVENT_TYPE}&p=${a.id}`);
    expect((await deps.posts.byId(b.id))?.slug).toBe('party-3');
  });

  it('saves only what changed, and keeps the slug unique among the others of its type', async () => {
    const { records } = await storeRecords(deps, [
      { before: null, after: fresh('One'), slug: 'one' },
      { before: null, after: fresh('Two'), slug: 'two' },
    ]);
    const [one, two] = records as PostDoc[];
    const save = jest.spyOn(deps.posts, 'save');
    await storeRecords(deps, [{ before: one, after: { ...one } }]);
    expect(save).not.toHaveBeenCalled();
    const renamed = await storeRecords(deps, [{ before: two, after: { ...two, title: 'Renamed' }, slug: 'one' }]);
    expect(renamed.records[0]).toMatchObject({ title: 'Renamed', slug: 'one-2' });
    expect(Object.keys(save.mock.calls[0][1]).sort()).toEqual(['slug', 'title']);
  });

  it('moves term counts by what the writes changed, or hands them back', async () => {
    const t = await deps.terms.create({ taxonomy: CATEGORY_TAXONOMY, name: 'Music' });
    const handed = await storeRecords(deps, [{ before: null, after: fresh('A', { [CATEGORY_TAXONOMY]: [t.id] }), slug: 'a' }]);
    expect([...handed.counts]).toEqual([[t.id, 1]]);
    expect((await deps.terms.byId(t.id))?.count).toBe(0);
    const a = handed.records[0] as PostDoc;
    // Counted as new (nothing counted it yet), then moved here.
    await storeRecords(deps, [{ before: a, after: { ...a, title: 'A2' }, counted: null }], { terms: deps.terms });
    expect((await deps.terms.byId(t.id))?.count).toBe(1);
    await storeRecords(deps, [{ before: a, after: { ...a, status: 'draft' } }], { terms: deps.terms });
    expect((await deps.terms.byId(t.id))?.count).toBe(0);
  });

  it('runs `prepare` on new records once they have their ids, before they are stored', async () => {
    const seen: number[] = [];
    const { records } = await storeRecords(deps, [{ before: null, after: fresh('P'), slug: 'p' }], {
      prepare: async (doc) => {
        seen.push(doc.id);
        doc.featured_media = 42;
      },
    });
    expect(seen).toEqual([records[0]!.id]);
    expect((await deps.posts.byId(seen[0]))?.featured_media).toBe(42);
  });

  it('keeps nothing of a write list the store refuses part of', async () => {
    const venue = newCalendarRecord(site, now, { id: 0, type: VENUE_TYPE, status: 'publish', slug: '' });
    jest.spyOn(deps.posts, 'save').mockRejectedValueOnce(new Error('refused'));
    const { records } = await storeRecords(deps, [{ before: null, after: fresh('Kept'), slug: 'kept' }]);
    const kept = records[0] as PostDoc;
    await expect(
      storeRecords(deps, [
        { before: null, after: venue, slug: 'hall' },
        { before: kept, after: { ...kept, title: 'Changed' } },
      ]),
    ).rejects.toThrow('refused');
    expect(await store.collection('posts').count({ type: VENUE_TYPE })).toBe(0);
    expect((await deps.posts.byId(kept.id))?.title).toBe('Kept');
  });
});

describe('PostsRepository.uniqueSlugs', () => {
  const add = async (slug: string, type = EVENT_TYPE) =>
    deps.posts.create(newCalendarRecord(site, now, { id: await store.nextId('posts'), type, status: 'publish', slug }));

  it('hands out each wanted slug once, in order, with the reference rules for reserved names', async () => {
    await add('a');
    await add('a-2');
    await add('b', VENUE_TYPE);
    const slugs = await deps.posts.uniqueSlugs(['a', 'a', 'b', 'feed', '', 'c', 'c'], { type: EVENT_TYPE, hierarchical: false });
    expect(slugs).toEqual(['a-3', 'a-4', 'b', 'feed-2', '', 'c', 'c-2']);
  });

  it('keeps within 200 characters when a suffix is added', async () => {
    const long = 'x'.repeat(200);
    await add(long);
    const [slug] = await deps.posts.uniqueSlugs([long], { type: EVENT_TYPE, hierarchical: false });
    expect(slug).toBe(`${'x'.repeat(198)}-2`);
  });
});
