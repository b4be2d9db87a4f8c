import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;
let venue: number;
let organizers: number[];
let category: number;
let tag: number;

beforeAll(async () => {
  app = await startTestApp();
  venue = (await app.admin('POST', '/ec/v1/venues', { body: { title: 'Round Hall', city: 'Lisbon' } })).body.id;
  organizers = [
    (await app.admin('POST', '/ec/v1/organizers', { body: { title: 'First Org' } })).body.id,
    (await app.admin('POST', '/vendor/events/v1/organizers', { body: { organizer: 'Second Org' } })).body.id,
  ];
  category = (await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Round Category' } })).body.id;
  tag = (await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Round Tag' } })).body.id;
});
afterAll(async () => {
  await app.close();
});

/** What both generations say about an event, in one shape. */
async function both(id: number) {
  const v1 = (await app.admin('GET', `/vendor/events/v1/events/${id}`)).body;
  const ec = (await app.admin('GET', `/ec/v1/events/${id}`)).body;
  const venues = Array.isArray(v1.venue) ? v1.venue : [v1.venue];
  return {
    v1: {
      start: v1.start_date,
      end: v1.end_date,
      startUtc: v1.utc_start_date,
      endUtc: v1.utc_end_date,
      timezone: v1.timezone,
      allDay: v1.all_day,
      venues: venues.map((v: { id: number }) => v.id),
      organizers: v1.organizer.map((o: { id: number }) => o.id),
      categories: v1.categories.map((c: { id: number }) => c.id),
      tags: v1.tags.map((t: { id: number }) => t.id),
      cost: v1.cost,
      featured: v1.featured,
      sticky: v1.sticky,
      title: v1.title,
      status: v1.status,
    },
    ec: {
      start: ec.start_date,
      end: ec.end_date,
      startUtc: ec.start_date_utc,
      endUtc: ec.end_date_utc,
      timezone: ec.timezone,
      allDay: ec.all_day,
      venues: ec.venues.map((v: { id: number }) => v.id),
      organizers: ec.organizers.map((o: { id: number }) => o.id),
      categories: ec.vendor_events_cat,
      tags: ec.tags,
      cost: ec.cost,
      featured: ec.featured,
      sticky: ec.sticky,
      title: ec.title.rendered,
      status: ec.status,
    },
  };
}

it('an event written through ec/v1 reads back the same through vendor/events/v1', async () => {
  const created = await app.admin('POST', '/ec/v1/events', {
    body: {
      title: 'Written by ec',
      start_date: '2031-05-02 19:30:00',
      end_date: '2031-05-02 22:00:00',
      timezone: 'Europe/Lisbon',
      venues: [venue],
      organizers,
      vendor_events_cat: [category],
      tags: [tag],
      cost: '€15',
      featured: true,
      sticky: true,
    },
  });
  expect(created.status).toBe(201);
  const { v1, ec } = await both(created.body.id);
  expect(v1).toEqual(ec);
  expect(ec).toEqual({
    start: '2031-05-02 19:30:00',
    end: '2031-05-02 22:00:00',
    startUtc: '2031-05-02 18:30:00',
    endUtc: '2031-05-02 21:00:00',
    timezone: 'Europe/Lisbon',
    allDay: false,
    venues: [venue],
    organizers,
    categories: [category],
    tags: [tag],
    cost: '€15',
    featured: true,
    sticky: true,
    title: 'Written by ec',
    status: 'publish',
  });
});

it('an event written through vendor/events/v1 reads back the same through ec/v1', async () => {
  const created = await app.admin('POST', '/vendor/events/v1/events', {
    body: {
      title: 'Written by v1',
      start_date: '2031-09-10 08:00:00',
      end_date: '2031-09-12 18:00:00',
      timezone: 'Asia/Tokyo',
      venue: venue,
      organizer: organizers.slice().reverse(),
      categories: [category],
      tags: [tag],
      cost: '1000',
      featured: true,
    },
  });
  expect(created.status).toBe(201);
  const { v1, ec } = await both(created.body.id);
  expect(ec).toEqual(v1);
  expect(ec).toMatchObject({
    startUtc: '2031-09-09 23:00:00',
    timezone: 'Asia/Tokyo',
    organizers: organizers.slice().reverse(),
    venues: [venue],
    cost: '$1000',
  });
  const entity = (await app.request('GET', `/ec/v1/events/${created.body.id}`)).body;
  expect(entity.multiday).toBe(3);
});

it('updates through either generation show through the other', async () => {
  const id = (
    await app.admin('POST', '/ec/v1/events', {
      body: { title: 'Changing', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', venues: [venue] },
    })
  ).body.id;
  const v1 = await app.admin('POST', `/vendor/events/v1/events/${id}`, {
    body: { timezone: 'America/Chicago', all_day: true, categories: [category], organizer: [organizers[0]], venue: '' },
  });
  expect(v1.status).toBe(200);
  let seen = await both(id);
  expect(seen.ec).toEqual(seen.v1);
  expect(seen.ec).toMatchObject({
    timezone: 'America/Chicago',
    allDay: true,
    start: '2031-01-01 00:00:00',
    end: '2031-01-01 23:59:59',
    startUtc: '2031-01-01 06:00:00',
    venues: [],
    organizers: [organizers[0]],
    categories: [category],
  });
  const ec = await app.admin('PATCH', `/ec/v1/events/${id}`, {
    body: { all_day: false, start_date: '2031-02-03 12:00:00', end_date: '2031-02-03 13:00:00', featured: true, cost: '5', tags: [tag], vendor_events_cat: [] },
  });
  expect(ec.status).toBe(200);
  seen = await both(id);
  expect(seen.v1).toEqual(seen.ec);
  expect(seen.v1).toMatchObject({
    allDay: false,
    start: '2031-02-03 12:00:00',
    startUtc: '2031-02-03 18:00:00',
    featured: true,
    cost: '$5',
    tags: [tag],
    categories: [],
  });
  // Both lists find it by the same filters.
  const ecList = (await app.request('GET', `/ec/v1/events?featured=true&tags[]=${tag}&start_date=2031-02-01T00:00:00`)).body.map((e: { id: number }) => e.id);
  const v1List = (await app.request('GET', `/vendor/events/v1/events?featured=true&tags=${tag}&start_date=2031-02-01&end_date=2031-12-31`)).body.events.map(
    (e: { id: number }) => e.id,
  );
  expect(ecList).toContain(id);
  expect(v1List).toContain(id);
});
