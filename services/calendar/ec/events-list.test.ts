import { app, create, event, EVENTS, ids, noonEvent, store, useEventsApp, utcNow } from './events.fixtures';

useEventsApp();

describe('list', () => {
  it('is a bare array ordered by start date, with paging headers and links', async () => {
    const made = [];
    for (const d of [3, 1, 2, 5, 4]) made.push(await event(d));
    const res = await app.request('GET', `${EVENTS}?per_page=2`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((e: any) => e.title.rendered)).toEqual(['Event in 1 days', 'Event in 2 days']);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toContain('<http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=2>; rel="next"');
    expect(res.headers.get('link')).not.toContain('rel="prev"');
    const mid = await app.request('GET', `${EVENTS}?per_page=2&page=2`);
    expect(mid.headers.get('link')).toContain(
      '<http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=1>; rel="prev", <http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=3>; rel="next"',
    );
    const last = await app.request('GET', `${EVENTS}?per_page=2&page=3`);
    expect(ids(last)).toHaveLength(1);
    expect(last.headers.get('link')).toContain('rel="prev"');
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const desc = await app.request('GET', `${EVENTS}?order=DESC&per_page=1`);
    expect(desc.body[0].title.rendered).toBe('Event in 5 days');
    const byTitle = await app.request('GET', `${EVENTS}?orderby=title&order=DESC`);
    expect(byTitle.body[0].title.rendered).toBe('Event in 5 days');
    expect(made).toHaveLength(5);
  });

  it('past the last page is 404 with the reference code; an empty first page is 200 with zeros', async () => {
    const empty = await app.request('GET', EVENTS);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-wp-total')).toBe('0');
    expect(empty.headers.get('x-wp-totalpages')).toBe('0');
    expect(empty.headers.get('link')).not.toContain('rel="next"');
    await event(1);
    const beyond = await app.request('GET', `${EVENTS}?page=2`);
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({ code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' });
  });

  it('validates every parameter: per_page 1..100, page ≥ 1, enums, booleans, dates', async () => {
    const cases: Array<[string, string]> = [
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['orderby=price', 'orderby'],
      ['order=up', 'order'],
      ['status=trash', 'status'],
      ['status=publish,any', 'status'],
      ['status=inherit', 'status'],
      ['status=publish,publish', 'status'],
      ['featured=maybe', 'featured'],
      ['start_date=not-a-date', 'start_date'],
      ['categories=a', 'categories'],
    ];
    for (const [query, param] of cases) {
      const res = await app.request('GET', `${EVENTS}?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'rest_invalid_param']);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
    const bounds = await app.request('GET', `${EVENTS}?per_page=101`);
    expect(bounds.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    const ok = await app.request('GET', `${EVENTS}?per_page=100&status=publish,draft,pending,future,private`);
    expect(ok.status).toBe(200);
  });

  it('filters on dates, search, categories, tags, venues, organizers, featured and parent', async () => {
    const cat = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Music' } });
    const tag = await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Outdoor' } });
    const venue = await create({ title: 'Park' }, '/ec/v1/venues');
    const organizer = await create({ title: 'Band' }, '/ec/v1/organizers');
    const a = await noonEvent(2, { title: 'Jazz night', vendor_events_cat: [cat.body.id], featured: true });
    const b = await noonEvent(10, { title: 'Picnic', tags: [tag.body.id], venues: [venue.id] });
    const c = await noonEvent(20, { title: 'Concert', organizers: [organizer.id], content: 'Loud jazz music' });
    const day = (d: number) => utcNow().plus({ days: d }).toFormat('yyyy-LL-dd');
    const q = async (query: string) => ids(await app.request('GET', `${EVENTS}?${query}`));
    expect(await q(`start_date=${day(5)}T00:00:00`)).toEqual([b.id, c.id]);
    expect(await q(`end_date=${day(10)}T00:00:00`)).toEqual([a.id, b.id]);
    expect(await q(`starts_after=${day(5)}T00:00:00&starts_before=${day(15)}T00:00:00`)).toEqual([b.id]);
    expect(await q(`ends_before=${day(5)}T00:00:00`)).toEqual([a.id]);
    expect(await q(`ends_after=${day(15)}T00:00:00`)).toEqual([c.id]);
    expect(await q('search=jazz')).toEqual([a.id, c.id]);
    expect(await q(`categories[]=${cat.body.id}`)).toEqual([a.id]);
    expect(await q(`categories=${cat.body.id},${cat.body.id + 1000}`)).toEqual([a.id]);
    expect(await q(`tags[]=${tag.body.id}`)).toEqual([b.id]);
    expect(await q(`venue=${venue.id}`)).toEqual([b.id]);
    expect(await q(`organizer=${organizer.id}`)).toEqual([c.id]);
    expect(await q('featured=true')).toEqual([a.id]);
    expect(await q('featured=false')).toEqual([b.id, c.id]);
    expect(await q('ticketed=true')).toEqual([]);
    expect(await q('ticketed=false')).toEqual([a.id, b.id, c.id]);
    await store.collection('posts').updateOne({ id: c.id }, { $set: { parent: a.id } });
    expect(await q(`post_parent=${a.id}`)).toEqual([c.id]);
    const notVenue = await app.request('GET', `${EVENTS}?venue=${organizer.id}`);
    expect(notVenue.status).toBe(400);
    expect(notVenue.body.data.params).toEqual({ venue: 'Invalid parameter.' });
  });

  it('statuses: default [publish], guests always publish, editors any of the five', async () => {
    const pub = await event(1);
    const draft = await event(2, { status: 'draft' });
    const priv = await event(3, { status: 'private' });
    expect(ids(await app.request('GET', EVENTS))).toEqual([pub.id]);
    expect(ids(await app.request('GET', `${EVENTS}?status=draft,private`))).toEqual([pub.id]);
    expect(ids(await app.admin('GET', `${EVENTS}?status=draft,private`))).toEqual([draft.id, priv.id]);
    expect(ids(await app.admin('GET', `${EVENTS}?status[]=draft&status[]=publish`))).toEqual([pub.id, draft.id]);
  });
});

describe('writes', () => {
  it('creates (201), reads, updates with PUT and PATCH, and has no POST on an item', async () => {
    const e = await event(4, { content: 'Body', excerpt: 'Short', slug: 'my-event', sticky: true, comment_status: 'closed' });
    expect(e).toMatchObject({ slug: 'my-event', sticky: true, excerpt: { rendered: '<p>Short</p>\n' } });
    const put = await app.admin('PUT', `${EVENTS}/${e.id}`, { body: { title: 'Renamed', cost: '25', featured: true } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: { rendered: 'Renamed' }, cost: '$25', featured: true, slug: 'my-event', status: 'publish' });
    const patch = await app.admin('PATCH', `${EVENTS}/${e.id}`, { body: { start_date_utc: '2032-05-01 10:00:00', duration: 5400 } });
    expect(patch.body).toMatchObject({
      start_date_utc: '2032-05-01 10:00:00',
      end_date_utc: '2032-05-01 11:30:00',
      duration: '5400',
      title: { rendered: 'Renamed' },
    });
    const post = await app.admin('POST', `${EVENTS}/${e.id}`, { body: { title: 'Nope' } });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('rest_no_route');
    const stored = await store.collection('posts').findOne({ id: e.id });
    expect(stored).toMatchObject({ comment_status: 'closed', menu_order: -1 });
  });

  it('validates write fields by their declared types, formats and patterns', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ start_date: '2030-01-01' }, 'start_date'],
      [{ end_date_utc: '2030-01-01T10:00:00' }, 'end_date_utc'],
      [{ date: 'yesterday' }, 'date'],
      [{ status: 'trash' }, 'status'],
      [{ venues: [1, 1] }, 'venues'],
      [{ organizers: ['x'] }, 'organizers'],
      [{ all_day: 'sometimes' }, 'all_day'],
      [{ duration: -5 }, 'duration'],
      [{ format: 'poem' }, 'format'],
      [{ title: 5 }, 'title'],
    ];
    for (const [body, param] of bad) {
      const res = await app.admin('POST', EVENTS, { body: { title: 'x', ...body } });
      expect([param, res.status, res.body.code]).toEqual([param, 400, 'rest_invalid_param']);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
    const pattern = await app.admin('POST', EVENTS, { body: { start_date: 'soon' } });
    expect(pattern.body.data.details.start_date).toEqual({
      code: 'tec_rest_invalid_date_time_argument',
      message: 'Argument `{start_date}` must match the pattern.',
      data: {
        status: 400,
        argument: 'start_date',
        details: 'The argument `{start_date}` does not match the pattern `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$`.',
      },
    });
    const unknownVenue = await app.admin('POST', EVENTS, { body: { title: 'x', venues: [999999] } });
    expect(unknownVenue.status).toBe(400);
    expect(unknownVenue.body.data.params).toEqual({ venues: 'Invalid parameter.' });
    const unknownCat = await app.admin('POST', EVENTS, { body: { title: 'x', vendor_events_cat: [999999] } });
    expect(unknownCat.body.data.params).toEqual({ vendor_events_cat: 'Invalid parameter.' });
    const unknownMedia = await app.admin('POST', EVENTS, { body: { title: 'x', featured_media: 999999 } });
    expect(unknownMedia.body.data.params).toEqual({ featured_media: 'Invalid parameter.' });
    const count = await store.collection('posts').count({ type: 'vendor_events', title: 'x' });
    expect(count).toBe(0);
  });

  it('deletes: trash then 410, force removes for good with 200 []', async () => {
    const e = await event(3);
    const trash = await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(trash.status).toBe(200);
    expect(trash.body).toEqual([]);
    expect((await store.collection('posts').findOne({ id: e.id }))!.status).toBe('trash');
    const again = await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: 'The entity has already been trashed.' });
    const force = await app.admin('DELETE', `${EVENTS}/${e.id}?force=true`);
    expect(force.status).toBe(200);
    expect(force.body).toEqual([]);
    expect(await store.collection('posts').findOne({ id: e.id })).toBeNull();
    const gone = await app.admin('GET', `${EVENTS}/${e.id}`);
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe('rest_forbidden');
  });

  it('an id of another type: reads are forbidden, writes by those allowed are 404 with the reference body', async () => {
    const venue = await create({ title: 'Not an event' }, '/ec/v1/venues');
    const read = await app.request('GET', `${EVENTS}/${venue.id}`);
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('rest_forbidden');
    const update = await app.admin('PUT', `${EVENTS}/${venue.id}`, { body: { title: 'x' } });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ error: 'The entity could not be updated.' });
    const del = await app.admin('DELETE', `${EVENTS}/${venue.id}`);
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ error: 'The entity could not be deleted.' });
    const missing = await app.admin('PUT', `${EVENTS}/99999999`, { body: { title: 'x' } });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('rest_forbidden');
  });
});
