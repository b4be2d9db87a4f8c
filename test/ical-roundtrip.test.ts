/**
 * Round trip: a calendar exported as iCalendar (vendor/events/v1/events/ical) and imported into an
 * empty store through an import source gives the same events: titles, instants, zones, all-day days,
 * venues, organizers and categories.
 */
import { startTestApp, type TestApp } from './support/app';

const V1 = '/vendor/events/v1';
const WINDOW = 'start_date=2030-01-01&end_date=2030-12-31';

let source: TestApp;
let target: TestApp;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestApp({ SITE_TIMEZONE: 'America/New_York' }), startTestApp({ SITE_TIMEZONE: 'UTC' })]);
  const cat = (await source.admin('POST', `${V1}/categories`, { body: { name: 'Concerts' } })).body.id;
  const talks = (await source.admin('POST', `${V1}/categories`, { body: { name: 'Talks' } })).body.id;
  const venue = (
    await source.admin('POST', `${V1}/venues`, { body: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States' } })
  ).body.id;
  const organizer = (await source.admin('POST', `${V1}/organizers`, { body: { organizer: 'Jane Smith', email: 'jane@example.test' } })).body.id;
  const events = [
    {
      title: 'Summer concert',
      start_date: '2030-07-01 19:00:00',
      end_date: '2030-07-01 21:30:00',
      timezone: 'America/New_York',
      venue,
      organizer: [organizer],
      categories: [cat],
    },
    { title: 'Winter talk', start_date: '2030-01-15 19:00:00', end_date: '2030-01-15 21:00:00', timezone: 'Europe/Berlin', categories: [talks, cat] },
    { title: 'Market day', start_date: '2030-05-01', end_date: '2030-05-01', all_day: true },
    { title: 'Three-day fair', start_date: '2030-05-10', end_date: '2030-05-12', all_day: true, venue },
    { title: 'Tokyo breakfast', start_date: '2030-06-01 08:00:00', end_date: '2030-06-01 09:00:00', timezone: 'Asia/Tokyo' },
  ];
  for (const body of events) expect((await source.admin('POST', `${V1}/events`, { body })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

/** What must survive the trip, in a comparable form. */
function essence(e: any) {
  return {
    title: e.title,
    start: e.utc_start_date,
    end: e.utc_end_date,
    timezone: e.all_day ? null : e.timezone,
    all_day: e.all_day,
    days: e.all_day ? `${e.start_date.slice(0, 10)}..${e.end_date.slice(0, 10)}` : null,
    venue: e.venue?.venue ?? null,
    organizers: (e.organizer ?? []).map((o: any) => o.organizer).sort(),
    categories: (e.categories ?? []).map((c: any) => c.name).sort(),
  };
}

async function listed(app: TestApp) {
  const res = await app.admin('GET', `${V1}/events?${WINDOW}&per_page=50`);
  expect(res.status).toBe(200);
  return (res.body.events as any[]).map(essence).sort((a, b) => a.title.localeCompare(b.title));
}

it('imports its own export into an empty store as the same events', async () => {
  const exported = await source.admin('GET', `${V1}/events/ical?${WINDOW}`);
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-type')).toMatch(/^text\/calendar/);

  const created = await target.admin('POST', '/vendor/event-aggregator/v1/sources', { body: { origin: 'ics', file: exported.text } });
  expect(created.status).toBe(201);
  const deadline = Date.now() + 20_000;
  let run;
  do {
    await new Promise((r) => setTimeout(r, 100));
    run = (await target.admin('GET', `/vendor/event-aggregator/v1/sources/${created.body.id}`)).body.last_run;
  } while (run.status === 'pending' && Date.now() < deadline);
  expect(run).toMatchObject({ status: 'success', total_events: 5, errors: [] });

  const before = await listed(source);
  expect(before).toHaveLength(5);
  expect(await listed(target)).toEqual(before);
});
