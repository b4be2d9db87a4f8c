/**
 * vendor/event-aggregator/v1 end to end on the all-in-one process (inline queue): the reference's
 * tests/aggregatorv1/Import/Batch catalogue (validation, processing, interval, forced status) plus
 * what the import stores: events like the calendar API's, linked venues and organizers deduplicated,
 * re-imports updating instead of duplicating, bad input changing nothing.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '../../../libs/calendar/meta';
import type { Activity } from '../storage/activity';
import { INTERVAL_OPTION, clampInterval, setBatchInterval } from './interval';
import { ERROR_COMMENT_TYPE, RECORD_META } from '../storage/records';

let app: TestApp;
let db: AppStore;
let n = 0;
const importId = () => `imp${Date.now()}${++n}`;
const batch = (id: string, body: Record<string, unknown>) => app.request('POST', `/vendor/event-aggregator/v1/import/${id}/batch`, { body });
const state = (id: string, body: Record<string, unknown>) => app.request('POST', `/vendor/event-aggregator/v1/import/${id}/state`, { body });
const stateBody = (o: Record<string, unknown> = {}) => ({
  batch_hash: '2389',
  status: 'success',
  message: 'Some message',
  message_slug: 'message-slug',
  percentage_complete: 50,
  ...o,
});

beforeAll(async () => {
  app = await startTestApp();
  db = await AppStore.open(app);
});

afterAll(async () => {
  await db?.close();
  await app?.close();
});

describe('routes', () => {
  it('lists the namespace and its two routes in the index', async () => {
    const res = await app.request('GET', '/vendor/event-aggregator/v1');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.routes)).toEqual([
      '/vendor/event-aggregator/v1',
      '/vendor/event-aggregator/v1/import/(?P<import_id>\\w+)/batch',
      '/vendor/event-aggregator/v1/import/(?P<import_id>\\w+)/state',
    ]);
    const batchRoute = res.body.routes['/vendor/event-aggregator/v1/import/(?P<import_id>\\w+)/batch'];
    expect(batchRoute.methods).toEqual(['POST']);
    expect(Object.keys(batchRoute.endpoints[0].args)).toEqual(['import_id', 'batch_hash', 'status', 'percentage_complete', 'interval']);
  });

  it('answers 404 for an import id that is not a word', async () => {
    const res = await batch('not-a-word', batchBody([]));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });
});

describe('batch validation (ValidationCest)', () => {
  it('refuses a non-existing import id', async () => {
    const res = await batch('23', batchBody([eaEvent()]));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.message).toBe('Invalid parameter(s): import_id, batch_hash');
    expect(Object.keys(res.body.data.params)).toEqual(['import_id', 'batch_hash']);
  });

  it.each(['vendor-ea-success', 'vendor-ea-failed', 'vendor-ea-schedule', 'vendor-ea-draft'])('refuses a record in %s', async (status) => {
    const id = importId();
    await db.record(id, '2389', status);
    const res = await batch(id, batchBody([eaEvent()]));
    expect(res.status).toBe(400);
    expect(res.body.data.params.import_id).toBe('Invalid parameter.');
    expect(await db.ofType(EVENT_TYPE)).toEqual(expect.not.arrayContaining([expect.objectContaining({ title: 'never' })]));
  });

  it('refuses a pending record without batch_hash as a missing parameter', async () => {
    const id = importId();
    await db.record(id, '2389');
    const body = batchBody([eaEvent()]);
    delete body.batch_hash;
    const res = await batch(id, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_missing_callback_param');
    expect(res.body.data.params).toEqual(['batch_hash']);
  });

  it('refuses an unexpected batch_hash, and changes nothing', async () => {
    const id = importId();
    const record = await db.record(id, '2389');
    const before = (await db.ofType(EVENT_TYPE)).length;
    const res = await batch(id, batchBody([eaEvent()], { batch_hash: 'unexpected' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['batch_hash']);
    expect((await db.ofType(EVENT_TYPE)).length).toBe(before);
    expect((await db.reload(record)).meta[RECORD_META.nextBatchHash]).toBe('2389');
  });

  it('fails closed when the record has no stored hash', async () => {
    const id = importId();
    await db.record(id, null);
    for (const hash of ['', '2389', 'anything']) {
      const res = await batch(id, batchBody([eaEvent()], { batch_hash: hash }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(['batch_hash']);
    }
  });

  it('compares the hash exactly (case, length, prefix)', async () => {
    const id = importId();
    await db.record(id, 'AbC123');
    for (const hash of ['abc123', 'AbC12', 'AbC1234', ' AbC123']) {
      const res = await batch(id, batchBody([], { batch_hash: hash }));
      expect(res.status).toBe(400);
    }
  });

  it.each([
    ['done above total', { data: { total: 9, done: 10 }, batch: { total: 3, done: 0 } }],
    ['batch done above total', { data: { total: 9, done: 0 }, batch: { total: 3, done: 4 } }],
    ['a count that is not numeric', { data: { total: 'nine', done: 0 }, batch: { total: 3, done: 0 } }],
    ['no batch part', { data: { total: 9, done: 0 } }],
    ['not an object', 'done'],
  ])('refuses status information with %s', async (_label, status) => {
    const id = importId();
    await db.record(id, '2389');
    const res = await batch(id, batchBody([eaEvent()], { status }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params.status).toBeDefined();
  });

  it.each([[-1], [101], ['half']])('refuses percentage_complete %p', async (pc) => {
    const id = importId();
    await db.record(id, '2389');
    const res = await batch(id, batchBody([], { percentage_complete: pc }));
    expect(res.status).toBe(400);
    expect(res.body.data.params.percentage_complete).toBeDefined();
  });

  it('refuses a non-numeric interval', async () => {
    const id = importId();
    await db.record(id, '2389');
    const res = await batch(id, batchBody([], { interval: 'nan' }));
    expect(res.status).toBe(400);
    expect(res.body.data.params.interval).toBeDefined();
  });

  it.each([
    ['events that are not a list', 'foo', 'events is not of type array.'],
    ['an event that is not an object', [3], 'events[0] is not of type object.'],
    ['an event without a title', [{ start_date: '2031-01-01' }], 'title is a required property of events[0].'],
    ['an unreadable start date', [eaEvent(undefined, { start_date: 'not a date at all' })], 'events[0].start_date is not a valid date.'],
    ['an impossible hour', [eaEvent(undefined, { start_hour: '13', start_meridian: 'pm' })], 'events[0].start_date is not a valid date.'],
    ['a 29th of February outside a leap year', [eaEvent(undefined, { start_date: '2031-02-29' })], 'events[0].start_date is not a valid date.'],
    [
      'a 29th of February in a century that is not a leap year',
      [eaEvent(undefined, { start_date: '2100-02-29', end_date: '2100-03-01' })],
      'events[0].start_date is not a valid date.',
    ],
    ['a 31st of April', [eaEvent(undefined, { end_date: '2031-04-31' })], 'events[0].end_date is not a valid date.'],
    ['a thirteenth month', [eaEvent(undefined, { end_date: '2031-13-01 10:00:00' })], 'events[0].end_date is not a valid date.'],
    ['a venue that is not an object', [eaEvent(undefined, { venue: 'Town hall' })], 'events[0].venue is not of type object.'],
    [
      'an organizer field of the wrong type',
      [eaEvent(undefined, { organizer: [{ organizer: ['x'] }] })],
      'events[0].organizer[0].organizer is not of type string.',
    ],
  ])('refuses %s, storing none of the batch', async (_label, events, message) => {
    const id = importId();
    const record = await db.record(id, '2389');
    const before = (await db.ofType(EVENT_TYPE)).length;
    const res = await batch(
      id,
      batchBody([eaEvent(), ...(events as unknown[])].slice(typeof events === 'string' ? 1 : 0), typeof events === 'string' ? { events } : {}),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.details.events.message).toBe(message.replace('events[0]', typeof events === 'string' ? 'events[0]' : 'events[1]'));
    expect((await db.ofType(EVENT_TYPE)).length).toBe(before);
    expect((await db.reload(record)).meta[RECORD_META.nextBatchHash]).toBe('2389');
  });
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

describe('interval (IntervalCest)', () => {
  it.each([
    [10, 10],
    [30, 30],
    [200, 200],
    [600, 600],
    [601, 600],
    [null, 10],
    ['nan', 10],
    ['', 10],
    [5, 10],
    [0, 10],
  ])('clamps a configured %p to %p', (value, expected) => {
    expect(clampInterval(value)).toBe(expected);
  });

  it('answers with the configured interval, clamped', async () => {
    for (const [value, expected] of [
      [30, 30],
      [601, 600],
      ['nan', 10],
    ] as const) {
      await setBatchInterval(db.store, value);
      const id = importId();
      await db.record(id, '2389');
      const res = await batch(id, batchBody([]));
      expect(res.status).toBe(200);
      expect(res.body.interval).toBe(expected);
    }
    await db.store.collection('options').deleteOne({ id: INTERVAL_OPTION });
  });
});

describe('state (ForcedImportStatusCest)', () => {
  it.each(['success', 'failed', 'pending'])('sets the status %s', async (status) => {
    const id = importId();
    const record = await db.record(id, '2389');
    const res = await state(id, stateBody({ status }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    const after = await db.reload(record);
    expect(after.status).toBe(`vendor-ea-${status}`);
    expect(after.meta[RECORD_META.percentage]).toBe(50);
    if (status === 'pending') expect(after.meta[RECORD_META.nextBatchHash]).toBe('2389');
    else expect(after.meta).not.toHaveProperty(RECORD_META.nextBatchHash);
  });

  it.each(['draft', 'schedule', 'not-even-a-status'])('refuses the status %s', async (status) => {
    const id = importId();
    const record = await db.record(id, '2389');
    const res = await state(id, stateBody({ status }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect((await db.reload(record)).status).toBe('vendor-ea-pending');
  });

  it('refuses a failure report when the record has no stored hash: stays pending, no error comment', async () => {
    const id = importId();
    const record = await db.record(id, null);
    const res = await state(id, stateBody({ status: 'failed' }));
    expect(res.status).toBe(400);
    const after = await db.reload(record);
    expect(after.status).toBe('vendor-ea-pending');
    expect(after.comments ?? []).toEqual([]);
  });

  it('refuses a failure report with a wrong hash: stays pending, no error comment', async () => {
    const id = importId();
    const record = await db.record(id, 'the-real-secret');
    const res = await state(id, stateBody({ status: 'failed', batch_hash: 'not-the-secret' }));
    expect(res.status).toBe(400);
    const after = await db.reload(record);
    expect(after.status).toBe('vendor-ea-pending');
    expect(after.comments ?? []).toEqual([]);
  });

  it('accepts a failure report with the right hash and logs an error comment', async () => {
    const id = importId();
    const record = await db.record(id, 'the-real-secret');
    const res = await state(id, stateBody({ status: 'failed', batch_hash: 'the-real-secret', message: 'The feed is gone', message_slug: 'error:feed-gone' }));
    expect(res.status).toBe(200);
    const after = await db.reload(record);
    expect(after.status).toBe('vendor-ea-failed');
    expect(after.comments).toEqual([expect.objectContaining({ type: ERROR_COMMENT_TYPE, code: 'error:feed-gone', message: 'The feed is gone' })]);
    // A failed import takes no more batches or states.
    expect((await state(id, stateBody({ batch_hash: 'the-real-secret' }))).status).toBe(400);
  });

  it('refuses a state for a record that is not pending', async () => {
    const id = importId();
    await db.record(id, '2389', 'vendor-ea-success');
    const res = await state(id, stateBody());
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['import_id', 'batch_hash']);
  });

  it('reports missing arguments', async () => {
    const res = await state('123', { status: 'success' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_missing_callback_param');
    expect(res.body.data.params.sort()).toEqual(['batch_hash', 'message', 'message_slug', 'percentage_complete']);
  });
});
