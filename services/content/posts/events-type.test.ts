/**
 * cms/v2/vendor_events: the calendar's event type through the posts controller, shown in REST to
 * managers only (its show_in_rest), with the calendar's records and derived index fields.
 */
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';
import { app, post, sortedKeys, usePostsApp } from './posts.fixtures';

usePostsApp();
let users: RoleUsers;
beforeAll(async () => {
  users = await createRoleUsers(app, 'ev');
});

const BASE = '/cms/v2/vendor_events';

async function tecEvent(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { status: 'publish', ...body } });
  if (res.status !== 201) throw new Error(`event create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('who has the route', () => {
  it('is rest_no_route for guests and callers without manage_options, on every route of the type', async () => {
    const created = await post({ title: 'Shown to managers', status: 'publish' }, BASE);
    for (const who of ['guest', 'subscriber', 'author', 'editor'] as const) {
      for (const [method, path] of [
        ['GET', BASE],
        ['POST', BASE],
        ['GET', `${BASE}/${created.id}`],
        ['DELETE', `${BASE}/${created.id}`],
        ['GET', `${BASE}/${created.id}/revisions`],
      ] as const) {
        const res = await users.as(who, method, path, { body: method === 'POST' ? { title: 'x' } : undefined });
        expect([who, method, path, res.status, res.body.code]).toEqual([who, method, path, 404, 'rest_no_route']);
      }
      // OPTIONS answers as for any unknown route: nothing.
      const options = await users.as(who, 'OPTIONS', BASE);
      expect([options.status, options.body]).toEqual([200, []]);
    }
    expect((await users.as('administrator', 'GET', BASE)).status).toBe(200);
  });

  it('lists the routes in the indexes for managers only', async () => {
    const routes = async (who: 'guest' | 'editor' | 'administrator', path: string) => Object.keys((await users.as(who, 'GET', path)).body.routes);
    for (const path of ['/', '/cms/v2']) {
      expect(await routes('guest', path)).not.toContain(BASE);
      expect(await routes('editor', path)).not.toContain(BASE);
      expect(await routes('administrator', path)).toEqual(expect.arrayContaining([BASE, `${BASE}/(?P<id>[\\d]+)`, `${BASE}/(?P<id>[\\d]+)/autosaves`]));
      // The kept site index is kept per audience: a guest after an administrator still gets the guests' one.
      expect(await routes('guest', path)).not.toContain(BASE);
    }
  });

  it('shows the type in cms/v2/types to managers, and its taxonomies to everyone', async () => {
    expect(Object.keys((await users.as('editor', 'GET', '/cms/v2/types')).body)).not.toContain('vendor_events');
    expect((await users.as('editor', 'GET', '/cms/v2/types/vendor_events')).status).toBe(403);
    const type = (await users.as('administrator', 'GET', '/cms/v2/types/vendor_events?context=edit')).body;
    expect(type).toMatchObject({ slug: 'vendor_events', rest_base: 'vendor_events', taxonomies: ['post_tag', 'vendor_events_cat'] });
    expect(Object.keys(type.supports)).toEqual(
      expect.arrayContaining(['title', 'editor', 'excerpt', 'author', 'thumbnail', 'custom-fields', 'comments', 'revisions']),
    );
    const guestTax = (await users.as('guest', 'GET', '/cms/v2/taxonomies?type=vendor_events')).body;
    expect(Object.keys(guestTax)).toEqual(['post_tag', 'vendor_events_cat']);
  });
});

describe('records', () => {
  it('creates, reads, lists, updates, trashes and deletes an event with the reference fields', async () => {
    const cat = (await app.admin('POST', '/cms/v2/vendor_events_cat', { body: { name: 'Concerts' } })).body;
    const tag = (await app.admin('POST', '/cms/v2/tags', { body: { name: 'Outdoor' } })).body;
    const created = await post({ title: 'Jazz night', content: 'Live', status: 'publish', vendor_events_cat: [cat.id], tags: [tag.id] }, BASE);
    expect(created).toMatchObject({ type: 'vendor_events', vendor_events_cat: [cat.id], tags: [tag.id], comment_status: 'open', ping_status: 'closed' });
    expect(sortedKeys(created)).toEqual(
      [
        'author',
        'class_list',
        'comment_status',
        'content',
        'date',
        'date_gmt',
        'excerpt',
        'featured_media',
        'generated_slug',
        'guid',
        'id',
        'link',
        'meta',
        'modified',
        'modified_gmt',
        'password',
        'permalink_template',
        'ping_status',
        'slug',
        'status',
        'tags',
        'template',
        'title',
        'type',
        'vendor_events_cat',
      ].sort(),
    );
    expect(created.meta).toHaveProperty('_EventStartDate', '');
    expect(created.class_list).toEqual(expect.arrayContaining([`tag-${tag.slug}`, `vendor_events_cat-${cat.slug}`, `cat_${cat.slug}`]));
    expect(created.class_list.some((c: string) => c.startsWith('format-'))).toBe(false);
    expect(created._links['wp:term'].map((t: { taxonomy: string }) => t.taxonomy)).toEqual(['post_tag', 'vendor_events_cat']);

    const list = await app.admin('GET', `${BASE}?vendor_events_cat=${cat.id}&_fields=id`);
    expect([list.status, list.body, list.headers.get('x-wp-total')]).toEqual([200, [{ id: created.id }], '1']);
    expect((await app.admin('GET', `/cms/v2/vendor_events_cat/${cat.id}`)).body.count).toBe(1);
    // A manager's term links name the events collection; a guest's do not.
    expect(JSON.stringify((await app.admin('GET', `/cms/v2/tags/${tag.id}`)).body._links)).toContain('/cms/v2/vendor_events?tags=');
    expect(JSON.stringify((await app.request('GET', `/cms/v2/tags/${tag.id}`)).body._links)).not.toContain('vendor_events');

    const updated = await app.admin('POST', `${BASE}/${created.id}`, { body: { title: 'Jazz night (late)', vendor_events_cat: [] } });
    expect([updated.status, updated.body.title.raw, updated.body.vendor_events_cat]).toEqual([200, 'Jazz night (late)', []]);
    expect((await app.admin('GET', `/cms/v2/vendor_events_cat/${cat.id}`)).body.count).toBe(0);

    const trashed = await app.admin('DELETE', `${BASE}/${created.id}`);
    expect([trashed.status, trashed.body.status]).toEqual([200, 'trash']);
    expect((await app.admin('DELETE', `${BASE}/${created.id}`)).body.code).toBe('rest_already_trashed');
    const gone = await app.admin('DELETE', `${BASE}/${created.id}?force=true`);
    expect([gone.status, gone.body.deleted]).toEqual([200, true]);
    expect((await app.admin('GET', `${BASE}/${created.id}`)).status).toBe(404);
  });

  it('reads an event created through vendor/events/v1 with its meta and terms', async () => {
    const ev = await tecEvent({
      title: 'Calendar made',
      start_date: '2031-05-01 10:00:00',
      end_date: '2031-05-01 12:00:00',
      timezone: 'UTC',
      categories: 'Fairs',
    });
    const res = await app.admin('GET', `${BASE}/${ev.id}?context=edit`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ev.id,
      type: 'vendor_events',
      title: { raw: 'Calendar made' },
      vendor_events_cat: [ev.categories[0].id],
      meta: { _EventStartDate: '2031-05-01 10:00:00', _EventEndDate: '2031-05-01 12:00:00', _EventTimezone: 'UTC' },
    });
  });

  it('keeps the calendar answer right after event meta is written through cms/v2', async () => {
    const ev = await tecEvent({ title: 'Moved', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', timezone: 'Europe/Paris' });
    const res = await app.admin('POST', `${BASE}/${ev.id}`, {
      body: { meta: { _EventStartDate: '2031-07-02 09:00:00', _EventEndDate: '2031-07-02 17:30:00' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ _EventStartDateUTC: '2031-07-02 07:00:00', _EventEndDateUTC: '2031-07-02 15:30:00' });
    const tec = (await app.admin('GET', `/vendor/events/v1/events/${ev.id}`)).body;
    expect([tec.start_date, tec.end_date, tec.utc_start_date, tec.utc_end_date]).toEqual([
      '2031-07-02 09:00:00',
      '2031-07-02 17:30:00',
      '2031-07-02 07:00:00',
      '2031-07-02 15:30:00',
    ]);
    // The calendar's date filter reads the derived index fields.
    const within = await app.admin('GET', '/vendor/events/v1/events?start_date=2031-07-02&end_date=2031-07-03');
    expect(within.body.events.map((e: { id: number }) => e.id)).toContain(ev.id);
  });

  it('keeps an event made through cms/v2 with dates in the calendar', async () => {
    const created = await post(
      {
        title: 'Made in cms',
        status: 'publish',
        meta: { _EventStartDate: '2031-09-09 18:00:00', _EventEndDate: '2031-09-09 20:00:00', _EventTimezone: 'UTC' },
      },
      BASE,
    );
    const tec = await app.admin('GET', `/vendor/events/v1/events/${created.id}`);
    expect([tec.status, tec.body.start_date, tec.body.utc_end_date]).toEqual([200, '2031-09-09 18:00:00', '2031-09-09 20:00:00']);
  });
});
