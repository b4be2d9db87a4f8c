import { DateTime } from 'luxon';
import { app, create, EVENTS, imageBase, PNG, store, users, useEventsApp } from './events.fixtures';

useEventsApp();

describe('create: linked records, terms, images and statuses', () => {
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
