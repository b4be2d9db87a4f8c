/**
 * The `import.batch` job on its own, on an in-memory store: retried jobs store nothing twice and
 * report the same activity, slices racing for one identity end with one record, linked records are
 * found with one query per batch.
 */
import { COLLECTIONS } from '#libs/data/collections';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { PostsRepository } from '#libs/posts/repository';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import { eaEvent } from '../../../test/support/imports';
import { runImportJob } from './insert';
import type { BatchContext, EventSpec, EventsResult, InsertDeps, LinkedResult } from './insert-job';
import { emptyActivity } from './activity';
import { eventIdentity } from '../items/identity';
import { organizersOf, venueOf } from '../items/linked';
import type { EaEvent } from '../items/items';

let store: Store;
let deps: InsertDeps;
const site = siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });
const ctx = (batchRef = 'imp:abc'): BatchContext => ({ importId: 'imp', recordId: 1, batchRef, origin: 'ical', postStatus: 'publish', author: 1 });

beforeEach(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await store.ensure(COLLECTIONS);
  deps = { store, posts: new PostsRepository(store), terms: new TermsRepository(store), site, now: () => new Date('2030-01-01T00:00:00Z') };
});

afterEach(async () => {
  await store.close();
});

function specs(items: EaEvent[], linked: LinkedResult): EventSpec[] {
  return items.map((item, index) => {
    const identity = eventIdentity(item, 'ical');
    const v = venueOf(item, 'ical');
    const orgs = organizersOf(item, 'ical');
    return {
      index,
      item,
      identity: { keys: identity.keys, primary: identity.primary! },
      ...(v ? { venue: linked.venues[v.ref] } : {}),
      ...(orgs.length ? { organizers: orgs.map((o) => linked.organizers[o.ref]) } : {}),
      categories: [],
      tags: [],
    };
  });
}

async function linkedFor(items: EaEvent[], batchRef = 'imp:abc'): Promise<LinkedResult> {
  const venues = new Map(items.map((i) => venueOf(i, 'ical')!).map((v) => [v.ref, v]));
  const organizers = new Map(items.flatMap((i) => organizersOf(i, 'ical')).map((o) => [o.ref, o]));
  return (await runImportJob(deps, {
    step: 'linked',
    ...ctx(batchRef),
    venues: [...venues.values()],
    organizers: [...organizers.values()],
    categories: ['Music'],
    tags: [],
  })) as LinkedResult;
}

it('reports the same activity and stores nothing twice when a job runs again', async () => {
  const items = [eaEvent(1), eaEvent(2), eaEvent(3)] as unknown as EaEvent[];
  const linked1 = await linkedFor(items);
  const linked2 = await linkedFor(items);
  expect(linked2.venues).toEqual(linked1.venues);
  expect(linked2.activity).toEqual(linked1.activity);
  const job = { step: 'events' as const, ...ctx(), events: specs(items, linked1) };
  const first = (await runImportJob(deps, job)) as EventsResult;
  const second = (await runImportJob(deps, job)) as EventsResult;
  expect(first.activity.vendor_events.created).toHaveLength(3);
  expect(second.activity).toEqual(first.activity);
  // A rerun whose first answer was lost counts its events as new again (their counts were never added).
  expect(second.counts).toEqual(first.counts);
  expect(await deps.posts.count({ type: EVENT_TYPE })).toBe(3);
  expect(await deps.posts.count({ type: VENUE_TYPE })).toBe(3);
  expect(await deps.posts.count({ type: ORGANIZER_TYPE })).toBe(4);
});

it('reports records another batch created as updated', async () => {
  const items = [eaEvent(1)] as unknown as EaEvent[];
  const linked = await linkedFor(items, 'imp:one');
  await runImportJob(deps, { step: 'events', ...ctx('imp:one'), events: specs(items, linked) });
  const again = (await runImportJob(deps, { step: 'events', ...ctx('imp:two'), events: specs(items, linked) })) as EventsResult;
  expect(again.activity.vendor_events.created).toEqual([]);
  expect(again.activity.vendor_events.updated).toHaveLength(1);
  const linkedAgain = await linkedFor(items, 'imp:two');
  expect(linkedAgain.activity.vendor_venue.updated).toEqual(Object.values(linked.venues));
});

it('ends with one record when two slices race for the same identity', async () => {
  const items = [eaEvent(5)] as unknown as EaEvent[];
  const linked = await linkedFor(items);
  const job = (ref: string) => runImportJob(deps, { step: 'events', ...ctx(ref), events: specs(items, linked) });
  const results = await Promise.allSettled([job('imp:a'), job('imp:b')]);
  // One wins; the other hits the unique identity and fails, as a job attempt that the queue retries.
  const failed = results.filter((r) => r.status === 'rejected');
  expect(failed.length).toBeLessThanOrEqual(1);
  const retry = (await job('imp:b')) as EventsResult;
  expect(retry.activity.vendor_events.created.length + retry.activity.vendor_events.updated.length).toBe(1);
  expect(await deps.posts.count({ type: EVENT_TYPE })).toBe(1);
});

it('finds every venue and organizer of a batch with one query', async () => {
  const items = Array.from({ length: 40 }, (_, i) => eaEvent(100 + i)) as unknown as EaEvent[];
  await linkedFor(items);
  const find = jest.spyOn(deps.posts, 'find');
  await linkedFor(items, 'imp:again');
  const linkedQueries = find.mock.calls.filter(([filter]) => JSON.stringify(filter).includes(VENUE_TYPE));
  expect(linkedQueries).toHaveLength(1);
  find.mockRestore();
});

it('gives repeated titles distinct slugs with one query per repeated slug', async () => {
  const none: LinkedResult = { venues: {}, organizers: {}, categories: {}, tags: {}, activity: emptyActivity() };
  const items = Array.from({ length: 30 }, (_, i) => ({ title: 'Weekly yoga', start_date: '2031-01-01', uid: `y${i}` })) as EaEvent[];
  await runImportJob(deps, { step: 'events', ...ctx('imp:a'), events: specs(items, none) });
  const more = items.map((i) => ({ ...i, uid: `${i.uid}-b` }));
  await runImportJob(deps, { step: 'events', ...ctx('imp:b'), events: specs(more, none) });
  const slugs = (await deps.posts.find({ type: EVENT_TYPE }, { fields: ['slug'] })).map((d) => d.slug);
  expect(slugs).toHaveLength(60);
  expect(new Set(slugs).size).toBe(60);
  expect(slugs).toContain('weekly-yoga');
  expect(slugs).toContain('weekly-yoga-60');
});

describe('venues without an id (iCalendar LOCATION)', () => {
  const place = (venue: string, address?: string) => ({ venue, ...(address ? { address } : {}) });
  const linkedOf = (venues: Array<ReturnType<typeof place>>, batchRef: string) =>
    runImportJob(deps, {
      step: 'linked',
      ...ctx(batchRef),
      venues: venues.map((v) => venueOf({ title: 't', venue: v } as EaEvent, 'ical')!),
      organizers: [],
      categories: [],
      tags: [],
    }) as Promise<LinkedResult>;
  const addressOf = async (id: number) => (await deps.posts.ofType(id, VENUE_TYPE))?.meta?._VenueAddress;

  it('are one record per name and address: each event keeps the address it brought', async () => {
    const a = place('Town Hall', '1 Main Street, Springfield');
    const b = place('Town Hall', '9 Harbour Road, Shelbyville');
    const first = await linkedOf([a, b], 'imp:v1');
    const [idA, idB] = Object.values(first.venues);
    expect(idA).not.toBe(idB);
    expect(await addressOf(idA)).toBe('1 Main Street, Springfield');
    expect(await addressOf(idB)).toBe('9 Harbour Road, Shelbyville');
    // Read again, in another batch and order, and with another spelling of the same address.
    const again = await linkedOf([place('town hall', '9 harbour road,  Shelbyville'), a], 'imp:v2');
    expect(Object.values(again.venues).sort()).toEqual([idA, idB].sort());
    expect(await deps.posts.count({ type: VENUE_TYPE })).toBe(2);
  });

  it('match a venue of that name by name alone when either has no address, filling the address in', async () => {
    const bare = await linkedOf([place('Corner Pub')], 'imp:p1');
    const withAddress = await linkedOf([place('Corner Pub', '3 Side Street')], 'imp:p2');
    expect(Object.values(withAddress.venues)).toEqual(Object.values(bare.venues));
    expect(await addressOf(Object.values(bare.venues)[0])).toBe('3 Side Street');
    const bareAgain = await linkedOf([place('Corner Pub')], 'imp:p3');
    expect(Object.values(bareAgain.venues)).toEqual(Object.values(bare.venues));
  });
});
