/**
 * A client written for the reference system drives vendor/events/v1 through its published routes:
 * the `wpapi` package, given the site index's routes and an application password.
 */
import { DateTime } from 'luxon';
import { ADMIN, startTestApp, type TestApp } from './support/app';

// wpapi has no type declarations; it is used the way its README shows.
const WPAPI = require('wpapi');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

it('creates a venue, an organizer and an event linking both, lists it with a date filter, and deletes it', async () => {
  const index = await app.request('GET', '/');
  const site = new WPAPI({ endpoint: `${app.restRoot}/`, routes: index.body.routes, username: ADMIN.login, password: ADMIN.appPassword });
  const v1 = site.namespace('vendor/events/v1');

  const venue = await v1.venues().create({ venue: 'wpapi Hall', city: 'Lisbon', country: 'Portugal' });
  expect(venue).toMatchObject({ venue: 'wpapi Hall', city: 'Lisbon' });
  const organizer = await v1.organizers().create({ organizer: 'wpapi Org', email: 'org@wpapi.test' });
  expect(organizer.organizer).toBe('wpapi Org');

  const start = DateTime.now().setZone('UTC').plus({ days: 3 }).set({ hour: 18, minute: 0, second: 0, millisecond: 0 });
  const event = await v1.events().create({
    title: 'wpapi event',
    start_date: start.toFormat('yyyy-LL-dd HH:mm:ss'),
    end_date: start.plus({ hours: 2 }).toFormat('yyyy-LL-dd HH:mm:ss'),
    venue: venue.id,
    organizer: [organizer.id],
  });
  expect(event.venue.id).toBe(venue.id);
  expect(event.organizer.map((o: { id: number }) => o.id)).toEqual([organizer.id]);

  const day = start.toFormat('yyyy-LL-dd');
  const listed = await v1.events().param('start_date', day).param('end_date', day);
  expect(listed.events.map((e: { id: number }) => e.id)).toEqual([event.id]);
  expect(listed.total).toBe(1);
  const elsewhere = await v1.events().param('start_date', start.plus({ days: 1 }).toFormat('yyyy-LL-dd'));
  expect(elsewhere.events).toEqual([]);

  const fetched = await v1.events().id(event.id);
  expect(fetched).toMatchObject({ id: event.id, title: 'wpapi event' });

  const deleted = await v1.events().id(event.id).delete();
  expect(deleted).toMatchObject({ id: event.id, status: 'trash' });
  await expect(v1.events().id(event.id).delete()).rejects.toMatchObject({ code: 'event-is-in-trash' });
  const after = await v1.events().param('start_date', day).param('end_date', day);
  expect(after.events).toEqual([]);
});
