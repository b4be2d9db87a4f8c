/**
 * cms/v2 settings over HTTP, against the reference's settings controller: only administrators read
 * and change them, bad values are refused with rest_invalid_param and change nothing, and a change is
 * used at once (site index, new posts' defaults, the time zone dates are read in) and reaches other
 * processes through the store.
 */
import { DateTime } from 'luxon';
import { siteFrom } from '#libs/rest/site';
import { SiteSettings } from '#libs/settings/site-settings';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
/** A second handle on the app's store: what another process of a cluster sees. */
let other: Store;

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
  other = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await other.close();
  await app.close();
});

const KEYS = [
  'title',
  'description',
  'url',
  'timezone',
  'date_format',
  'time_format',
  'start_of_week',
  'default_category',
  'posts_per_page',
  'show_on_front',
  'page_on_front',
  'page_for_posts',
  'default_ping_status',
  'default_comment_status',
];

describe('permissions', () => {
  it('lets only administrators read and change the settings (401 for guests, 403 for users)', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH']) {
      const body = method === 'GET' ? undefined : { title: 'Hijacked' };
      const guest = await users.as('guest', method, '/cms/v2/settings', { body });
      expect([guest.status, guest.body.code]).toEqual([401, 'rest_forbidden']);
      const editor = await users.as('editor', method, '/cms/v2/settings', { body });
      expect([editor.status, editor.body.code]).toEqual([403, 'rest_forbidden']);
    }
    expect((await app.request('GET', '/')).body.name).toBe('Events Calendar');
  });
});

describe('reading', () => {
  it('gives the settings with the configuration and reference defaults', async () => {
    const res = await app.admin('GET', '/cms/v2/settings');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(KEYS);
    const uncategorized = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Where does it go' } })).body.categories[0];
    expect(res.body).toEqual({
      title: 'Events Calendar',
      description: '',
      url: 'http://example.test',
      timezone: '',
      date_format: 'F j, Y',
      time_format: 'g:i a',
      start_of_week: 1,
      default_category: uncategorized,
      posts_per_page: 10,
      show_on_front: 'posts',
      page_on_front: 0,
      page_for_posts: 0,
      default_ping_status: 'open',
      default_comment_status: 'open',
    });
  });

  it('publishes the writable settings as the route arguments', async () => {
    const route = (await app.request('GET', '/cms/v2')).body.routes['/cms/v2/settings'];
    expect(route.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    expect(route.endpoints[1].args.timezone).toEqual({
      type: 'string',
      title: 'Timezone',
      description: 'A city in the same timezone as you.',
      required: false,
    });
    expect(route.endpoints[1].args.default_comment_status.enum).toEqual(['open', 'closed']);
  });
});

describe('validation', () => {
  it.each([
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    [{ timezone: 'america/new_york' }, 'timezone'],
    [{ start_of_week: 9 }, 'start_of_week'],
    [{ posts_per_page: 'many' }, 'posts_per_page'],
    [{ posts_per_page: 0 }, 'posts_per_page'],
    [{ show_on_front: 'blog' }, 'show_on_front'],
    [{ default_comment_status: 'maybe' }, 'default_comment_status'],
    [{ url: 'not a url' }, 'url'],
    [{ default_category: 999999 }, 'default_category'],
    [{ title: 'Fine', page_on_front: 'x' }, 'page_on_front'],
  ])('refuses %j with rest_invalid_param naming %s, and changes nothing', async (body, param) => {
    const res = await app.admin('POST', '/cms/v2/settings', { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual([param]);
    expect(res.body.data.details[param]).toBeDefined();
    const now = await app.admin('GET', '/cms/v2/settings');
    expect(now.body.title).toBe('Events Calendar');
    expect(now.body.timezone).toBe('');
  });
});

describe('changing the settings', () => {
  it('changes the site name and tagline in the (cached) site index', async () => {
    expect((await app.request('GET', '/')).body.name).toBe('Events Calendar');
    expect((await app.request('GET', '/')).body.name).toBe('Events Calendar');
    const res = await app.admin('POST', '/cms/v2/settings', { body: { title: 'Riverside Events', description: 'What happens by the river' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Riverside Events', description: 'What happens by the river' });
    const index = await app.request('GET', '/');
    expect(index.body).toMatchObject({ name: 'Riverside Events', description: 'What happens by the river' });
    // A null value deletes the option: back to the configured default.
    const reset = await app.admin('PATCH', '/cms/v2/settings', { body: { description: null } });
    expect(reset.body).toMatchObject({ title: 'Riverside Events', description: '' });
    expect((await app.request('GET', '/')).body.description).toBe('');
  });

  it('moves the site offset and the reading of local dates with the time zone', async () => {
    const res = await app.admin('PUT', '/cms/v2/settings', { body: { timezone: 'America/New_York' } });
    expect(res.body.timezone).toBe('America/New_York');
    const index = await app.request('GET', '/');
    expect(index.body.timezone_string).toBe('America/New_York');
    expect(index.body.gmt_offset).toBe(String(DateTime.now().setZone('America/New_York').offset / 60));
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'In New York', date: '2024-01-15T10:00:00', status: 'publish' } });
    expect(post.body.date_gmt).toBe('2024-01-15T15:00:00');
    await app.admin('POST', '/cms/v2/settings', { body: { timezone: '' } });
    expect((await app.request('GET', '/')).body).toMatchObject({ timezone_string: '', gmt_offset: '0' });
  });

  it('gives new posts the default category and discussion settings', async () => {
    const news = await new TermsRepository(other).create({ taxonomy: 'category', name: 'News' });
    await app.admin('POST', '/cms/v2/settings', { body: { default_category: news.id, default_comment_status: 'closed', default_ping_status: 'closed' } });
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Filed by default' } });
    expect(post.body).toMatchObject({ categories: [news.id], comment_status: 'closed', ping_status: 'closed' });
    const chosen = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Open one', comment_status: 'open' } });
    expect(chosen.body.comment_status).toBe('open');
    await app.admin('POST', '/cms/v2/settings', { body: { default_comment_status: null, default_ping_status: null } });
    expect((await app.admin('POST', '/cms/v2/posts', { body: { title: 'Open again' } })).body.comment_status).toBe('open');
  });

  it('shows the front page settings and the site URL in the index', async () => {
    const page = await app.admin('POST', '/cms/v2/pages', { body: { title: 'Home', status: 'publish' } });
    await app.admin('POST', '/cms/v2/settings', { body: { show_on_front: 'page', page_on_front: page.body.id } });
    expect((await app.request('GET', '/')).body).toMatchObject({ show_on_front: 'page', page_on_front: page.body.id, page_for_posts: 0 });
    await app.admin('POST', '/cms/v2/settings', { body: { url: 'http://example.test/calendar/' } });
    const index = await app.request('GET', '/');
    expect(index.body).toMatchObject({ url: 'http://example.test/calendar', home: 'http://example.test/calendar' });
    expect(index.body.routes['/cms/v2/settings']._links.self[0].href).toBe('http://example.test/calendar/index.php/cms-json/cms/v2/settings');
    await app.admin('POST', '/cms/v2/settings', { body: { url: null, show_on_front: null, page_on_front: null } });
    expect((await app.request('GET', '/')).body).toMatchObject({ url: 'http://example.test', show_on_front: 'posts', page_on_front: 0 });
  });
});

describe('posts per page', () => {
  it('is the page size of the event archives that do not name one', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await app.admin('POST', '/vendor/events/v1/events', {
        body: { title: `Paged event ${i}`, start_date: `2031-01-0${i + 1} 10:00:00`, end_date: `2031-01-0${i + 1} 11:00:00`, status: 'publish' },
      });
      expect(res.status).toBe(201);
    }
    expect((await app.request('GET', '/vendor/events/v1/events?starts_after=2030-12-31')).body.events).toHaveLength(3);
    await app.admin('POST', '/cms/v2/settings', { body: { posts_per_page: 2 } });
    const v1 = await app.request('GET', '/vendor/events/v1/events?starts_after=2030-12-31');
    expect(v1.body.events).toHaveLength(2);
    expect(v1.body.total_pages).toBe(2);
    expect((await app.request('GET', '/vendor/events/v1/events?starts_after=2030-12-31&per_page=3')).body.events).toHaveLength(3);
    const ec = await app.request('GET', '/ec/v1/events?starts_after=2030-12-31T00:00:00');
    expect(ec.body).toHaveLength(2);
    expect(ec.headers.get('x-wp-totalpages')).toBe('2');
    expect((await app.request('GET', '/ec/v1/events?starts_after=2030-12-31T00:00:00&per_page=3')).body).toHaveLength(3);
    await app.admin('POST', '/cms/v2/settings', { body: { posts_per_page: null } });
    expect((await app.request('GET', '/ec/v1/events?starts_after=2030-12-31T00:00:00')).body).toHaveLength(3);
  });
});

describe('other processes', () => {
  it('see a change through the store, and the service sees theirs within the refresh period', async () => {
    const site = siteFrom(app.config);
    const elsewhere = await SiteSettings.open(other, site, app.config, 0);
    await app.admin('POST', '/cms/v2/settings', { body: { title: 'Changed here' } });
    expect(await elsewhere.refresh()).toBe(true);
    expect(site.name).toBe('Changed here');
    expect(await elsewhere.refresh()).toBe(false);

    await elsewhere.update({ title: 'Changed elsewhere' });
    // The cached site index follows within the refresh period, by the periodic read alone.
    expect((await app.request('GET', '/')).body.name).toBe('Changed here');
    const deadline = Date.now() + 5000;
    let name = '';
    while (Date.now() < deadline) {
      name = (await app.request('GET', '/')).body.name;
      if (name === 'Changed elsewhere') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(name).toBe('Changed elsewhere');
    expect((await app.admin('GET', '/cms/v2/settings')).body.title).toBe('Changed elsewhere');
  });
});
