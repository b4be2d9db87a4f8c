/**
 * cms/v2 search over HTTP, against the reference's search controller and its post, term and
 * post-format handlers: records, subtypes, include/exclude, paging, and what a guest may never find.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
const ids: Record<string, number> = {};

const root = 'http://example.test/index.php/cms-json';

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
  const post = async (name: string, body: Record<string, unknown>, path = '/cms/v2/posts') => {
    const res = await app.admin('POST', path, { body });
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${res.text}`);
    ids[name] = res.body.id;
  };
  await post('published', { title: 'Apple pie', content: 'A recipe', status: 'publish', date: '2024-01-01T10:00:00' });
  await post('contentOnly', { title: 'Desserts', content: 'Bake the apple slowly', status: 'publish', date: '2024-01-03T10:00:00' });
  await post('draft', { title: 'Apple draft', content: 'apple', status: 'draft' });
  await post('private', { title: 'Apple private', content: 'apple', status: 'private' });
  await post('protected', { title: 'Apple secret', content: 'hidden apple', status: 'publish', password: 'sesame', date: '2024-01-02T10:00:00' });
  await post('protectedByContent', { title: 'Locked', content: 'quince jam', status: 'publish', password: 'sesame' });
  await post('draftByContent', { title: 'Unfinished', content: 'quince jelly', status: 'draft' });
  await post('openByContent', { title: 'Open', content: 'quince tart', status: 'publish' });
  await post('aside', { title: 'A short aside', status: 'publish', format: 'aside' });
  await post('parent', { title: 'Fruit', status: 'publish' }, '/cms/v2/pages');
  await post('page', { title: 'Apple orchard', status: 'publish', parent: ids.parent }, '/cms/v2/pages');
  const event = await app.admin('POST', '/vendor/events/v1/events', {
    body: { title: 'Apple fair', start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00', status: 'publish' },
  });
  ids.event = event.body.id;
  ids.eventCategory = (await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Apple festivals' } })).body.id;
  ids.childCategory = (await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Apple juniors', parent: ids.eventCategory } })).body.id;
  ids.tag = (await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'apples' } })).body.id;
});
afterAll(async () => {
  await app.close();
});

const idsOf = (body: Array<{ id: unknown }>) => body.map((r) => r.id);

describe('posts', () => {
  it('finds published posts and pages for a guest, with the reference record shape', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/search?search=apple');
    expect(res.status).toBe(200);
    expect(new Set(idsOf(res.body))).toEqual(new Set([ids.published, ids.contentOnly, ids.page]));
    expect(res.headers.get('x-wp-total')).toBe('3');
    expect(res.headers.get('x-wp-totalpages')).toBe('1');
    const page = res.body.find((r: { id: number }) => r.id === ids.page);
    expect(page).toEqual({
      id: ids.page,
      title: 'Apple orchard',
      url: 'http://example.test/fruit/apple-orchard/',
      type: 'post',
      subtype: 'page',
      label: 'Page',
      _links: {
        self: [{ embeddable: true, href: `${root}/cms/v2/pages/${ids.page}` }],
        about: [{ href: `${root}/cms/v2/types/page` }],
        collection: [{ href: `${root}/cms/v2/search` }],
      },
    });
  });

  it('orders by relevance: title matches before content matches', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/search?search=apple&subtype=post');
    expect(idsOf(res.body)).toEqual([ids.published, ids.contentOnly]);
  });

  it('never lets a guest find drafts, private or password-protected records, by title or by content words', async () => {
    for (const who of ['guest'] as const) {
      const byTitle = await users.as(who, 'GET', '/cms/v2/search?search=apple&per_page=100');
      for (const hidden of [ids.draft, ids.private, ids.protected]) expect(idsOf(byTitle.body)).not.toContain(hidden);
      const byContent = await users.as(who, 'GET', '/cms/v2/search?search=quince');
      expect(idsOf(byContent.body)).toEqual([ids.openByContent]);
      expect(byContent.headers.get('x-wp-total')).toBe('1');
    }
    // Signed-in callers may find the protected one; drafts and private records stay out for everybody.
    const admin = await app.admin('GET', '/cms/v2/search?search=quince');
    expect(new Set(idsOf(admin.body))).toEqual(new Set([ids.openByContent, ids.protectedByContent]));
    const editor = await users.as('editor', 'GET', '/cms/v2/search?search=apple&per_page=100');
    expect(idsOf(editor.body)).toContain(ids.protected);
    expect(idsOf(editor.body)).not.toContain(ids.draft);
    expect(idsOf(editor.body)).not.toContain(ids.private);
  });

  it('lists every published record without a search, newest first, and pages with the headers', async () => {
    const all = await users.as('guest', 'GET', '/cms/v2/search?per_page=100');
    expect(idsOf(all.body)).not.toContain(ids.draft);
    expect(idsOf(all.body)).toContain(ids.protected);
    const first = await users.as('guest', 'GET', '/cms/v2/search?search=apple&per_page=2');
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('x-wp-totalpages')).toBe('2');
    expect(first.headers.get('link')).toContain(`<${root}/cms/v2/search?search=apple&per_page=2&page=2>; rel="next"`);
    const second = await users.as('guest', 'GET', '/cms/v2/search?search=apple&per_page=2&page=2');
    expect(second.body).toHaveLength(1);
    const beyond = await users.as('guest', 'GET', '/cms/v2/search?search=apple&per_page=2&page=3');
    expect([beyond.status, beyond.body.code]).toEqual([400, 'rest_search_invalid_page_number']);
  });

  it('limits by subtype, include and exclude', async () => {
    expect(idsOf((await users.as('guest', 'GET', '/cms/v2/search?search=apple&subtype=page')).body)).toEqual([ids.page]);
    expect(idsOf((await users.as('guest', 'GET', `/cms/v2/search?search=apple&include=${ids.contentOnly},${ids.draft}`)).body)).toEqual([ids.contentOnly]);
    expect(idsOf((await users.as('guest', 'GET', `/cms/v2/search?search=apple&exclude=${ids.published}&subtype=post`)).body)).toEqual([ids.contentOnly]);
    // A subtype of another handler leaves nothing to search.
    expect((await users.as('guest', 'GET', '/cms/v2/search?search=apple&subtype=category')).body).toEqual([]);
    const bad = await users.as('guest', 'GET', '/cms/v2/search?subtype=nope');
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
    expect((await users.as('guest', 'GET', '/cms/v2/search?type=comment')).status).toBe(400);
  });

  it('searches events only for those to whom the event type is shown', async () => {
    expect(idsOf((await users.as('guest', 'GET', '/cms/v2/search?search=fair')).body)).toEqual([]);
    expect(idsOf((await users.as('guest', 'GET', '/cms/v2/search?search=fair&subtype=vendor_events')).body)).toEqual([]);
    const admin = await app.admin('GET', '/cms/v2/search?search=fair');
    expect(admin.body).toEqual([
      expect.objectContaining({ id: ids.event, subtype: 'vendor_events', label: 'Event', url: 'http://example.test/event/apple-fair/' }),
    ]);
  });

  it('embeds the found record through its self link', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/search?search=pie&_embed=self');
    expect(res.body[0]._embedded.self[0]).toMatchObject({ id: ids.published, title: { rendered: 'Apple pie' } });
  });
});

describe('terms', () => {
  it('finds terms of every public taxonomy by name or slug, ordered by name', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/search?type=term&search=apple');
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([ids.eventCategory, ids.childCategory, ids.tag]);
    expect(res.body[1]).toEqual({
      id: ids.childCategory,
      title: 'Apple juniors',
      url: 'http://example.test/events/category/apple-festivals/apple-juniors/',
      type: 'vendor_events_cat',
      label: 'Event Category',
      _links: expect.objectContaining({ about: [{ href: `${root}/cms/v2/taxonomies/vendor_events_cat` }], collection: [{ href: `${root}/cms/v2/search` }] }),
    });
    expect(res.body[2]).toMatchObject({ title: 'apples', url: 'http://example.test/tag/apples/', type: 'post_tag' });
    expect(res.headers.get('x-wp-total')).toBe('3');
  });

  it('limits terms by subtype, include and exclude, and lists them all without a search', async () => {
    expect(idsOf((await users.as('guest', 'GET', '/cms/v2/search?type=term&search=apple&subtype=post_tag')).body)).toEqual([ids.tag]);
    expect(idsOf((await users.as('guest', 'GET', `/cms/v2/search?type=term&search=apple&exclude=${ids.tag}`)).body)).toEqual([
      ids.eventCategory,
      ids.childCategory,
    ]);
    expect(idsOf((await users.as('guest', 'GET', `/cms/v2/search?type=term&include=${ids.tag}`)).body)).toEqual([ids.tag]);
    const all = await users.as('guest', 'GET', '/cms/v2/search?type=term&subtype=category');
    expect(all.body.map((t: { title: string }) => t.title)).toEqual(['Uncategorized']);
    expect(all.body[0].url).toBe('http://example.test/category/uncategorized/');
  });
});

describe('post formats', () => {
  it('finds the formats some post uses, by slug or name', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/search?type=post-format');
    expect(res.body).toEqual([
      {
        id: 'aside',
        title: 'Aside',
        url: 'http://example.test/type/aside/',
        type: 'post-format',
        label: 'Aside',
        _links: { collection: [{ href: `${root}/cms/v2/search` }] },
      },
    ]);
    expect((await users.as('guest', 'GET', '/cms/v2/search?type=post-format&search=ASI')).body).toHaveLength(1);
    expect((await users.as('guest', 'GET', '/cms/v2/search?type=post-format&search=video')).body).toEqual([]);
  });
});
