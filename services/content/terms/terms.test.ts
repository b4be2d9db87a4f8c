import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

const ROOT = 'http://example.test/index.php/cms-json';
const CATS = '/cms/v2/categories';
const TAGS = '/cms/v2/tags';
const ECATS = '/cms/v2/vendor_events_cat';
let app: TestApp;
let users: RoleUsers;
let run = 0;

/** A name unique to this test run, so tests do not see each other's terms. */
const uniq = (s: string) => `${s} ${++run}x`;
const make = async (path: string, body: Record<string, unknown>) => {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
const ids = (res: { body: any }) => (res.body as Array<{ id: number }>).map((t) => t.id);

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app, 'terms');
});
afterAll(async () => {
  await app.close();
});

describe('create, read, update, delete', () => {
  it('creates a category with the reference record, links and Location', async () => {
    const res = await app.admin('POST', CATS, { body: { name: 'Local News', description: 'About town' } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.get('location')).toBe(`${ROOT}/cms/v2/categories/${id}`);
    expect(res.body).toEqual({
      id,
      count: 0,
      description: 'About town',
      link: 'http://example.test/category/local-news/',
      name: 'Local News',
      slug: 'local-news',
      taxonomy: 'category',
      parent: 0,
      meta: [],
      _links: {
        self: [{ href: `${ROOT}/cms/v2/categories/${id}` }],
        collection: [{ href: `${ROOT}/cms/v2/categories` }],
        about: [{ href: `${ROOT}/cms/v2/taxonomies/category` }],
        'wp:post_type': [{ href: `${ROOT}/cms/v2/posts?categories=${id}` }],
        curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
      },
    });
    expect(res.headers.get('allow')).toBe('GET, POST');
    const got = await app.request('GET', `${CATS}/${id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('allow')).toBe('GET');
    const embed = await app.request('GET', `${CATS}/${id}?context=embed`);
    expect(Object.keys(embed.body)).toEqual(['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
  });

  it('stores names as the reference does and makes slugs unique', async () => {
    const a = await make(CATS, { name: '  Rock <b>&</b> Roll  ' });
    expect(a).toMatchObject({ name: 'Rock &amp; Roll', slug: 'rock-roll' });
    const b = await make(CATS, { name: 'Rock and Roll', slug: 'rock-roll' });
    expect(b.slug).toBe('rock-roll-2');
    const child = await make(CATS, { name: 'Rock and Roll', slug: 'rock-roll', parent: a.id });
    // A child's taken slug gets its parent's slug first.
    expect(child.slug).toBe('rock-roll-rock-roll');
    expect(child.link).toBe('http://example.test/category/rock-roll/rock-roll-rock-roll/');
    expect((await app.admin('POST', CATS, { body: { name: '   ' } })).body.code).toBe('empty_term_name');
    expect((await app.admin('POST', CATS, { body: {} })).body.code).toBe('rest_missing_callback_param');
  });

  it('term_exists carries the existing id in data and additional_data', async () => {
    const name = uniq('Dup');
    const first = await make(CATS, { name });
    const again = await app.admin('POST', CATS, { body: { name } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'term_exists',
      message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: first.id },
      additional_data: [first.id, first.id],
    });
    // Under another parent the name is free; with a different free slug too.
    const parent = await make(CATS, { name: uniq('Parent') });
    expect((await app.admin('POST', CATS, { body: { name, parent: parent.id } })).status).toBe(201);
    expect((await app.admin('POST', CATS, { body: { name, slug: uniq('other').replace(/ /g, '-') } })).status).toBe(201);
    const tag = await make(TAGS, { name: 'Sunny' });
    const tagAgain = await app.admin('POST', TAGS, { body: { name: 'sunny' } });
    expect(tagAgain.body).toMatchObject({
      code: 'term_exists',
      message: 'A term with the name provided already exists in this taxonomy.',
      data: { status: 400, term_id: tag.id },
    });
  });

  it('updates fields and keeps the hierarchy free of loops', async () => {
    const top = await make(CATS, { name: uniq('Top') });
    const mid = await make(CATS, { name: uniq('Mid'), parent: top.id });
    const leaf = await make(CATS, { name: uniq('Leaf'), parent: mid.id });
    expect(leaf.link).toBe(`http://example.test/category/${top.slug}/${mid.slug}/${leaf.slug}/`);
    const got = await app.request('GET', `${CATS}/${leaf.id}`);
    expect(got.body._links.up).toEqual([{ href: `${ROOT}/cms/v2/categories/${mid.id}`, embeddable: true }]);

    const upd = await app.admin('POST', `${CATS}/${mid.id}`, { body: { name: 'Middle', description: 'New', slug: 'middle' } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ id: mid.id, name: 'Middle', description: 'New', slug: 'middle', parent: top.id });
    // A term under its own descendant, or under itself, goes to the top level instead.
    expect((await app.admin('PATCH', `${CATS}/${top.id}`, { body: { parent: leaf.id } })).body.parent).toBe(0);
    expect((await app.admin('PUT', `${CATS}/${leaf.id}`, { body: { parent: leaf.id } })).body.parent).toBe(0);
    expect((await app.admin('POST', `${CATS}/${leaf.id}`, { body: { parent: 999999 } })).body).toMatchObject({
      code: 'rest_term_invalid',
      data: { status: 400 },
    });
    expect((await app.admin('POST', CATS, { body: { name: uniq('x'), parent: 999999 } })).body).toMatchObject({
      code: 'rest_term_invalid',
      message: 'Parent term does not exist.',
    });
    const tag = await make(TAGS, { name: uniq('T') });
    expect((await app.admin('POST', TAGS, { body: { name: uniq('y'), parent: tag.id } })).body).toMatchObject({
      code: 'rest_taxonomy_not_hierarchical',
      data: { status: 400 },
    });
    const other = await make(CATS, { name: uniq('Other') });
    expect((await app.admin('POST', `${CATS}/${other.id}`, { body: { slug: 'middle' } })).body.code).toBe('duplicate_term_slug');
    expect((await app.admin('POST', `${CATS}/${other.id}`, { body: { name: '' } })).body.code).toBe('empty_term_name');
    // A term of another taxonomy is not found here.
    expect((await app.request('GET', `${CATS}/${tag.id}`)).body).toMatchObject({ code: 'rest_term_invalid', data: { status: 404 } });
  });

  it('deletes only with force, answers the previous record, moves children up', async () => {
    const parent = await make(CATS, { name: uniq('P') });
    const doomed = await make(CATS, { name: uniq('Doomed'), parent: parent.id });
    const child = await make(CATS, { name: uniq('Child'), parent: doomed.id });
    const soft = await app.admin('DELETE', `${CATS}/${doomed.id}`);
    expect(soft.status).toBe(501);
    expect(soft.body).toEqual({
      code: 'rest_trash_not_supported',
      message: "Terms do not support trashing. Set 'force=true' to delete.",
      data: { status: 501 },
    });
    const res = await app.admin('DELETE', `${CATS}/${doomed.id}?force=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted: true,
      previous: {
        id: doomed.id,
        count: 0,
        description: '',
        link: doomed.link,
        name: doomed.name,
        slug: doomed.slug,
        taxonomy: 'category',
        parent: parent.id,
        meta: [],
      },
    });
    expect((await app.request('GET', `${CATS}/${doomed.id}`)).status).toBe(404);
    expect((await app.request('GET', `${CATS}/${child.id}`)).body.parent).toBe(parent.id);
    const uncategorized = (await app.request('GET', `${CATS}?slug=uncategorized`)).body[0];
    expect((await app.admin('DELETE', `${CATS}/${uncategorized.id}?force=true`)).body).toMatchObject({ code: 'rest_cannot_delete', data: { status: 403 } });
  });
});

describe('permissions per role', () => {
  const expectCode = (res: { status: number; body: any }, status: number, code?: string) => {
    expect(res.status).toBe(status);
    if (code) expect(res.body.code).toBe(code);
  };

  it('categories are managed by editors and administrators', async () => {
    for (const who of ['administrator', 'editor'] as const) expectCode(await users.as(who, 'POST', CATS, { body: { name: uniq(who) } }), 201);
    for (const who of ['author', 'contributor', 'subscriber'] as const)
      expectCode(await users.as(who, 'POST', CATS, { body: { name: uniq(who) } }), 403, 'rest_cannot_create');
    expectCode(await users.as('guest', 'POST', CATS, { body: { name: uniq('g') } }), 401, 'rest_cannot_create');
    const t = await make(CATS, { name: uniq('Perm') });
    expectCode(await users.as('editor', 'POST', `${CATS}/${t.id}`, { body: { description: 'ok' } }), 200);
    expectCode(await users.as('author', 'POST', `${CATS}/${t.id}`, { body: { description: 'no' } }), 403, 'rest_cannot_update');
    expectCode(await users.as('guest', 'POST', `${CATS}/${t.id}`, { body: { description: 'no' } }), 401, 'rest_cannot_update');
    expectCode(await users.as('contributor', 'DELETE', `${CATS}/${t.id}?force=true`), 403, 'rest_cannot_delete');
    expectCode(await users.as('guest', 'DELETE', `${CATS}/${t.id}?force=true`), 401, 'rest_cannot_delete');
    expectCode(await users.as('subscriber', 'GET', `${CATS}?context=edit`), 403, 'rest_forbidden_context');
    expectCode(await users.as('guest', 'GET', `${CATS}/${t.id}?context=edit`), 401, 'rest_forbidden_context');
    expectCode(await users.as('editor', 'GET', `${CATS}/${t.id}?context=edit`), 200);
    expect((await users.as('author', 'GET', `${CATS}/${t.id}`)).headers.get('allow')).toBe('GET');
    expect((await users.as('editor', 'GET', `${CATS}/${t.id}`)).headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    expectCode(await users.as('editor', 'DELETE', `${CATS}/${t.id}?force=true`), 200);
  });

  it('anyone who may assign tags may create them; event categories follow the calendar caps', async () => {
    expectCode(await users.as('contributor', 'POST', TAGS, { body: { name: uniq('c') } }), 201);
    expectCode(await users.as('subscriber', 'POST', TAGS, { body: { name: uniq('s') } }), 403, 'rest_cannot_create');
    const tag = await make(TAGS, { name: uniq('Tag') });
    expectCode(await users.as('contributor', 'POST', `${TAGS}/${tag.id}`, { body: { name: 'x' } }), 403, 'rest_cannot_update');
    expectCode(await users.as('author', 'POST', ECATS, { body: { name: uniq('a') } }), 201);
    expectCode(await users.as('contributor', 'POST', ECATS, { body: { name: uniq('c') } }), 403, 'rest_cannot_create');
    expectCode(await users.as('guest', 'POST', ECATS, { body: { name: uniq('g') } }), 401, 'rest_cannot_create');
  });
});

describe('lists', () => {
  let set: Array<{ id: number; name: string; slug: string }>;
  const q = (extra: string) => `${TAGS}?search=zeta&${extra}`;

  beforeAll(async () => {
    set = [];
    for (const [name, description] of [
      ['zeta Bravo', 'b'],
      ['zeta alpha', 'c'],
      ['zeta Charlie', 'a'],
      ['zeta delta', 'd'],
      ['zeta echo', 'e'],
    ])
      set.push(await make(TAGS, { name, description }));
  });

  it('filters by search, include, exclude and slug, and orders by each attribute', async () => {
    const [bravo, alpha, charlie, delta, echo] = set;
    expect(ids(await app.request('GET', q('')))).toEqual([alpha.id, bravo.id, charlie.id, delta.id, echo.id]);
    expect(ids(await app.request('GET', q('order=desc')))).toEqual([echo.id, delta.id, charlie.id, bravo.id, alpha.id]);
    expect(ids(await app.request('GET', q('orderby=id')))).toEqual(set.map((t) => t.id));
    expect(ids(await app.request('GET', q('orderby=description')))).toEqual([charlie.id, bravo.id, alpha.id, delta.id, echo.id]);
    expect(ids(await app.request('GET', q(`orderby=include&include=${delta.id},${alpha.id},${echo.id}`)))).toEqual([delta.id, alpha.id, echo.id]);
    expect(ids(await app.request('GET', q(`orderby=include_slugs&slug=${echo.slug},${bravo.slug}`)))).toEqual([echo.id, bravo.id]);
    expect(ids(await app.request('GET', q(`exclude=${alpha.id},${bravo.id}`)))).toEqual([charlie.id, delta.id, echo.id]);
    expect(ids(await app.request('GET', `${TAGS}?slug[]=${delta.slug.toUpperCase()}`))).toEqual([delta.id]);
    expect(ids(await app.request('GET', q(`include=${alpha.id},${bravo.id}&exclude=${alpha.id}`)))).toEqual([alpha.id, bravo.id]);
    expect(ids(await app.request('GET', `${TAGS}?search=ZETA%20ECH`))).toEqual([echo.id]);
    expect((await app.request('GET', `${TAGS}?orderby=foo`)).body.code).toBe('rest_invalid_param');
    expect((await app.request('GET', `${TAGS}?per_page=101`)).body.code).toBe('rest_invalid_param');
  });

  it('pages with X-WP-Total, X-WP-TotalPages and Link; tags take an offset', async () => {
    const p1 = await app.request('GET', q('per_page=2'));
    expect(p1.headers.get('x-wp-total')).toBe('5');
    expect(p1.headers.get('x-wp-totalpages')).toBe('3');
    expect(p1.headers.get('link')).toContain(`<${ROOT}/cms/v2/tags?search=zeta&per_page=2&page=2>; rel="next"`);
    expect(p1.headers.get('link')).not.toContain('rel="prev"');
    const p3 = await app.request('GET', q('per_page=2&page=3'));
    expect(p3.body).toHaveLength(1);
    expect(p3.headers.get('link')).toContain(`<${ROOT}/cms/v2/tags?search=zeta&per_page=2&page=2>; rel="prev"`);
    expect(p3.headers.get('link')).not.toContain('rel="next"');
    expect(await app.request('GET', q('per_page=2&page=9')).then((r) => r.body)).toEqual([]);
    expect(ids(await app.request('GET', q('per_page=2&offset=3')))).toEqual([set[3].id, set[4].id]);
    expect((await app.request('GET', `${CATS}?offset=1`)).status).toBe(200);
  });

  it('hide_empty, parent, post; counts follow published records', async () => {
    const parent = await make(CATS, { name: uniq('HideParent') });
    const child = await make(CATS, { name: uniq('HideChild'), parent: parent.id });
    const tag = await make(TAGS, { name: uniq('Counted') });
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Counting', status: 'publish', categories: [child.id], tags: [tag.id] } });
    expect(post.status).toBe(201);
    expect((await app.request('GET', `${CATS}/${child.id}`)).body.count).toBe(1);
    expect((await app.request('GET', `${TAGS}/${tag.id}`)).body.count).toBe(1);
    // An empty category with a non-empty child stays in a hidden-empty list, unless the list is of one parent.
    const hidden = ids(await app.request('GET', `${CATS}?hide_empty=true&per_page=100`));
    expect(hidden).toEqual(expect.arrayContaining([parent.id, child.id]));
    expect(ids(await app.request('GET', `${CATS}?hide_empty=true&parent=0&per_page=100`))).not.toContain(parent.id);
    expect(ids(await app.request('GET', `${CATS}?parent=${parent.id}`))).toEqual([child.id]);
    expect(ids(await app.request('GET', `${CATS}?post=${post.body.id}`))).toEqual([child.id]);
    expect(ids(await app.request('GET', `${TAGS}?post=${post.body.id}`))).toEqual([tag.id]);
    expect((await app.request('GET', `${TAGS}?post=999999`)).body).toMatchObject({ code: 'rest_post_invalid_id', data: { status: 400 } });
    const page = await app.admin('POST', '/cms/v2/pages', { body: { title: 'A page', status: 'publish' } });
    expect((await app.request('GET', `${CATS}?post=${page.body.id}`)).body).toMatchObject({ code: 'rest_forbidden_context', data: { status: 401 } });
    const draft = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Draft', status: 'draft', categories: [child.id] } });
    expect((await app.request('GET', `${CATS}?post=${draft.body.id}`)).status).toBe(401);
    expect((await users.as('subscriber', 'GET', `${CATS}?post=${draft.body.id}`)).status).toBe(403);
    expect(ids(await app.admin('GET', `${CATS}?post=${draft.body.id}`))).toEqual([child.id]);
    expect((await app.request('GET', `${CATS}/${child.id}`)).body.count).toBe(1);

    await app.admin('DELETE', `/cms/v2/posts/${post.body.id}`);
    expect((await app.request('GET', `${CATS}/${child.id}`)).body.count).toBe(0);
    expect((await app.request('GET', `${TAGS}/${tag.id}`)).body.count).toBe(0);
    await app.admin('POST', `/cms/v2/posts/${draft.body.id}`, { body: { status: 'publish' } });
    expect((await app.request('GET', `${CATS}/${child.id}`)).body.count).toBe(1);
    // Deleting its only category puts a post in the default one.
    const uncategorized = (await app.request('GET', `${CATS}?slug=uncategorized`)).body[0];
    await app.admin('DELETE', `${CATS}/${child.id}?force=true`);
    expect((await app.admin('GET', `/cms/v2/posts/${draft.body.id}`)).body.categories).toEqual([uncategorized.id]);
    expect(ids(await app.request('GET', `/cms/v2/posts?categories=${uncategorized.id}&per_page=100`))).toContain(draft.body.id);
    expect((await app.request('GET', `${CATS}/${uncategorized.id}`)).body.count).toBe(uncategorized.count + 1);
  });
});

describe('beside posts and the calendar', () => {
  it('_embed on a post brings its terms through wp:term', async () => {
    const cat = await make(CATS, { name: uniq('Embedded') });
    const tag = await make(TAGS, { name: uniq('EmbTag') });
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Embedding', status: 'publish', categories: [cat.id], tags: [tag.id] } });
    const res = await app.request('GET', `/cms/v2/posts/${post.body.id}?_embed=wp:term`);
    expect(res.body._links['wp:term']).toEqual([
      { taxonomy: 'category', embeddable: true, href: `${ROOT}/cms/v2/categories?post=${post.body.id}` },
      { taxonomy: 'post_tag', embeddable: true, href: `${ROOT}/cms/v2/tags?post=${post.body.id}` },
    ]);
    expect(res.body._embedded['wp:term']).toEqual([
      [{ id: cat.id, link: cat.link, name: cat.name, slug: cat.slug, taxonomy: 'category', _links: expect.any(Object) }],
      [{ id: tag.id, link: tag.link, name: tag.name, slug: tag.slug, taxonomy: 'post_tag', _links: expect.any(Object) }],
    ]);
    const page = await app.admin('POST', '/cms/v2/pages', { body: { title: 'No terms', status: 'publish' } });
    expect(page.body._links).not.toHaveProperty('wp:term');
  });

  it('one event category, seen from vendor/events/v1 and cms/v2', async () => {
    const made = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: uniq('Concerts'), description: 'Live' } });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(`${ROOT}/cms/v2/vendor_events_cat/${made.body.id}`);
    const seen = await app.request('GET', made.headers.get('location')!.slice(ROOT.length));
    expect(seen.body).toMatchObject({
      id: made.body.id,
      name: made.body.name,
      slug: made.body.slug,
      description: 'Live',
      taxonomy: 'vendor_events_cat',
      parent: 0,
      count: 0,
    });
    expect(seen.body.link).toBe(made.body.url);
    await app.admin('POST', '/vendor/events/v1/events', {
      body: { title: 'Gig', start_date: 'tomorrow 8pm', end_date: 'tomorrow 10pm', categories: [made.body.id] },
    });
    expect((await app.request('GET', `${ECATS}/${made.body.id}`)).body.count).toBe(1);
    const renamed = await app.admin('POST', `${ECATS}/${made.body.id}`, { body: { name: 'Renamed concerts' } });
    expect(renamed.status).toBe(200);
    expect((await app.request('GET', `/vendor/events/v1/categories/${made.body.id}`)).body).toMatchObject({ name: 'Renamed concerts', count: 1 });
    const sub = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: uniq('Jazz'), parent: made.body.id } });
    const subSeen = await app.request('GET', `${ECATS}/${sub.body.id}`);
    expect(subSeen.body.link).toBe(`http://example.test/events/category/${made.body.slug}/${sub.body.slug}/`);
    expect(sub.body.url).toBe(subSeen.body.link);
    const dup = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Renamed concerts' } });
    expect(dup.body).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: made.body.id }, additional_data: [made.body.id, made.body.id] });
    expect((await app.request('GET', `${CATS}/${made.body.id}`)).status).toBe(404);
  });

  it('the routes are in the index, after pages and before users', async () => {
    const index = await app.request('GET', '/cms/v2');
    const routes = Object.keys(index.body.routes);
    expect(routes).toEqual(
      expect.arrayContaining(['/cms/v2/categories', '/cms/v2/categories/(?P<id>[\\d]+)', '/cms/v2/tags', '/cms/v2/vendor_events_cat/(?P<id>[\\d]+)']),
    );
    expect(routes.indexOf('/cms/v2/categories')).toBeGreaterThan(routes.indexOf('/cms/v2/pages'));
    expect(routes.indexOf('/cms/v2/vendor_events_cat')).toBeLessThan(routes.indexOf('/cms/v2/users'));
    expect(index.body.routes['/cms/v2/tags'].endpoints[0].args).toHaveProperty('offset');
    expect(index.body.routes['/cms/v2/categories'].endpoints[0].args).not.toHaveProperty('offset');
  });
});
