/**
 * vendor/event-aggregator/v1 end to end on the all-in-one process (inline queue): the reference's
 * tests/aggregatorv1/Import/Batch catalogue (validation, interval, forced status; processing is in
 * batch-processing.test.ts): the routes, bad input changing nothing.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';
import { EVENT_TYPE } from '#libs/calendar/meta';
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
