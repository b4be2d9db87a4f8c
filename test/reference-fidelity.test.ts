/**
 * Classes of behaviour where the service follows the reference across namespaces, routes and roles:
 * the Allow header on every answer of a matched route, paging headers per namespace, search privacy
 * for guests, the cost's default currency, and the raw HTML of the calendar view.
 */
import { openStore } from '#libs/store/index';
import { startTestApp, type TestApp } from './support/app';
import { createRoleUsers, type RoleUsers } from './support/roles';

let app: TestApp;
let users: RoleUsers;

const allow = (res: { headers: Headers }) => res.headers.get('allow')?.split(', ').sort() ?? null;
const ALL = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];
const future = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
};
const event = async (body: Record<string, unknown>) => {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { start_date: future(10, 10), end_date: future(10, 12), ...body } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
};

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app, 'fid');
});
afterAll(async () => {
  await app.close();
});

describe('Allow on every answer of a matched route', () => {
  it('validation errors carry the methods the caller may use, per role and namespace', async () => {
    const bad = 'orderby=nonsense';
    expect(allow(await users.as('guest', 'GET', `/cms/v2/posts?${bad}`))).toEqual(['GET']);
    expect(allow(await users.as('contributor', 'GET', `/cms/v2/posts?${bad}`))).toEqual(['GET', 'POST']);
    expect(allow(await users.as('subscriber', 'GET', `/cms/v2/pages?${bad}`))).toEqual(['GET']);
    expect(allow(await users.as('editor', 'GET', `/cms/v2/pages?${bad}`))).toEqual(['GET', 'POST']);
    expect(allow(await users.as('guest', 'GET', '/ec/v1/events?per_page=0'))).toEqual(['GET']);
    expect(allow(await users.as('administrator', 'GET', '/ec/v1/events?per_page=0'))).toEqual(['GET', 'POST']);
    expect(allow(await users.as('guest', 'GET', '/vendor/events/v1/events?page=0'))).toEqual(['GET']);
    expect(allow(await users.as('guest', 'GET', '/cms/v2/users?per_page=500'))).toEqual(['GET']);
  });

  it('a handler that refuses after a public check still lists that method (users/me for a guest)', async () => {
    const me = await users.as('guest', 'GET', '/cms/v2/users/me');
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('rest_not_logged_in');
    expect(allow(me)).toEqual(['GET']);
    expect(allow(await users.as('subscriber', 'GET', '/cms/v2/users/me'))).toEqual(['GET', 'PATCH', 'POST', 'PUT']);
    expect(allow(await users.as('administrator', 'GET', '/cms/v2/users/me'))).toEqual(ALL);
  });

  it('missing arguments and unreadable JSON carry it too', async () => {
    const missing = await users.as('editor', 'POST', '/vendor/events/v1/events', { body: { title: 'No dates' } });
    expect(missing.body.code).toBe('rest_missing_callback_param');
    expect(allow(missing)).toEqual(['GET', 'POST']);
    const json = await users.as('author', 'POST', '/cms/v2/posts', { raw: '{"title":', contentType: 'application/json' });
    expect(json.body.code).toBe('rest_invalid_json');
    expect(allow(json)).toEqual(['GET', 'POST']);
    const venueJson = await users.as('guest', 'POST', '/vendor/events/v1/venues', { raw: '{', contentType: 'application/json' });
    expect(venueJson.body.code).toBe('rest_invalid_json');
    expect(allow(venueJson)).toEqual(['GET']);
  });

  it('the site index, namespace indexes and batch list their own methods', async () => {
    expect(allow(await app.request('GET', '/'))).toEqual(['GET']);
    for (const ns of ['/cms/v2', '/vendor/events/v1', '/ec/v1', '/oembed/1.0', '/vendor/views/v2', '/vendor/event-aggregator/v1']) {
      expect(allow(await app.request('GET', ns))).toEqual(['GET']);
    }
    const batch = await app.admin('POST', '/batch/v1', { body: { requests: [{ method: 'GET', path: '/index.php/cms-json/cms/v2/posts' }] } });
    expect(allow(batch)).toEqual(['POST']);
    const badBatch = await app.admin('POST', '/batch/v1', { body: { requests: 'nope' } });
    expect(badBatch.status).toBe(400);
    expect(allow(badBatch)).toEqual(['POST']);
  });

  it('no Allow after a permanent delete (no check passes on a record that is gone), all methods after a trash', async () => {
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Gone', status: 'publish' } })).body;
    const trashed = await app.admin('DELETE', `/cms/v2/posts/${post.id}`);
    expect(allow(trashed)).toEqual(ALL);
    const forced = await app.admin('DELETE', `/cms/v2/posts/${post.id}?force=true`);
    expect(forced.status).toBe(200);
    expect(allow(forced)).toBeNull();

    const page = (await app.admin('POST', '/cms/v2/pages', { body: { title: 'Gone page' } })).body;
    expect(allow(await app.admin('DELETE', `/cms/v2/pages/${page.id}?force=true`))).toBeNull();

    const ec = (await app.admin('POST', '/ec/v1/events', { body: { title: 'Gone event', start_date: future(3, 9), end_date: future(3, 10) } })).body;
    expect(allow(await app.admin('DELETE', `/ec/v1/events/${ec.id}`))).toEqual(['DELETE', 'GET', 'PATCH', 'PUT']);
    const ecForced = await app.admin('DELETE', `/ec/v1/events/${ec.id}?force=true`);
    expect(ecForced.status).toBe(200);
    expect(allow(ecForced)).toBeNull();
  });

  it('checks that only capabilities decide stay in Allow after a delete (vendor/events/v1 terms, venues)', async () => {
    const cat = (await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Short-lived' } })).body;
    const gone = await app.admin('DELETE', `/vendor/events/v1/categories/${cat.id}`);
    expect(gone.status).toBe(200);
    expect(allow(gone)).toEqual(ALL);
    const tag = (await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Short-lived tag' } })).body;
    expect(allow(await app.admin('DELETE', `/vendor/events/v1/tags/${tag.id}`))).toEqual(ALL);
    // A missing id is the reference's 400, still with the caller's methods.
    const missing = await users.as('editor', 'DELETE', '/vendor/events/v1/categories/999999');
    expect(missing.status).toBe(400);
    expect(allow(missing)).toEqual(ALL);
  });

  it('an update answers with what the caller may do with the record as it now is', async () => {
    const own = (await users.as('author', 'POST', '/cms/v2/posts', { body: { title: 'Mine', status: 'publish' } })).body;
    expect(allow(await users.as('author', 'POST', `/cms/v2/posts/${own.id}`, { body: { title: 'Still mine' } }))).toEqual(ALL);
    // Handing the post to another author leaves the author only reading it.
    const handed = await app.admin('POST', `/cms/v2/posts/${own.id}`, { body: { author: users.ids.editor } });
    expect(allow(handed)).toEqual(ALL);
    expect(allow(await users.as('author', 'GET', `/cms/v2/posts/${own.id}`))).toEqual(['GET']);
  });
});

describe('the discovery Link header', () => {
  it('is sent when the answer has no Link of its own, and replaced by one that it has', async () => {
    const api = '<http://example.test/index.php/cms-json/>; rel="https://api.w.org/"';
    expect((await app.request('GET', '/cms/v2')).headers.get('link')).toBe(api);
    expect((await app.request('GET', '/vendor/events/v1/events')).headers.get('link')).toBe(api);
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Linked', status: 'publish' } })).body;
    await app.admin('POST', '/cms/v2/posts', { body: { title: 'Linked 2', status: 'publish' } });
    const single = await app.request('GET', `/cms/v2/posts/${post.id}`);
    expect(single.headers.get('link')).toMatch(/rel="alternate"; type=text\/html$/);
    expect(single.headers.get('link')).not.toContain('api.w.org');
    const paged = await app.request('GET', '/cms/v2/posts?per_page=1');
    expect(paged.headers.get('link')).toMatch(/rel="next"$/);
    expect(paged.headers.get('link')).not.toContain('api.w.org');
  });
});

describe('paging headers follow the namespace', () => {
  beforeAll(async () => {
    await event({
      title: 'Paged one',
      categories: ['paging-cat'],
      tags: ['paging-tag'],
      venue: { venue: 'Paging Hall' },
      organizer: [{ organizer: 'Paging Org' }],
    });
    await event({
      title: 'Paged two',
      categories: ['paging-cat-2'],
      tags: ['paging-tag-2'],
      venue: { venue: 'Paging Hall 2' },
      organizer: [{ organizer: 'Paging Org 2' }],
    });
    await app.admin('POST', '/cms/v2/posts', { body: { title: 'P1', status: 'publish' } });
    await app.admin('POST', '/cms/v2/posts', { body: { title: 'P2', status: 'publish' } });
  });

  it('vendor/events/v1 archives send X-TEC-* only, no X-WP-* and no paging Link', async () => {
    for (const list of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      const res = await app.request('GET', `/vendor/events/v1/${list}?per_page=1`);
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-tec-total'))).toBeGreaterThanOrEqual(2);
      expect(Number(res.headers.get('x-tec-totalpages'))).toBeGreaterThanOrEqual(2);
      expect(res.headers.get('x-wp-total')).toBeNull();
      expect(res.headers.get('x-wp-totalpages')).toBeNull();
      expect(res.headers.get('link') ?? '').not.toMatch(/rel="(next|prev)"/);
      expect(res.body.next_rest_url).toContain('page=2');
    }
  });

  it('cms/v2 and ec/v1 lists send X-WP-* with a paging Link, no X-TEC-*', async () => {
    for (const path of ['/cms/v2/posts', '/ec/v1/events', '/ec/v1/venues', '/ec/v1/organizers']) {
      const res = await app.request('GET', `${path}?per_page=1`);
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-wp-total'))).toBeGreaterThanOrEqual(2);
      expect(res.headers.get('link')).toMatch(/page=2>; rel="next"/);
      expect(res.headers.get('x-tec-total')).toBeNull();
    }
  });
});

describe('a guest search never matches password-protected records', () => {
  const word = 'zanzibarquartz';
  let ids: Record<string, number>;
  beforeAll(async () => {
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Locked post', content: `secret ${word}`, status: 'publish', password: 'pw' } }))
      .body;
    const page = (await app.admin('POST', '/cms/v2/pages', { body: { title: 'Locked page', content: `secret ${word}`, status: 'publish', password: 'pw' } }))
      .body;
    const open = (await app.admin('POST', '/cms/v2/posts', { body: { title: `Open ${word}`, status: 'publish' } })).body;
    const ev = await event({ title: 'Locked event', description: `secret ${word}` });
    await app.admin('POST', `/vendor/events/v1/events/${ev.id}`, { body: { password: 'pw' } });
    // No venue route writes a password; a record can still carry one (written by an import or by hand).
    const venue = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Locked venue', description: `secret ${word}` } })).body;
    const store = await openStore({ dataDir: app.config.DATA_DIR });
    await store.collection('posts').updateOne({ id: venue.id }, { $set: { password: 'pw' } });
    await store.close();
    ids = { post: post.id, page: page.id, open: open.id, event: ev.id, venue: venue.id };
    expect(venue.id).toBeGreaterThan(0);
  });

  const found = async (who: 'guest' | 'subscriber' | 'administrator', path: string, key?: string) => {
    const res = await users.as(who, 'GET', `${path}${path.includes('?') ? '&' : '?'}search=${word}`);
    expect(res.status).toBe(200);
    const list = key ? res.body[key] : res.body;
    return (list as Array<{ id: number }>).map((r) => r.id);
  };

  it('cms/v2 posts and pages', async () => {
    expect(await found('guest', '/cms/v2/posts')).toEqual([ids.open]);
    expect(await found('guest', '/cms/v2/pages')).toEqual([]);
    // A signed-in caller searches protected records too, as the reference does.
    expect((await found('subscriber', '/cms/v2/posts')).sort()).toEqual([ids.post, ids.open].sort());
    expect(await found('administrator', '/cms/v2/pages')).toEqual([ids.page]);
  });

  it('vendor/events/v1 and ec/v1', async () => {
    expect(await found('guest', '/vendor/events/v1/events', 'events')).toEqual([]);
    expect(await found('administrator', '/vendor/events/v1/events', 'events')).toEqual([ids.event]);
    expect(await found('guest', '/ec/v1/events')).toEqual([]);
    expect(await found('subscriber', '/ec/v1/events')).toEqual([ids.event]);
    expect(await found('guest', '/ec/v1/venues')).toEqual([]);
    expect(await found('guest', '/vendor/events/v1/venues', 'venues')).toEqual([]);
    expect(await found('administrator', '/vendor/events/v1/venues', 'venues')).toEqual([ids.venue]);
    expect(await found('administrator', '/ec/v1/venues')).toEqual([ids.venue]);
  });
});

describe('cost and views as the reference shows them', () => {
  it('a cost without a symbol is shown with the default one in both calendar APIs', async () => {
    const e = await event({ title: 'Priced', cost: '10' });
    expect(e.cost).toBe('$10');
    expect(e.cost_details).toMatchObject({ currency_symbol: '', values: ['10'] });
    const range = await event({ title: 'Ranged', cost: ['5', '15'] });
    expect(range.cost).toBe('$5 – $15');
    expect((await app.request('GET', `/ec/v1/events/${e.id}`)).body.cost).toBe('$10');
    const euro = await event({ title: 'Euro', cost: '€8' });
    expect(euro.cost).toBe('€8');
  });

  it('event terms are listed by name', async () => {
    const e = await event({ title: 'Named terms', tags: 'zeta-tag,alpha-tag,Mid-tag', categories: ['Zulu cat', 'alpha cat'] });
    expect(e.tags.map((t: { name: string }) => t.name)).toEqual(['alpha-tag', 'Mid-tag', 'zeta-tag']);
    expect(e.categories.map((t: { name: string }) => t.name)).toEqual(['alpha cat', 'Zulu cat']);
  });
});
