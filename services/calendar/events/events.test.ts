import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import sharp from 'sharp';
import { openStore } from '../../../libs/store';
import type { Store } from '../../../libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

const EVENTS = '/vendor/events/v1/events';
let app: TestApp;
let store: Store;
let users: RoleUsers;
let images: http.Server;
let imageBase: string;

/** A real 2×3 PNG: images given by URL are decoded and copied into the media library. */
let PNG: Buffer;

const create = (body: Record<string, unknown>) =>
  app.admin('POST', EVENTS, { body: { title: 'An event', start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00', ...body } });

beforeAll(async () => {
  PNG = await sharp({ create: { width: 2, height: 3, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  // The image server is on loopback, which the outbound guard refuses unless the host is allowed.
  app = await startTestApp({ SITE_TIMEZONE: 'America/New_York', OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  store = await openStore({ dataDir: app.config.DATA_DIR });
  users = await createRoleUsers(app, 'events');
  images = http.createServer((req, res) => {
    if (req.url?.endsWith('.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
      res.end(req.method === 'HEAD' ? undefined : PNG);
    } else if (req.url?.endsWith('.txt')) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('hello');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  images.close();
  await store.close();
  await app.close();
});

describe('create', () => {
  it('creates an event with the reference record shape (201)', async () => {
    const res = await create({ slug: 'an-event', description: 'Event 01 description', excerpt: 'Short', cost: '23', website: 'http://tri.be' });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(Object.keys(e)).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
    ]);
    expect(e).toMatchObject({
      global_id: `example.test?id=${e.id}`,
      author: '1',
      status: 'publish',
      url: 'http://example.test/event/an-event/',
      rest_url: `http://example.test/index.php/cms-json/vendor/events/v1/events/${e.id}`,
      title: 'An event',
      description: '<p>Event 01 description</p>',
      excerpt: '<p>Short</p>',
      slug: 'an-event',
      image: false,
      all_day: false,
      start_date: '2031-05-01 18:00:00',
      end_date: '2031-05-01 20:00:00',
      utc_start_date: '2031-05-01 22:00:00',
      utc_end_date: '2031-05-02 00:00:00',
      start_date_details: { year: '2031', month: '05', day: '01', hour: '18', minutes: '00', seconds: '00' },
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
      cost: '$23',
      website: 'http://tri.be',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    });
    expect(e.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(e).not.toHaveProperty('json_ld');
  });

  it('reads relative English in the site time zone, and an explicit timezone overrides it', async () => {
    for (const zone of ['America/New_York', 'America/Juneau', 'Australia/Sydney', 'Atlantic/Reykjavik']) {
      const site = zone === 'America/New_York' ? app : await startTestApp({ SITE_TIMEZONE: zone });
      try {
        const res = await site.admin('POST', EVENTS, { body: { title: 'Relative', start_date: 'tomorrow 9am', end_date: 'next wednesday 4pm' } });
        expect(res.status).toBe(201);
        const today = DateTime.now().setZone(zone).startOf('day');
        const start = today.plus({ days: 1 }).set({ hour: 9 });
        const wed = today.plus({ days: (3 - today.weekday + 7) % 7 || 7 }).set({ hour: 16 });
        expect(res.body.start_date).toBe(start.toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.utc_start_date).toBe(start.toUTC().toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.end_date).toBe(wed.toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.timezone).toBe(zone);
      } finally {
        if (site !== app) await site.close();
      }
    }
    const darwin = await create({ timezone: 'Australia/Darwin' });
    expect(darwin.body).toMatchObject({
      timezone: 'Australia/Darwin',
      timezone_abbr: 'ACST',
      start_date: '2031-05-01 18:00:00',
      utc_start_date: '2031-05-01 08:30:00',
    });
  });

  it('all_day spans whole days, over several days too', async () => {
    const one = await create({ all_day: true, start_date: '2031-06-01 10:00', end_date: '2031-06-01 12:00' });
    expect(one.body).toMatchObject({ all_day: true, start_date: '2031-06-01 00:00:00', end_date: '2031-06-01 23:59:59' });
    const multi = await create({ all_day: 'true', start_date: '2031-06-01', end_date: '2031-06-03' });
    expect(multi.body).toMatchObject({ start_date: '2031-06-01 00:00:00', end_date: '2031-06-03 23:59:59' });
  });

  it('refuses missing or bad required fields', async () => {
    const missing = await app.admin('POST', EVENTS, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['title', 'start_date', 'end_date'] } });
    for (const bad of [{ title: '' }, { start_date: '' }, { end_date: 'before my birthday' }]) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(Object.keys(bad));
    }
  });

  it('refuses bad optional fields and stores nothing', async () => {
    const before = await store.collection('posts').count({ type: 'vendor_events' });
    for (const bad of [
      { author: 23 },
      { author: '' },
      { date: 'foo' },
      { date_utc: 'foo' },
      { website: 'foo' },
      { status: 'kinda_thinking_about_it' },
      { timezone: 'Mars/Olympus' },
      { image: 'foo bar' },
      { image: 23 },
    ]) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    expect(await store.collection('posts').count({ type: 'vendor_events' })).toBe(before);
  });

  it('sets author, publication dates, and ignores read-only fields', async () => {
    const res = await create({
      author: users.ids.editor,
      date: '2020-01-02 03:04:05',
      url: 'http://evil.test/',
      rest_url: 'x',
      utc_start_date: '1999-01-01 00:00:00',
      timezone_abbr: 'XYZ',
      cost_details: { values: [1] },
    });
    expect(res.body).toMatchObject({
      author: String(users.ids.editor),
      date: '2020-01-02 03:04:05',
      date_utc: '2020-01-02 08:04:05',
      utc_start_date: '2031-05-01 22:00:00',
      timezone_abbr: 'EDT',
    });
    expect(res.body.url).toBe(`http://example.test/event/${res.body.slug}/`);
    const utc = await create({ date_utc: '2020-01-02 03:04:05' });
    expect(utc.body).toMatchObject({ date: '2020-01-01 22:04:05', date_utc: '2020-01-02 03:04:05' });
  });

  it('formats cost, falls back to the permalink for website, and echoes the presentation flags', async () => {
    const postfix = await create({ cost: '20$' });
    expect(postfix.body.cost).toBe('20$');
    expect(postfix.body.cost_details).toEqual({ currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] });
    const list = await create({ cost: ['0$', '20$', '30$'] });
    expect(list.body.cost).toBe('Free – 30$');
    expect(list.body.cost_details.values).toEqual(['0', '20', '30']);
    const flags = await create({ show_map: false, show_map_link: 'false', hide_from_listings: true, sticky: true, featured: 'true' });
    expect(flags.body).toMatchObject({
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      website: flags.body.url,
    });
    const stored = await store.collection('posts').findOne({ id: flags.body.id });
    expect(stored!.meta).toMatchObject({ _EventHideFromUpcoming: 'yes', _vendor_featured: true });
    expect(stored).toMatchObject({ menu_order: -1, featured: true, hide_from_listings: true });
    const notHidden = await create({ hide_from_listings: 'false' });
    expect(notHidden.body.hide_from_listings).toBe(false);
    expect((await store.collection('posts').findOne({ id: notHidden.body.id }))!.meta).not.toHaveProperty('_EventHideFromUpcoming');
  });

  it('makes slugs unique and keeps its meta under the interface keys', async () => {
    const a = await create({ title: 'Same title' });
    const b = await create({ title: 'Same title' });
    expect([a.body.slug, b.body.slug]).toEqual(['same-title', 'same-title-2']);
    const stored = await store.collection('posts').findOne({ id: a.body.id });
    expect(stored).toMatchObject({ type: 'vendor_events', event_start: new Date('2031-05-01T22:00:00Z'), event_end: new Date('2031-05-02T00:00:00Z') });
    expect(stored!.meta).toMatchObject({
      _EventStartDate: '2031-05-01 18:00:00',
      _EventEndDate: '2031-05-01 20:00:00',
      _EventStartDateUTC: '2031-05-01 22:00:00',
      _EventEndDateUTC: '2031-05-02 00:00:00',
      _EventTimezone: 'America/New_York',
      _EventAllDay: false,
    });
  });

  it('links venues and organizers by id, {id}, CSV, arrays and inline records (created once)', async () => {
    const venue = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Linked venue', city: 'Boston' } })).body;
    const o1 = (await app.admin('POST', '/vendor/events/v1/organizers', { body: { organizer: 'Org 1' } })).body;
    const o2 = (await app.admin('POST', '/vendor/events/v1/organizers', { body: { organizer: 'Org 2' } })).body;
    const byId = await create({ venue: venue.id, organizer: o1.id });
    expect(byId.body.venue).toMatchObject({ id: venue.id, venue: 'Linked venue', city: 'Boston' });
    expect(byId.body.organizer.map((o: { id: number }) => o.id)).toEqual([o1.id]);
    expect((await create({ organizer: `${o2.id},${o1.id}` })).body.organizer.map((o: { id: number }) => o.id)).toEqual([o2.id, o1.id]);
    expect((await create({ venue: { id: venue.id } })).body.venue.id).toBe(venue.id);

    const inline = await create({
      venue: {
        venue: 'Inline Hall',
        address: '1 Main St',
        city: 'Toronto',
        country: 'Canada',
        stateProvince: 'ON',
        zip: 'M5V',
        phone: '555',
        website: 'http://hall.test',
      },
      organizer: [{ organizer: 'Organizer A', email: 'a@example.test' }, { id: o1.id }, o2.id, { organizer: 'Organizer B' }],
    });
    expect(inline.status).toBe(201);
    expect(inline.body.venue).toMatchObject({
      venue: 'Inline Hall',
      address: '1 Main St',
      city: 'Toronto',
      country: 'Canada',
      stateprovince: 'ON',
      zip: 'M5V',
      phone: '555',
      website: 'http://hall.test',
    });
    expect(inline.body.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Organizer A', 'Org 1', 'Org 2', 'Organizer B']);
    // The same inline records again are found, not duplicated.
    const again = await create({ venue: { venue: 'inline hall' }, organizer: [{ organizer: 'ORGANIZER A' }] });
    expect(again.body.venue.id).toBe(inline.body.venue.id);
    expect(again.body.organizer[0].id).toBe(inline.body.organizer[0].id);

    expect((await create({ venue: 999999 })).status).toBe(400);
    expect((await create({ venue: o1.id })).status).toBe(400);
    const wrongLinked = await create({ organizer: [{ id: venue.id }] });
    expect(wrongLinked.status).toBe(400);
    expect(wrongLinked.body.code).toBe('invalid-linked-post-id');
    const cannot = await create({ venue: { venue: '' } });
    expect(cannot.status).toBe(400);
    expect(cannot.body.code).toBe('could-not-create-venue');
    expect((await create({ organizer: [{ organizer: 'X', email: 'not-an-email' }] })).body.code).toBe('could-not-create-organizer');
  });

  it('assigns categories and tags by id, slug or name, creating unknown names, listed by name', async () => {
    const existing = (await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Existing' } })).body;
    const csv = await create({ categories: 'cat1,cat2', tags: 'tag1' });
    expect(csv.body.categories.map((c: { name: string }) => c.name)).toEqual(['cat1', 'cat2']);
    expect(csv.body.categories[0]).toMatchObject({ taxonomy: 'vendor_events_cat', slug: 'cat1', description: '', count: 1 });
    expect(csv.body.tags[0]).toMatchObject({ name: 'tag1', taxonomy: 'post_tag' });
    const mixed = await create({ categories: [existing.id, 'cat2'] });
    // Listed by name, as the reference's object terms are: cat2 before Existing.
    expect(mixed.body.categories.map((c: { id: number }) => c.id)).toEqual([csv.body.categories[1].id, existing.id]);
    expect((await create({ categories: '' })).body.categories).toEqual([]);
    expect((await create({ categories: [999999] })).status).toBe(400);
    const counted = await app.request('GET', `/vendor/events/v1/categories/${csv.body.categories[1].id}`);
    expect(counted.body.count).toBe(2);
  });

  it('takes an image by attachment id or URL (upload_files needed), and refuses what is not an image', async () => {
    const byUrl = await create({ image: `${imageBase}/pic.png` });
    expect(byUrl.status).toBe(201);
    // Copied into the library, as the reference's media_sideload_image does.
    expect(byUrl.body.image).toMatchObject({ extension: 'png', width: 2, height: 3, filesize: PNG.length });
    expect(byUrl.body.image.url).toMatch(/^http:\/\/example\.test\/cms-content\/uploads\/\d{4}\/\d{2}\/pic\.png$/);
    const byId = await create({ image: byUrl.body.image.id });
    expect(byId.body.image.id).toBe(byUrl.body.image.id);
    for (const bad of [`${imageBase}/missing.gif`, `${imageBase}/file.txt`, 'http://example.localhost/x.png', String(byUrl.body.id)]) {
      const res = await create({ image: bad });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('image');
    }
    const contributor = await users.as('contributor', 'POST', EVENTS, {
      body: { title: 'C', start_date: 'tomorrow', end_date: 'tomorrow 2pm', image: `${imageBase}/pic.png` },
    });
    expect(contributor.status).toBe(400);
    expect(contributor.body.code).toBe('rest_invalid_param');
    const inline = await create({ venue: { venue: 'Pictured venue', image: `${imageBase}/venue.png` } });
    expect(inline.body.venue.image.url).toMatch(/\/cms-content\/uploads\/\d{4}\/\d{2}\/venue\.png$/);
    // A fetched image is attached to the record it was given for.
    const parentOf = async (id: number) => (await app.admin('GET', `/cms/v2/media/${id}`)).body.post;
    expect(await parentOf(byUrl.body.image.id)).toBe(byUrl.body.id);
    expect(await parentOf(inline.body.venue.image.id)).toBe(inline.body.venue.id);
    // An inline venue that is a duplicate of an existing one is that one, and its image is not fetched into the library again.
    const media = async () => Number((await app.admin('GET', '/cms/v2/media?per_page=1')).headers.get('x-wp-total'));
    const before = await media();
    const again = await create({ venue: { venue: 'Pictured venue', image: `${imageBase}/other.png` } });
    expect(again.body.venue.id).toBe(inline.body.venue.id);
    expect(await media()).toBe(before);
  });

  it('scales statuses: a contributor asking to publish gets pending, publishers get publish', async () => {
    const body = { title: 'Scaled', start_date: 'tomorrow 10am', end_date: 'tomorrow 11am', status: 'publish' };
    const contributor = await users.as('contributor', 'POST', EVENTS, { body });
    expect(contributor.status).toBe(201);
    expect(contributor.body.status).toBe('pending');
    const noStatus = await users.as('contributor', 'POST', EVENTS, { body: { ...body, status: undefined } });
    expect(noStatus.body.status).toBe('draft');
    for (const role of ['author', 'editor', 'administrator'] as const) expect((await users.as(role, 'POST', EVENTS, { body })).body.status).toBe('publish');
    const future = await create({ status: 'publish', date: '+1 year' });
    expect(future.body.status).toBe('future');
  });
});

describe('what the archive keeps', () => {
  it('shows at once a write another service of the process made to what an event embeds', async () => {
    const e = (await create({ categories: ['Kept category'] })).body;
    const cat = e.categories[0].id;
    const names = async () => {
      const res = await app.request('GET', `${EVENTS}?include=${e.id}`);
      return res.body.events[0].categories.map((c: { name: string }) => c.name);
    };
    expect(await names()).toEqual(['Kept category']);
    // cms/v2 (the content service) renames the event category; the calendar's guest answer follows.
    const renamed = await app.admin('POST', `/cms/v2/vendor_events_cat/${cat}`, { body: { name: 'Renamed category' } });
    expect(renamed.status).toBe(200);
    expect(await names()).toEqual(['Renamed category']);
  });
});

describe('single event', () => {
  it('GET: the record with json_ld; the reference errors for missing, foreign, trashed, draft and protected events', async () => {
    const e = (await create({ venue: { venue: 'JSON-LD venue' }, organizer: [{ organizer: 'JSON-LD org' }], cost: '$10' })).body;
    const res = await app.request('GET', `${EVENTS}/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.json_ld).toMatchObject({
      '@type': 'Event',
      name: 'An event',
      startDate: '2031-05-01T18:00:00-04:00',
      location: { '@type': 'Place', name: 'JSON-LD venue' },
      organizer: { name: 'JSON-LD org' },
    });
    expect(res.body.venue.json_ld).toMatchObject({ '@type': 'Place' });
    expect(res.headers.get('allow')).toBe('GET');

    expect(await app.request('GET', `${EVENTS}/0`)).toMatchObject({
      status: 404,
      body: { code: 'rest-event-not-found', message: 'Event with ID 0 does not exist.' },
    });
    expect((await app.request('GET', `${EVENTS}/999999`)).body.code).toBe('rest-event-not-found');
    expect(await app.request('GET', `${EVENTS}/${e.venue.id}`)).toMatchObject({ status: 400, body: { code: 'rest-invalid-event-id' } });
    expect((await app.request('GET', `${EVENTS}/foo`)).body.code).toBe('rest_no_route');

    const draft = (await create({ status: 'draft' })).body;
    expect(await app.request('GET', `${EVENTS}/${draft.id}`)).toMatchObject({ status: 403, body: { code: 'event-not-accessible' } });
    expect((await users.as('editor', 'GET', `${EVENTS}/${draft.id}`)).status).toBe(200);

    await app.admin('POST', `${EVENTS}/${draft.id}`, { body: { status: 'publish', password: 'secret' } });
    expect(await app.request('GET', `${EVENTS}/${draft.id}`)).toMatchObject({ status: 403, body: { code: 'event-password-protected' } });
    expect((await app.request('GET', `${EVENTS}/${draft.id}?password=secret`)).status).toBe(200);

    await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(await app.admin('GET', `${EVENTS}/${e.id}`)).toMatchObject({ status: 403, body: { code: 'event-no-longer-available' } });
  });

  it('by slug: found in any status, 400 for unknown or non-event slugs, 404 for an empty slug', async () => {
    const e = (await create({ title: 'Slugged event' })).body;
    const res = await app.request('GET', `${EVENTS}/by-slug/${e.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(e.id);
    expect(res.body).toHaveProperty('json_ld');
    expect((await app.request('GET', `${EVENTS}/by-slug/`)).status).toBe(404);
    const unknown = await app.request('GET', `${EVENTS}/by-slug/no-such-event`);
    expect(unknown).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { slug: 'Invalid parameter.' } } } });
    const venue = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Slug venue' } })).body;
    expect((await app.request('GET', `${EVENTS}/by-slug/${venue.slug}`)).status).toBe(400);
    const draft = (await create({ title: 'Draft slugged', status: 'draft' })).body;
    expect((await app.request('GET', `${EVENTS}/by-slug/${draft.slug}`)).body.code).toBe('event-not-accessible');
    const updated = await app.admin('PATCH', `${EVENTS}/by-slug/${e.slug}`, { body: { title: 'Renamed by slug' } });
    expect(updated.body.title).toBe('Renamed by slug');
    const deleted = await app.admin('DELETE', `${EVENTS}/by-slug/${e.slug}`);
    expect(deleted.body.status).toBe('trash');
  });

  it('update: POST, PUT and PATCH change only what is sent; time zone changes move the UTC dates', async () => {
    const e = (await create({ cost: '5', organizer: [{ organizer: 'Keeps' }], categories: ['keep-cat'] })).body;
    const post = await app.admin('POST', `${EVENTS}/${e.id}`, {
      body: { title: 'New title', start_date: '2031-05-02 10:00:00', end_date: '2031-05-02 12:00:00' },
    });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ title: 'New title', start_date: '2031-05-02 10:00:00', end_date: '2031-05-02 12:00:00', cost: '$5', slug: e.slug });
    expect(post.body.organizer).toHaveLength(1);
    expect(post.body).not.toHaveProperty('json_ld');
    const slug = await app.admin('PUT', `${EVENTS}/${e.id}`, { body: { slug: 'an-interesting-event' } });
    expect(slug.body.slug).toBe('an-interesting-event');
    const paris = await app.admin('PATCH', `${EVENTS}/${e.id}`, { body: { timezone: 'Europe/Paris' } });
    expect(paris.body).toMatchObject({
      timezone: 'Europe/Paris',
      timezone_abbr: 'CEST',
      start_date: '2031-05-02 10:00:00',
      utc_start_date: '2031-05-02 08:00:00',
    });
    const natural = await app.admin('POST', `${EVENTS}/${e.id}`, { body: { start_date: 'tomorrow 9am', end_date: 'tomorrow 10am' } });
    expect(natural.body.start_date).toBe(DateTime.now().setZone('Europe/Paris').plus({ days: 1 }).toFormat('yyyy-LL-dd 09:00:00'));
    const cleared = await app.admin('POST', `${EVENTS}/${e.id}`, { body: { organizer: [], venue: 0, categories: '' } });
    expect(cleared.body).toMatchObject({ organizer: [], venue: [], categories: [] });
    const stored = await store.collection('posts').findOne({ id: e.id });
    expect(stored).toMatchObject({ organizers: [], venues: [], terms: [] });
    expect((await app.admin('POST', `${EVENTS}/2389`, { body: { title: 'x' } })).body.code).toBe('rest-event-not-found');
    expect((await app.admin('POST', `${EVENTS}/${e.id}`, { body: { title: '' } })).status).toBe(400);
  });

  it('delete: trash and return the record, then 410; missing ids are 404 for those who may delete', async () => {
    const e = (await create({ categories: ['deleted-cat'] })).body;
    const cat = e.categories[0].id;
    const res = await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, status: 'trash' });
    expect(res.body).not.toHaveProperty('json_ld');
    expect((await app.request('GET', `/vendor/events/v1/categories/${cat}`)).body.count).toBe(0);
    expect(await app.admin('DELETE', `${EVENTS}/${e.id}`)).toMatchObject({
      status: 410,
      body: { code: 'event-is-in-trash', message: 'The event is already trashed' },
    });
    expect((await app.admin('DELETE', `${EVENTS}/2389999`)).status).toBe(404);
    expect((await app.request('DELETE', `${EVENTS}/2389999`)).status).toBe(401);
  });
});
