import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

const V1 = '/vendor/events/v1';
const CATS = `${V1}/categories`;
let app: TestApp;
let store: Store;

const cat = async (body: Record<string, unknown>, path = CATS) => {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
};
const names = (res: { body: any }, key = 'categories') => (res.body[key] as Array<{ name: string }>).map((t) => t.name);

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(async () => {
  await store.collection('terms').deleteMany({ taxonomy: { $in: ['vendor_events_cat', 'post_tag'] } });
});

describe('category archive', () => {
  it('hides empty terms by default; an empty archive is zeros without links', async () => {
    const empty = await app.request('GET', CATS);
    expect(empty.body).toEqual({ rest_url: 'http://example.test/index.php/cms-json/vendor/events/v1/categories/', total: 0, total_pages: 0, categories: [] });
    expect(empty.headers.get('x-tec-total')).toBe('0');
    for (const name of ['A', 'b', 'C', 'd', 'E']) await cat({ name });
    expect((await app.request('GET', CATS)).body.total).toBe(0);
    expect((await app.request('GET', `${CATS}?hide_empty=false`)).body.total).toBe(5);
  });

  it('pages with links that carry only the page', async () => {
    for (let i = 1; i <= 9; i++) await cat({ name: `Term ${i}` });
    const q = 'hide_empty=false&per_page=3';
    const p1 = await app.request('GET', `${CATS}?${q}`);
    expect(p1.body).toMatchObject({ total: 9, total_pages: 3, next_rest_url: `${p1.body.rest_url}?page=2` });
    expect(p1.body).not.toHaveProperty('previous_rest_url');
    expect(p1.headers.get('x-tec-totalpages')).toBe('3');
    const p2 = await app.request('GET', `${CATS}?${q}&page=2`);
    expect(p2.body.previous_rest_url).toBe(p2.body.rest_url);
    expect(p2.body.next_rest_url).toBe(`${p2.body.rest_url}?page=3`);
    const p3 = await app.request('GET', `${CATS}?${q}&page=3`);
    expect(p3.body.previous_rest_url).toBe(`${p3.body.rest_url}?page=2`);
    expect(p3.body).not.toHaveProperty('next_rest_url');
    expect(names(p1).concat(names(p2), names(p3))).toHaveLength(9);
    expect(new Set(names(p1).concat(names(p2))).size).toBe(6);
  });

  it('search, include, exclude, order and orderby, parent, post/event and slug', async () => {
    const foo = await cat({ name: 'Foo' });
    const bar = await cat({ name: 'Bar' });
    const baz = await cat({ name: 'Baz' });
    await cat({ name: 'One', slug: 'foo-bar' });
    const all = 'hide_empty=false';
    expect((await app.request('GET', `${CATS}?${all}&search=foo`)).body.total).toBe(2);
    expect((await app.request('GET', `${CATS}?${all}&search=bar`)).body.total).toBe(2);
    expect((await app.request('GET', `${CATS}?${all}&search=zoot`)).status).toBe(200);
    expect((await app.request('GET', `${CATS}?${all}&exclude=${foo.id}`)).body.total).toBe(3);
    expect((await app.request('GET', `${CATS}?${all}&exclude=${foo.id},${bar.id}`)).body.total).toBe(2);
    expect((await app.request('GET', `${CATS}?${all}&exclude[]=2389999`)).status).toBe(400);
    expect((await app.request('GET', `${CATS}?${all}&include=${foo.id}`)).body.total).toBe(1);
    expect((await app.request('GET', `${CATS}?${all}&include=${foo.id},${bar.id},${baz.id}`)).body.total).toBe(3);
    expect((await app.request('GET', `${CATS}?${all}&include=2389999`)).status).toBe(400);
    const ids = (res: { body: any }) => res.body.categories.map((t: { id: number }) => t.id);
    const desc = ids(await app.request('GET', `${CATS}?${all}&orderby=id&order=desc`));
    expect(desc).toEqual([...desc].sort((a: number, b: number) => b - a));
    await cat({ name: 'a' });
    await cat({ name: 'C' });
    expect(names(await app.request('GET', `${CATS}?${all}&orderby=name&order=asc&per_page=50`))).toEqual(['a', 'Bar', 'Baz', 'C', 'Foo', 'One']);
    expect((await app.request('GET', `${CATS}?${all}&order=&orderby=id`)).status).toBe(400);
    expect((await app.request('GET', `${CATS}?${all}&order=desc&orderby=`)).status).toBe(400);

    const c1 = await cat({ name: 'Child 1', parent: foo.id });
    await cat({ name: 'Child 2', parent: foo.id });
    expect(names(await app.request('GET', `${CATS}?${all}&parent=${foo.id}`))).toEqual(['Child 1', 'Child 2']);
    expect((await app.request('GET', `${CATS}?${all}&parent=2389999`)).status).toBe(400);
    expect((await app.request('GET', `${CATS}?${all}&parent=`)).status).toBe(400);
    expect((await app.request('GET', `${CATS}/${c1.id}`)).body.urls.up).toBe(`http://example.test/index.php/cms-json/vendor/events/v1/categories/${foo.id}`);

    const e1 = (
      await app.admin('POST', `${V1}/events`, { body: { title: 'Two cats', start_date: 'tomorrow', end_date: 'tomorrow 1pm', categories: [foo.id, bar.id] } })
    ).body;
    const e2 = (await app.admin('POST', `${V1}/events`, { body: { title: 'One cat', start_date: 'tomorrow', end_date: 'tomorrow 1pm', categories: [baz.id] } }))
      .body;
    expect((await app.request('GET', `${CATS}?post=${e1.id}`)).body.total).toBe(2);
    expect((await app.request('GET', `${CATS}?event=${e1.id}`)).body.total).toBe(2);
    expect((await app.request('GET', `${CATS}?post=${e1.id}&event=${e2.id}`)).body.total).toBe(1);
    for (const bad of ['', '23', 'foo']) {
      expect((await app.request('GET', `${CATS}?post=${bad}`)).status).toBe(400);
      expect((await app.request('GET', `${CATS}?event=${bad}`)).status).toBe(400);
    }
    expect((await app.request('GET', `${CATS}?${all}&slug=foo`)).body.total).toBe(1);
    expect((await app.request('GET', `${CATS}?${all}&slug=nothing`)).body.total).toBe(0);
    expect((await app.request('GET', `${CATS}?slug=`)).status).toBe(400);
  });
});

describe('single terms', () => {
  it('get, create, update and delete a category; counts follow events', async () => {
    const parent = await cat({ name: 'Parent' });
    const created = await app.admin('POST', CATS, { body: { name: 'foo', slug: 'foo-bar', description: 'Term description', parent: parent.id } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: created.body.id,
      count: 0,
      description: 'Term description',
      // The event category's archives nest (hierarchical rewrite), so a child's link carries its parent.
      url: 'http://example.test/events/category/parent/foo-bar/',
      name: 'foo',
      slug: 'foo-bar',
      taxonomy: 'vendor_events_cat',
      parent: parent.id,
      meta: [],
      urls: {
        self: `http://example.test/index.php/cms-json/vendor/events/v1/categories/${created.body.id}`,
        collection: 'http://example.test/index.php/cms-json/vendor/events/v1/categories',
        up: `http://example.test/index.php/cms-json/vendor/events/v1/categories/${parent.id}`,
      },
    });
    for (const bad of [
      { name: '' },
      { name: 'x', description: '' },
      { name: 'x', slug: '' },
      { name: 'x', parent: '' },
      { name: 'x', parent: 2389999 },
      { name: 'x', parent: 'foo' },
    ]) {
      expect((await app.admin('POST', CATS, { body: bad })).status).toBe(400);
    }
    // The same name at the same level: the reference's error, with the existing id in data and additional_data.
    const dup = await app.admin('POST', CATS, { body: { name: 'foo', parent: parent.id } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      code: 'term_exists',
      message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: created.body.id },
      additional_data: [created.body.id, created.body.id],
    });
    expect(created.headers.get('location')).toBe(`http://example.test/index.php/cms-json/cms/v2/vendor_events_cat/${created.body.id}`);

    const ev = (
      await app.admin('POST', `${V1}/events`, { body: { title: 'Counted', start_date: 'tomorrow', end_date: 'tomorrow 1pm', categories: [created.body.id] } })
    ).body;
    await app.admin('POST', `${V1}/events`, { body: { title: 'Counted 2', start_date: 'tomorrow', end_date: 'tomorrow 1pm', categories: [created.body.id] } });
    await app.admin('POST', `${V1}/events`, {
      body: { title: 'Draft, not counted', start_date: 'tomorrow', end_date: 'tomorrow 1pm', categories: [created.body.id], status: 'draft' },
    });
    expect((await app.request('GET', `${CATS}/${created.body.id}`)).body.count).toBe(2);
    await app.admin('POST', `${V1}/events/${ev.id}`, { body: { categories: [] } });
    expect((await app.request('GET', `${CATS}/${created.body.id}`)).body.count).toBe(1);

    const updated = await app.admin('POST', `${CATS}/${created.body.id}`, { body: { name: 'Renamed', description: 'New description', slug: 'renamed' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Renamed', description: 'New description', slug: 'renamed' });
    expect((await app.admin('POST', `${CATS}/${created.body.id}`, { body: { name: '' } })).status).toBe(400);

    const deleted = await app.admin('DELETE', `${CATS}/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.body.id, name: 'Renamed', count: 1, parent: parent.id });
    expect((await app.request('GET', `${CATS}/${created.body.id}`)).status).toBe(400);
    expect(await store.collection('posts').count({ terms: created.body.id })).toBe(0);
    expect((await app.admin('DELETE', `${CATS}/${created.body.id}`)).status).toBe(400);
  });

  it('terms of another taxonomy are 400; non-numeric paths are 404', async () => {
    const tagRes = await app.admin('POST', `${V1}/tags`, { body: { name: 'A tag' } });
    expect(tagRes.headers.get('location')).toBe(`http://example.test/index.php/cms-json/cms/v2/tags/${tagRes.body.id}`);
    const tagDup = await app.admin('POST', `${V1}/tags`, { body: { name: 'a TAG' } });
    expect(tagDup.body).toMatchObject({
      code: 'term_exists',
      message: 'A term with the name provided already exists in this taxonomy.',
      additional_data: [tagRes.body.id, tagRes.body.id],
    });
    const tag = tagRes.body;
    expect(tag).not.toHaveProperty('parent');
    expect(tag.url).toBe('http://example.test/tag/a-tag/');
    expect((await app.request('GET', `${CATS}/${tag.id}`)).status).toBe(400);
    expect((await app.request('GET', `${V1}/tags/${tag.id}`)).status).toBe(200);
    expect((await app.request('GET', `${CATS}/2389`)).status).toBe(400);
    expect((await app.request('GET', `${CATS}/foo`)).status).toBe(404);
    expect((await app.request('GET', `${V1}/tags?parent=1`)).status).toBe(200);
  });

  it('tag archive works like the category archive', async () => {
    await cat({ name: 'Tag one' }, `${V1}/tags`);
    await cat({ name: 'Tag two' }, `${V1}/tags`);
    const res = await app.request('GET', `${V1}/tags?hide_empty=false&orderby=name&order=desc`);
    expect(names(res, 'tags')).toEqual(['Tag two', 'Tag one']);
    expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
  });
});
