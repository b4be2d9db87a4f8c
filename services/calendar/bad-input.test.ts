/** Every malformed input to vendor/events/v1 gets the reference's 4xx envelope, never a 500, and changes nothing stored. */
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../test/support/app';

const V1 = '/vendor/events/v1';
let app: TestApp;
let store: Store;
let eventId: number;
let venueId: number;
let categoryId: number;

const WEIRD: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e300,
  '',
  ' ',
  'x'.repeat(5000),
  '%',
  '_',
  '0',
  '-5',
  '9999999999999999999999',
  'NaN',
  [],
  [[]],
  [{}],
  [null],
  {},
  { id: 'abc' },
  { id: -3 },
  { venue: 5 },
  { organizer: [] },
  '2031-02-30',
  '@',
  '+',
  'next',
  '<script>',
];
const WRITE_FIELDS = [
  'title',
  'start_date',
  'end_date',
  'author',
  'date',
  'date_utc',
  'description',
  'slug',
  'excerpt',
  'status',
  'timezone',
  'all_day',
  'image',
  'cost',
  'website',
  'show_map',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
];
const LIST_ARGS = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'starts_before',
  'ends_after',
  'strict_dates',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'include',
  'post_parent',
];

function expectClientError(res: { status: number; body: any; text: string }, what: string): void {
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    expect(typeof res.body.code).toBe('string');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data.status).toBe(res.status);
  }
}

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
  venueId = (await app.admin('POST', `${V1}/venues`, { body: { venue: 'Fuzz venue' } })).body.id;
  categoryId = (await app.admin('POST', `${V1}/categories`, { body: { name: 'Fuzz cat' } })).body.id;
  eventId = (
    await app.admin('POST', `${V1}/events`, {
      body: { title: 'Fuzz', start_date: 'tomorrow 10am', end_date: 'tomorrow 11am', venue: venueId, categories: [categoryId] },
    })
  ).body.id;
});
afterAll(async () => {
  await store.close();
  await app.close();
});

it('event writes: odd values in every field are refused or stored, never a 500', async () => {
  for (const field of WRITE_FIELDS) {
    for (const value of WEIRD) {
      const before = await store.collection('posts').findOne({ id: eventId });
      const res = await app.admin('POST', `${V1}/events/${eventId}`, { body: { [field]: value } });
      expectClientError(res, `update ${field}=${JSON.stringify(value).slice(0, 40)}`);
      if (res.status >= 400) expect(await store.collection('posts').findOne({ id: eventId })).toEqual(before);
    }
  }
  for (const value of WEIRD) {
    const res = await app.admin('POST', `${V1}/events`, { body: { title: 'x', start_date: 'tomorrow', end_date: value } });
    expectClientError(res, `create end_date=${JSON.stringify(value).slice(0, 40)}`);
  }
});

it('a refused write changes nothing', async () => {
  const before = await store.collection('posts').findOne({ id: eventId });
  const res = await app.admin('POST', `${V1}/events/${eventId}`, { body: { title: 'Changed', venue: 2389999, organizer: [{ organizer: '' }] } });
  expect(res.status).toBe(400);
  expect(await store.collection('posts').findOne({ id: eventId })).toEqual(before);
  const inline = await app.admin('POST', `${V1}/events/${eventId}`, {
    body: { title: 'Changed', venue: { venue: 'Never made' }, organizer: [{ id: venueId }] },
  });
  expect(inline.body.code).toBe('invalid-linked-post-id');
  expect(await store.collection('posts').count({ title: 'Never made' })).toBe(0);
});

it('archives and term lists: odd query values are refused, never a 500', async () => {
  for (const arg of LIST_ARGS) {
    for (const value of ['', 'abc', '-1', '0', '1e400', '%00', '[]', '{}', 'a,b,,c', '9999999999999999999999']) {
      for (const path of [`${V1}/events`, `${V1}/venues`, `${V1}/organizers`, `${V1}/categories`, `${V1}/tags`]) {
        expectClientError(await app.request('GET', `${path}?${arg}=${encodeURIComponent(value)}`), `GET ${path}?${arg}=${value}`);
      }
    }
    expectClientError(await app.request('GET', `${V1}/events?${arg}[a]=1&${arg}[]=2`), `GET events?${arg}[a]`);
  }
});

it('linked records and terms: odd bodies are refused, never a 500', async () => {
  for (const value of WEIRD) {
    expectClientError(await app.admin('POST', `${V1}/venues`, { body: { venue: value, website: value } }), `venue ${JSON.stringify(value).slice(0, 40)}`);
    expectClientError(
      await app.admin('POST', `${V1}/organizers`, { body: { organizer: 'O', email: value, image: value } }),
      `organizer ${JSON.stringify(value).slice(0, 40)}`,
    );
    expectClientError(
      await app.admin('POST', `${V1}/categories/${categoryId}`, { body: { parent: value, slug: value } }),
      `category ${JSON.stringify(value).slice(0, 40)}`,
    );
  }
  expectClientError(await app.admin('POST', `${V1}/events`, { raw: '{"title": ', contentType: 'application/json' }), 'invalid JSON');
  for (const slug of ['%E0%A4%A', '%25', '%00', 'a'.repeat(3000), '..', '%2F']) {
    for (const base of ['events', 'venues', 'organizers']) {
      for (const method of ['GET', 'POST', 'DELETE'])
        expectClientError(
          await app.admin(method, `${V1}/${base}/by-slug/${slug}`, { body: method === 'POST' ? { title: 'x' } : undefined }),
          `${method} ${base}/by-slug/${slug.slice(0, 20)}`,
        );
    }
  }
});

it('a JSON null in an event write empties lists, the website and flags, keeps text and the status, and names no author', async () => {
  // The gateway validates no null: the write reads it as the argument's empty value where it has one.
  const created = await app.admin('POST', `${V1}/events`, {
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
  const updated = await app.admin('POST', `${V1}/events/${created.body.id}`, {
    body: { title: null, description: null, status: null, website: null, featured: null, categories: null, venue: null, timezone: null },
  });
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({ title: 'Nulls', status: 'draft', featured: false, categories: [], venue: [], timezone: app.config.SITE_TIMEZONE });
  expect(updated.body.website).toBe(updated.body.url);
  const author = await app.admin('POST', `${V1}/events/${created.body.id}`, { body: { author: null } });
  expect(author.status).toBe(400);
  expect(author.body.data.params).toHaveProperty('author');
});
