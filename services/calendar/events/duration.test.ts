/**
 * How long an event may last. ec/v1 takes an end as a `duration` in seconds; an event ends at the latest
 * at 9999-12-31 23:59:59, local and UTC (LATEST_EVENT_TIME: the reference's DATETIME columns and the
 * `Y-m-d H:i:s` meta strings). Any duration past that is refused with the same error, on create and
 * update, and nothing is stored. vendor/events/v1 declares no `duration` (the reference's prepare_postarr
 * reads none) and ignores one sent.
 */
import { DateTime } from 'luxon';
import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const START = '2031-01-01 10:00:00';
/** Seconds from START (UTC) to the last moment an event may end at. */
const LONGEST = (Date.parse('9999-12-31T23:59:59Z') - Date.parse('2031-01-01T10:00:00Z')) / 1000;

async function eventCount(): Promise<number> {
  const res = await app.admin('GET', '/cms/v2/vendor_events?status=any&per_page=1&context=edit');
  return Number(res.headers.get('x-wp-total'));
}

function expectDurationRefused(res: { status: number; body: any }): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { duration: 'Invalid parameter.' } } });
}

describe('ec/v1 duration', () => {
  it('refuses every duration that ends past 9999-12-31 23:59:59 with one error, storing nothing', async () => {
    const before = await eventCount();
    for (const duration of [LONGEST + 1, 3.15e11, 1e15, 1e308, '1e308', Number.MAX_SAFE_INTEGER]) {
      const res = await app.admin('POST', '/ec/v1/events', { body: { title: 'Too long', start_date: START, timezone: 'UTC', duration } });
      expect([duration, res.status]).toEqual([duration, 400]);
      expectDurationRefused(res);
    }
    expect(await eventCount()).toBe(before);
  });

  it('takes the longest duration there is and stores the end it names', async () => {
    const res = await app.admin('POST', '/ec/v1/events', { body: { title: 'Until the end', start_date: START, timezone: 'UTC', duration: LONGEST } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ end_date: '9999-12-31 23:59:59', end_date_utc: '9999-12-31 23:59:59', duration: String(LONGEST) });
    const v1 = await app.admin('GET', `/vendor/events/v1/events/${res.body.id}`);
    expect(v1.body.utc_end_date).toBe('9999-12-31 23:59:59');
  });

  it('bounds the UTC end too: a zone west of UTC ends earlier on the wall clock', async () => {
    // 9999-12-31 19:00:00 in New York is 10000-01-01 00:00:00 UTC.
    const zone = 'America/New_York';
    const startNy = DateTime.fromSQL(START, { zone });
    const longest = DateTime.fromISO('9999-12-31T23:59:59Z').toSeconds() - startNy.toSeconds();
    const ok = await app.admin('POST', '/ec/v1/events', { body: { title: 'NY', start_date: START, timezone: zone, duration: longest } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ end_date: '9999-12-31 18:59:59', end_date_utc: '9999-12-31 23:59:59' });
    expectDurationRefused(await app.admin('POST', '/ec/v1/events', { body: { title: 'NY', start_date: START, timezone: zone, duration: longest + 1 } }));
    const byDate = await app.admin('POST', '/ec/v1/events', { body: { title: 'NY', start_date: START, end_date: '9999-12-31 19:00:00', timezone: zone } });
    expect(byDate.status).toBe(400);
    expect(Object.keys(byDate.body.data.params)).toEqual(['end_date']);
  });

  it('refuses the same on update and leaves the event as it was', async () => {
    const created = await app.admin('POST', '/ec/v1/events', { body: { title: 'Short', start_date: START, timezone: 'UTC', duration: 3600 } });
    expect(created.status).toBe(201);
    const path = `/ec/v1/events/${created.body.id}`;
    for (const duration of [LONGEST + 1, 3.15e11, 1e308]) expectDurationRefused(await app.admin('PATCH', path, { body: { duration } }));
    const after = await app.admin('GET', path);
    expect(after.body).toMatchObject({ end_date: '2031-01-01 11:00:00', duration: '3600' });
    const longer = await app.admin('PATCH', path, { body: { duration: 7200 } });
    expect(longer.body).toMatchObject({ end_date: '2031-01-01 12:00:00', duration: '7200' });
  });
});

describe('vendor/events/v1', () => {
  it('ignores a duration, which it does not declare, as the reference does', async () => {
    const created = await app.admin('POST', '/vendor/events/v1/events', {
      body: { title: 'V1', start_date: START, end_date: '2031-01-01 11:00:00', timezone: 'UTC', duration: 1e308 },
    });
    expect(created.status).toBe(201);
    expect(created.body.end_date).toBe('2031-01-01 11:00:00');
    const path = `/vendor/events/v1/events/${created.body.id}`;
    for (const duration of [7200, 3.15e11, 1e308]) {
      const res = await app.admin('POST', path, { body: { duration } });
      expect(res.status).toBe(200);
      expect(res.body.end_date).toBe('2031-01-01 11:00:00');
    }
    // Nor does it read ec/v1's UTC dates.
    const utc = await app.admin('POST', path, { body: { end_date_utc: '2031-01-01 15:00:00' } });
    expect(utc.body.end_date).toBe('2031-01-01 11:00:00');
  });
});
