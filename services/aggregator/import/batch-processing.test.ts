/**
 * Pushed batches stored end to end on the all-in-one process (inline queue): the reference's
 * tests/aggregatorv1/Import/Batch ProcessingCest plus what the import stores: events like the calendar
 * API's, linked venues and organizers deduplicated, re-imports updating instead of duplicating.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import type { Activity } from '../storage/activity';
import { RECORD_META } from '../storage/records';

let app: TestApp;
let db: AppStore;
let n = 0;
const importId = () => `imp${Date.now()}${++n}`;
const batch = (id: string, body: Record<string, unknown>) => app.request('POST', `/vendor/event-aggregator/v1/import/${id}/batch`, { body });

beforeAll(async () => {
  app = await startTestApp();
  db = await AppStore.open(app);
});

afterAll(async () => {
  await db?.close();
  await app?.close();
});

describe('batch processing (ProcessingCest)', () => {
  async function run(batchPart: { total: number; done: number }, count = 3) {
    const id = importId();
    const record = await db.record(id, '2389');
    const events = Array.from({ length: count }, () => eaEvent());
    const before = new Set((await db.ofType(EVENT_TYPE)).map((e) => e.id));
    const res = await batch(
      id,
      batchBody(events, { status: { data: { total: 9, done: batchPart.done * 3 }, batch: { total: batchPart.total, done: batchPart.done } } }),
    );
    const created = (await db.ofType(EVENT_TYPE)).filter((e) => !before.has(e.id));
    return { id, record, events, res, created, after: await db.reload(record) };
  }

  it('stores the first batch and keeps the import pending with a new hash', async () => {
    const { res, created, after } = await run({ total: 3, done: 0 });
    expect(res.status).toBe(200);
    expect(created).toHaveLength(3);
    expect(after.status).toBe('vendor-ea-pending');
    expect(res.body.status).toBe('success');
    expect(res.body.activity.vendor_events.created).toEqual(created.map((e) => e.id));
    const newHash = after.meta[RECORD_META.nextBatchHash];
    expect(newHash).toMatch(/^[0-9a-f]{32}$/);
    expect(newHash).not.toBe('2389');
    expect(res.body.next_batch_hash).toBe(newHash);
    expect(res.body.interval).toBe(10);
    expect(after.meta[RECORD_META.percentage]).toBe(18);
    expect(after.meta[RECORD_META.totalEvents]).toBe(9);
    expect(after.meta[RECORD_META.postStatus]).toBe('publish');
    expect(Object.keys(res.body.activity)).toEqual(['vendor_events', 'vendor_organizer', 'vendor_venue', 'vendor_events_cat', 'post_tag', 'attachment']);
  });

  it('accepts the 29th of February in leap years, 2000 included', async () => {
    const id = importId();
    await db.record(id, '2389');
    const events = ['2032-02-29', '2000-02-29'].map((day) =>
      eaEvent(undefined, { start_date: day, end_date: day, start_date_utc: undefined, end_date_utc: undefined }),
    );
    const res = await batch(id, batchBody(events));
    expect(res.status).toBe(200);
    const stored = await Promise.all((res.body.activity.vendor_events.created as number[]).map((eventId) => db.posts.findOne({ id: eventId })));
    expect(stored.map((e) => e?.meta?._EventStartDate)).toEqual(['2032-02-29 10:00:00', '2000-02-29 10:00:00']);
  });

  it('stores a batch after the first the same way', async () => {
    const { res, created, after } = await run({ total: 3, done: 1 });
    expect(res.status).toBe(200);
    expect(created).toHaveLength(3);
    expect(after.status).toBe('vendor-ea-pending');
    expect(res.body.activity.vendor_events.created).toEqual(created.map((e) => e.id));
    expect(res.body.next_batch_hash).toBe(after.meta[RECORD_META.nextBatchHash]);
  });

  it('finishes the import with the last batch: success, hash deleted, no next_batch_hash', async () => {
    const { res, created, after } = await run({ total: 3, done: 2 });
    expect(res.status).toBe(200);
    expect(created).toHaveLength(3);
    expect(after.status).toBe('vendor-ea-success');
    expect(after.meta).not.toHaveProperty(RECORD_META.nextBatchHash);
    expect(res.body).not.toHaveProperty('next_batch_hash');
    expect(res.body.interval).toBe(10);
    // The import is over: the same hash, or any, is refused now.
    const again = await batch(after.import_id, batchBody([eaEvent()]));
    expect(again.status).toBe(400);
  });

  it('follows the returned hashes through a whole import and accumulates the activity', async () => {
    const id = importId();
    const record = await db.record(id, 'first-hash');
    let hash = 'first-hash';
    const ids: number[] = [];
    for (let b = 0; b < 3; b++) {
      const res = await batch(
        id,
        batchBody([eaEvent(), eaEvent()], {
          batch_hash: hash,
          status: { data: { total: 6, done: b * 2 }, batch: { total: 3, done: b } },
          percentage_complete: Math.round(((b + 1) / 3) * 100),
        }),
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.activity.vendor_events.created);
      // The hash just used is spent.
      expect((await batch(id, batchBody([], { batch_hash: hash }))).status).toBe(400);
      if (b < 2) hash = res.body.next_batch_hash;
      else expect(res.body.next_batch_hash).toBeUndefined();
    }
    const after = await db.reload(record);
    expect(after.status).toBe('vendor-ea-success');
    expect(after.meta[RECORD_META.percentage]).toBe(100);
    expect((after.meta[RECORD_META.activity] as Activity).vendor_events.created).toEqual(ids);
    expect(ids).toHaveLength(6);
  });

  it('stores events as the calendar API does: meta, index fields, venue, organizers, terms', async () => {
    const id = importId();
    await db.record(id, '2389');
    const item = eaEvent(9001, {
      start_date: '2031-05-01',
      end_date: '2031-05-01',
      start_hour: '6',
      start_minute: '30',
      start_meridian: 'pm',
      end_hour: '9',
      end_minute: '00',
      end_meridian: 'pm',
      timezone: 'America/New_York',
      cost: '20$',
    });
    const res = await batch(id, batchBody([item]));
    expect(res.status).toBe(200);
    const [eventId] = res.body.activity.vendor_events.created;
    const doc = (await db.posts.byId(eventId))!;
    expect(doc.type).toBe(EVENT_TYPE);
    expect(doc.status).toBe('publish');
    expect(doc.title).toBe('Imported event 9001');
    expect(doc.slug).toBe('imported-event-9001');
    expect(doc.meta._EventStartDate).toBe('2031-05-01 18:30:00');
    expect(doc.meta._EventEndDate).toBe('2031-05-01 21:00:00');
    expect(doc.meta._EventStartDateUTC).toBe('2031-05-01 22:30:00');
    expect(doc.meta._EventTimezone).toBe('America/New_York');
    expect(doc.meta._EventTimezoneAbbr).toBe('EDT');
    expect(doc.meta._EventDuration).toBe(9000);
    expect(doc.meta._EventCost).toBe('20$');
    expect(doc.meta._EventURL).toBe('https://example.com/events/9001');
    expect(doc.meta._EventOrigin).toBe('event-aggregator');
    expect(doc.meta._vendor_aggregator_global_id).toBe('ea.example.com?type=event&id=9001');
    expect(doc.meta._uid).toBe('uid-9001@example.com');
    expect(doc.event_start).toEqual(new Date('2031-05-01T22:30:00Z'));
    expect(doc.event_end).toEqual(new Date('2031-05-02T01:00:00Z'));
    expect(doc.organizers).toHaveLength(2);

    // The calendar API reads it like any event.
    const api = await app.request('GET', `/vendor/events/v1/events/${eventId}`);
    expect(api.status).toBe(200);
    expect(api.body.start_date).toBe('2031-05-01 18:30:00');
    expect(api.body.utc_start_date).toBe('2031-05-01 22:30:00');
    expect(doc.venues).toEqual([api.body.venue.id]);
    expect(doc.meta._EventVenueID).toEqual([api.body.venue.id]);
    expect(doc.organizers).toEqual(api.body.organizer.map((o: { id: number }) => o.id));
    expect(api.body.venue.venue).toBe('Venue 1');
    expect(api.body.venue.city).toBe('Springfield');
    expect(api.body.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Organizer A1', 'Organizer B']);
    expect(api.body.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Music', 'Series 1']);
    expect(api.body.tags.map((c: { name: string }) => c.name)).toEqual(['imported']);
    const music = api.body.categories.find((c: { name: string }) => c.name === 'Music');
    expect(music.count).toBeGreaterThanOrEqual(1);
  });

  it('deduplicates venues and organizers within and across batches, and updates events on re-import', async () => {
    const first = importId();
    await db.record(first, 'h1');
    const events = [eaEvent(7001), eaEvent(7002), eaEvent(7006)];
    const venuesBefore = (await db.ofType(VENUE_TYPE)).length;
    const orgsBefore = (await db.ofType(ORGANIZER_TYPE)).length;
    const res1 = await batch(first, batchBody(events, { batch_hash: 'h1' }));
    expect(res1.status).toBe(200);
    // 7001 and 7006 share venue 1 (n % 5); 7002 and 7006 share organizer A2 (n % 4); B is everybody's.
    const venues1 = (await db.ofType(VENUE_TYPE)).length - venuesBefore;
    const orgs1 = (await db.ofType(ORGANIZER_TYPE)).length - orgsBefore;
    expect(venues1).toBeLessThanOrEqual(2);
    expect(orgs1).toBeLessThanOrEqual(3);

    // The same events again, in another import: updated in place, nothing new.
    const second = importId();
    await db.record(second, 'h2');
    const changed = events.map((e, i) => ({ ...e, title: `Renamed ${i}` }));
    const eventsBefore = (await db.ofType(EVENT_TYPE)).length;
    const res2 = await batch(second, batchBody(changed, { batch_hash: 'h2' }));
    expect(res2.status).toBe(200);
    expect(res2.body.activity.vendor_events.created).toEqual([]);
    expect(res2.body.activity.vendor_events.updated).toEqual(res1.body.activity.vendor_events.created);
    expect(res2.body.activity.vendor_venue.created).toEqual([]);
    expect(res2.body.activity.vendor_organizer.created).toEqual([]);
    expect((await db.ofType(EVENT_TYPE)).length).toBe(eventsBefore);
    expect((await db.ofType(VENUE_TYPE)).length - venuesBefore).toBe(venues1);
    const renamed = await db.posts.byId(res1.body.activity.vendor_events.created[0]);
    expect(renamed!.title).toBe('Renamed 0');
    // Term counts follow what the batches changed: every term's count is its published events.
    for (const term of await db.store.collection('terms').find({ taxonomy: { $in: ['vendor_events_cat', 'post_tag'] } })) {
      expect([term.name, term.count]).toEqual([term.name, await db.posts.count({ terms: term.id as number, status: 'publish' })]);
    }
  });

  it('treats a second item with the same identity in one batch as an update of the first', async () => {
    const id = importId();
    await db.record(id, '2389');
    const res = await batch(id, batchBody([eaEvent(8001), eaEvent(8001, { title: 'Second copy' })]));
    expect(res.status).toBe(200);
    expect(res.body.activity.vendor_events.created).toHaveLength(1);
    expect(res.body.activity.vendor_events.updated).toEqual(res.body.activity.vendor_events.created);
    expect((await db.posts.byId(res.body.activity.vendor_events.created[0]))!.title).toBe('Second copy');
  });

  it('stores events without any id once per batch position, with unique slugs', async () => {
    const id = importId();
    await db.record(id, '2389');
    const bare = { title: 'Same title', start_date: '2031-02-02' };
    const res = await batch(id, batchBody([bare, bare, bare]));
    expect(res.status).toBe(200);
    const ids = res.body.activity.vendor_events.created;
    expect(ids).toHaveLength(3);
    const slugs = await Promise.all(ids.map(async (i: number) => (await db.posts.byId(i))!.slug));
    expect(new Set(slugs).size).toBe(3);
    expect(slugs[0]).toMatch(/^same-title(-\d+)?$/);
  });

  it('accepts a batch without events', async () => {
    const id = importId();
    await db.record(id, '2389');
    const res = await batch(id, batchBody([], { events: undefined }));
    expect(res.status).toBe(200);
    expect(res.body.activity.vendor_events.created).toEqual([]);
  });
});
