/**
 * A JSON null in a vendor/events/v1 event write: the gateway validates no null, so the write command
 * reads it as the argument's empty value where it has one (a list, the website, a flag, the zone), as
 * not given where it has none (text, the status), and as naming no one for the author.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';

const EVENTS = '/vendor/events/v1/events';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'America/New_York' });
});

afterAll(async () => {
  await app.close();
});

it('empties lists, the website and flags, keeps text and the status, and refuses a null author', async () => {
  const created = await app.admin('POST', EVENTS, {
    body: {
      title: 'Nulls',
      status: 'draft',
      start_date: '2031-05-01 18:00:00',
      end_date: '2031-05-01 20:00:00',
      timezone: 'Europe/Paris',
      website: 'http://nulls.test/',
      featured: true,
      categories: ['null-cat'],
      venue: { venue: 'Null Hall' },
    },
  });
  expect(created.status).toBe(201);
  const updated = await app.admin('POST', `${EVENTS}/${created.body.id}`, {
    body: { title: null, description: null, status: null, website: null, featured: null, categories: null, venue: null, timezone: null },
  });
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({ title: 'Nulls', status: 'draft', featured: false, categories: [], venue: [], timezone: 'America/New_York' });
  expect(updated.body.website).toBe(updated.body.url);
  const author = await app.admin('POST', `${EVENTS}/${created.body.id}`, { body: { author: null } });
  expect(author.status).toBe(400);
  expect(author.body.data.params).toHaveProperty('author');
});
