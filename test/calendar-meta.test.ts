/**
 * Calendar meta through cms/v2 (content service) and the calendar service: the same keys, derived by
 * the same code. Writing event meta through cms/v2 keeps the UTC strings and the index fields in step
 * with the local dates, exactly as the calendar interfaces derive them for their records.
 */
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let store: Store;

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'America/New_York' });
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});

async function post(body: Record<string, unknown>): Promise<any> {
  const res = await app.admin('POST', '/cms/v2/posts', { body: { title: 'With event meta', ...body } });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

it('event meta written through cms/v2 gets its UTC strings from the local dates, in the event zone or the site zone', async () => {
  const p = await post({
    meta: { _EventStartDate: '2031-07-01 10:00:00', _EventEndDate: '2031-07-01 12:30:00', _EventTimezone: 'Europe/Paris', _EventCost: '12' },
  });
  expect(p.meta).toMatchObject({
    _EventStartDate: '2031-07-01 10:00:00',
    _EventStartDateUTC: '2031-07-01 08:00:00',
    _EventEndDateUTC: '2031-07-01 10:30:00',
    _EventTimezone: 'Europe/Paris',
    _EventAllDay: false,
    _EventCost: '12',
  });
  const siteZone = await post({ meta: { _EventStartDate: '2031-01-10 09:00:00', _EventEndDate: '2031-01-10 10:00:00' } });
  expect(siteZone.meta).toMatchObject({
    _EventTimezone: 'America/New_York',
    _EventStartDateUTC: '2031-01-10 14:00:00',
    _EventEndDateUTC: '2031-01-10 15:00:00',
  });
  const stored = await store.collection('posts').findOne({ id: p.id });
  expect(stored).toMatchObject({ event_start: new Date('2031-07-01T08:00:00Z'), event_end: new Date('2031-07-01T10:30:00Z') });
});

it('updates recompute: a new zone moves the UTC strings, a UTC date alone moves the local one, all-day widens to whole days, null resets', async () => {
  const p = await post({ meta: { _EventStartDate: '2031-03-02 18:00:00', _EventEndDate: '2031-03-02 20:00:00', _EventTimezone: 'UTC' } });
  const zone = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventTimezone: 'Asia/Tokyo' } } });
  expect(zone.body.meta).toMatchObject({
    _EventStartDate: '2031-03-02 18:00:00',
    _EventStartDateUTC: '2031-03-02 09:00:00',
    _EventEndDateUTC: '2031-03-02 11:00:00',
  });
  const utc = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventEndDateUTC: '2031-03-02 13:00:00' } } });
  expect(utc.body.meta).toMatchObject({ _EventEndDate: '2031-03-02 22:00:00', _EventEndDateUTC: '2031-03-02 13:00:00' });
  const allDay = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventAllDay: true } } });
  expect(allDay.body.meta).toMatchObject({
    _EventAllDay: true,
    _EventStartDate: '2031-03-02 00:00:00',
    _EventEndDate: '2031-03-02 23:59:59',
    _EventStartDateUTC: '2031-03-01 15:00:00',
  });
  const reset = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventVenueID: [7, 7], _EventCost: null } } });
  expect(reset.body.meta).toMatchObject({ _EventVenueID: [7], _EventCost: '', _EventStartDate: '2031-03-02 00:00:00' });
  expect((await store.collection('posts').findOne({ id: p.id }))!.venues).toEqual([7]);
});

it('cms/v2 and the calendar interfaces derive the same calendar data from the same meta', async () => {
  const venue = await app.admin('POST', '/ec/v1/venues', { body: { title: 'Shared', city: 'Oslo', address: 'Karl Johans gate 1' } });
  const event = await app.admin('POST', '/ec/v1/events', {
    body: {
      title: 'Calendar event',
      start_date: '2031-11-05 19:00:00',
      end_date: '2031-11-05 21:15:00',
      timezone: 'Europe/Oslo',
      venues: [venue.body.id],
      cost: '200',
      featured: true,
    },
  });
  const record = (await store.collection('posts').findOne({ id: event.body.id }))!;
  const eventMeta = record.meta as Record<string, unknown>;
  // The calendar record's meta holds the interface's keys, as cms/v2 reads them.
  expect(eventMeta).toMatchObject({
    _EventStartDate: '2031-11-05 19:00:00',
    _EventStartDateUTC: '2031-11-05 18:00:00',
    _EventTimezone: 'Europe/Oslo',
    _EventCost: '200',
    _EventVenueID: [venue.body.id],
  });
  expect((await store.collection('posts').findOne({ id: venue.body.id }))!.meta).toMatchObject({ _VenueCity: 'Oslo', _VenueAddress: 'Karl Johans gate 1' });
  // The same local dates written through cms/v2 give the same UTC strings and index fields.
  const p = await post({
    meta: { _EventStartDate: '2031-11-05 19:00:00', _EventEndDate: '2031-11-05 21:15:00', _EventTimezone: 'Europe/Oslo', _EventVenueID: [venue.body.id] },
  });
  for (const key of ['_EventStartDateUTC', '_EventEndDateUTC', '_EventAllDay', '_EventVenueID']) expect([key, p.meta[key]]).toEqual([key, eventMeta[key]]);
  const stored = (await store.collection('posts').findOne({ id: p.id }))!;
  expect({ start: stored.event_start, end: stored.event_end, venues: stored.venues }).toEqual({
    start: record.event_start,
    end: record.event_end,
    venues: record.venues,
  });
  expect(event.body.start_date_utc).toBe(p.meta._EventStartDateUTC);
});

it('an autosave keeps derived calendar meta too', async () => {
  const p = await post({ status: 'draft', meta: { _EventStartDate: '2031-05-01 08:00:00', _EventEndDate: '2031-05-01 09:00:00', _EventTimezone: 'UTC' } });
  const auto = await app.admin('POST', `/cms/v2/posts/${p.id}/autosaves`, { body: { title: 'Autosaved', meta: { _EventTimezone: 'Europe/Helsinki' } } });
  expect(auto.status).toBeLessThan(300);
  const saved = await store.collection('posts').findOne({ id: p.id });
  const meta = (saved!.meta ?? {}) as Record<string, unknown>;
  // The author's autosave of their own draft updates the post itself, with the derived strings.
  expect(meta).toMatchObject({ _EventTimezone: 'Europe/Helsinki', _EventStartDateUTC: '2031-05-01 05:00:00' });
});
