/**
 * The calendar part of the benchmark data set (PERFORMANCE.md): 10,000 events from 30 days ago to two
 * years ahead, 1–4 hours long; 200 venues and 200 organizers linked round-robin; 50 event categories,
 * 1–2 per event; 10 % featured (the counts are bench/data-set.ts's, or BENCH_SCALES's). Written
 * through the store in batches, with the event meta and its indexed copies derived by the same code the
 * service writes with. Then the vendor/events/v1 rows.
 */
import { DateTime } from 'luxon';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE, eventMetaChanges, timesToMeta } from '#libs/calendar/meta';
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostDoc } from '#libs/posts/types';
import type { Store } from '#libs/store/types';
import type { BenchEndpoint } from './endpoints';
import type { Seeded } from './seed';
import { ROTATION, idUrls, pageUrls, spread, type SeedSizes } from './data-set';

const CHUNK = 1000;
const ZONE = 'UTC';

const SITE = { home: 'http://localhost', timezone: ZONE };

function post(id: number, type: string, title: string, slug: string, at: DateTime, extra: Partial<PostDoc> = {}): PostDoc {
  return newCalendarRecord(SITE, at.toJSDate(), {
    id,
    type,
    status: 'publish',
    slug,
    title,
    content: `<p>${title}: a description long enough to look like one, with a few words about what happens and where.</p>`,
    author: 1,
    ...extra,
  });
}

async function insertInChunks(store: Store, docs: PostDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += CHUNK) await store.collection('posts').insertMany(docs.slice(i, i + CHUNK));
}

/**
 * The events, venues, organizers and categories. The events are built and written a chunk at a time
 * (a 100,000-event store is seeded in bounded memory), in the order of their starts, so the ids the
 * rows rotate over are picked by index before any is written.
 */
export async function seedEvents(store: Store, sizes: SeedSizes, out: Seeded): Promise<void> {
  const { events, venues, organizers, categories } = sizes;
  const created = DateTime.utc().minus({ days: 60 });

  const firstTerm = await store.nextId('terms', categories);
  const termIds = Array.from({ length: categories }, (_, i) => firstTerm + i);
  const counts = new Map<number, number>(termIds.map((id) => [id, 0]));

  const firstLinked = await store.nextId('posts', venues + organizers);
  const venueIds = Array.from({ length: venues }, (_, i) => firstLinked + i);
  const organizerIds = Array.from({ length: organizers }, (_, i) => firstLinked + venues + i);
  await insertInChunks(store, [
    ...venueIds.map((id, i) =>
      post(id, VENUE_TYPE, `Bench venue ${i}`, `bench-venue-${i}`, created, {
        meta: {
          _VenueAddress: `${i} Main Street`,
          _VenueCity: 'Springfield',
          _VenueCountry: 'United States',
          _VenueZip: String(10000 + i),
          _VenuePhone: `555-01${i}`,
        },
      }),
    ),
    ...organizerIds.map((id, i) =>
      post(id, ORGANIZER_TYPE, `Bench organizer ${i}`, `bench-organizer-${i}`, created, {
        meta: { _OrganizerEmail: `org${i}@bench.test`, _OrganizerPhone: `555-02${i}`, _OrganizerWebsite: `http://org${i}.bench.test` },
      }),
    ),
  ]);

  // Spread from 30 days ago to two years ahead, each 1–4 hours long.
  const from = DateTime.utc().minus({ days: 30 }).startOf('hour');
  const span = DateTime.utc().plus({ years: 2 }).toMillis() - from.toMillis();
  const startAt = (i: number) => from.toMillis() + Math.floor((span * i) / events);
  // The first event starting after `at` (events when none does): starts grow with the index.
  const firstAfter = (at: number) => {
    let lo = 0;
    let hi = events;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (startAt(mid) > at) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const now = Date.now();
  // Inside the default window (yesterday to 24 months ahead) whenever the rows run: starting from now
  // to 23 months ahead.
  const ahead = [firstAfter(now), firstAfter(DateTime.utc().plus({ months: 23 }).toMillis())] as const;
  const weekAhead = firstAfter(DateTime.utc().plus({ days: 7 }).toMillis());
  const firstEvent = await store.nextId('posts', events);
  for (let offset = 0; offset < events; offset += CHUNK) {
    const docs: PostDoc[] = [];
    for (let i = offset; i < Math.min(events, offset + CHUNK); i++) {
      const start = DateTime.fromMillis(startAt(i), { zone: ZONE }).startOf('minute');
      const end = start.plus({ hours: 1 + (i % 4) });
      const cats = i % 2 === 0 ? [termIds[i % categories]] : [termIds[i % categories], termIds[(i + 7) % categories]];
      const unique = [...new Set(cats)];
      for (const c of unique) counts.set(c, counts.get(c)! + 1);
      const meta = {
        ...timesToMeta({ start, end, timezone: ZONE, allDay: false }),
        _EventCost: String(5 + (i % 20)),
        _EventCurrencySymbol: '$',
        _EventCurrencyPosition: 'prefix',
        _EventVenueID: [venueIds[i % venues]],
        _EventOrganizerID: [organizerIds[i % organizers]],
        ...(i % 10 === 0 ? { _vendor_featured: true } : {}),
      };
      docs.push(
        post(firstEvent + i, EVENT_TYPE, `Bench event ${i}`, `bench-event-${i}`, created, {
          tax: { [CATEGORY_TAXONOMY]: unique, post_tag: [] },
          terms: unique,
          ...eventMetaChanges(null, meta, ZONE),
        }),
      );
    }
    await store.collection('posts').insertMany(docs);
  }
  await store.collection('terms').insertMany(
    termIds.map((id, i) => ({
      id,
      taxonomy: CATEGORY_TAXONOMY,
      name: `Bench category ${i}`,
      slug: `bench-category-${i}`,
      description: '',
      parent: 0,
      count: counts.get(id)!,
    })),
  );
  out.counts.events = events;
  out.counts['events ahead'] = ahead[1] - ahead[0];
  out.counts.venues = venues;
  out.counts.organizers = organizers;
  out.counts['event categories'] = categories;
  // The authenticated category row asks for a window from 30 days ahead: 60 days, or longer where 60 days of one
  // category hold less than a page (posts-per-page 10) of events, so every size of the scaling table
  // answers the same amount of records and the table shows the cost of the store's size, not of a
  // shorter answer. An event carries 1.5 categories on average.
  const perCategoryDay = (events * 1.5) / categories / (span / 86_400_000);
  out.counts['category window days'] = Math.max(60, Math.ceil((PAGE * 1.5) / perCategoryDay));
  // First an event a week ahead (with a venue, an organizer and categories; the events after it in
  // id order are later ones), then events spread from it to the end of the default window.
  const first = weekAhead < events ? weekAhead : 0;
  out.ids.events = [first, ...spread(first, Math.max(first, ahead[1] - 1), ROTATION).filter((i) => i !== first)].map((i) => firstEvent + i);
  out.ids.eventCategories = termIds;
  out.ids.venues = venueIds.slice(0, ROTATION);
  out.ids.organizers = organizerIds.slice(0, ROTATION);
}

/** Events a page of the default archive holds (the site's posts-per-page). */
const PAGE = 10;

const day = (days: number) => DateTime.utc().plus({ days }).toFormat('yyyy-LL-dd');
let created = 0;

export const EVENT_ENDPOINTS: BenchEndpoint[] = [
  { name: 'GET vendor/events/v1/events (default window)', target: 670, request: (c) => ({ url: `${c.rest}/vendor/events/v1/events` }) },
  {
    name: 'GET vendor/events/v1/events?categories&start_date&end_date',
    target: 1800,
    request: (c) => ({ url: `${c.rest}/vendor/events/v1/events?categories=bench-category-3&start_date=${day(30)}&end_date=${day(90)}` }),
  },
  // The same archives for the administrator: past the guest reply cache, so every request is served
  // from the store; over the first pages of the default window (posts-per-page 10), and over the categories.
  {
    name: 'GET vendor/events/v1/events?page=k (default window; authenticated)',
    target: 670,
    scaling: true,
    request: (c) => ({ url: pageUrls(`${c.rest}/vendor/events/v1/events`, c.seeded.counts['events ahead']), auth: true }),
  },
  {
    name: 'GET vendor/events/v1/events?categories={slug}&start_date&end_date (authenticated)',
    target: 1800,
    scaling: true,
    request: (c) => ({
      url: Array.from(
        { length: c.seeded.ids.eventCategories.length },
        (_, i) =>
          `${c.rest}/vendor/events/v1/events?categories=bench-category-${i}&start_date=${day(30)}&end_date=${day(30 + c.seeded.counts['category window days'])}`,
      ),
      auth: true,
    }),
  },
  { name: 'GET vendor/events/v1/events/{id}', target: 2900, request: (c) => ({ url: `${c.rest}/vendor/events/v1/events/${c.seeded.ids.events[0]}` }) },
  {
    name: 'GET vendor/events/v1/events/{id} (authenticated)',
    target: 2900,
    scaling: true,
    request: (c) => ({ url: idUrls(c, 'events', (id) => `vendor/events/v1/events/${id}`), auth: true }),
  },
  {
    name: 'POST vendor/events/v1/events (authenticated)',
    target: 690,
    scaling: true,
    request: (c) => ({
      url: `${c.rest}/vendor/events/v1/events`,
      method: 'POST',
      auth: true,
      body: () => {
        created++;
        return {
          title: `Bench created ${process.pid}-${created}`,
          start_date: `${day(10 + (created % 300))} 18:00:00`,
          end_date: `${day(10 + (created % 300))} 20:00:00`,
        };
      },
    }),
  },
];
