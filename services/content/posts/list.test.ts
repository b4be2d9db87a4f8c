import { openStore } from '#libs/store/index';
import { TermsRepository } from '#libs/terms/repository';
import { startTestApp, type TestApp } from '../../../test/support/app';

/** The same list behaviour on both stores: the embedded SQLite store and MongoDB. */
const STORES: Array<[string, Record<string, string | undefined>]> = [
  ['the embedded store', {}],
  ['MongoDB', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `posts_list_${process.pid}_${Date.now()}` }],
];

describe.each(STORES)('post lists on %s', (_name, env) => {
  let app: TestApp;
  const ids: Record<string, number> = {};
  let catA: number;
  let catChild: number;
  let catB: number;
  let tagX: number;
  let editorId: number;

  const idsOf = (body: Array<{ id: number }>) => body.map((p) => p.id);

  async function create(key: string, body: Record<string, unknown>) {
    const res = await app.admin('POST', '/cms/v2/posts', { body: { status: 'publish', ...body } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    ids[key] = res.body.id;
  }

  beforeAll(async () => {
    app = await startTestApp(env);
    // Terms are made through the store port, as cms/v2 has no taxonomy routes in this service.
    const db = await openStore({ dataDir: app.config.DATA_DIR, mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB });
    const terms = new TermsRepository(db);
    catA = (await terms.create({ taxonomy: 'category', name: 'Alpha' })).id;
    catChild = (await terms.create({ taxonomy: 'category', name: 'Alpha child', parent: catA })).id;
    catB = (await terms.create({ taxonomy: 'category', name: 'Beta' })).id;
    tagX = (await terms.create({ taxonomy: 'post_tag', name: 'X' })).id;
    await db.close();
    const ed = await app.admin('POST', '/cms/v2/users', {
      body: { username: 'lister', email: 'lister@example.com', password: 'pw-123456', roles: ['editor'] },
    });
    editorId = ed.body.id;

    await create('apple', { title: 'Apple pie recipe', content: 'Sweet baking with apples', date: '2020-01-01T10:00:00', categories: [catA], tags: [tagX] });
    await create('banana', {
      title: 'Banana bread',
      content: 'Apple free',
      excerpt: 'Yellow loaf',
      date: '2020-02-01T10:00:00',
      categories: [catChild],
      format: 'aside',
    });
    await create('cherry', {
      title: 'Cherry tart',
      content: 'Red fruit',
      date: '2020-03-01T10:00:00',
      categories: [catA, catB],
      sticky: true,
      author: editorId,
    });
    await create('date', { title: 'Date squares', content: 'Dates and oats', date: '2020-04-01T10:00:00', categories: [catB], tags: [tagX] });
    await create('elder', { title: 'Elderflower cordial', content: 'Apple pie is not here', date: '2020-05-01T10:00:00' });
    for (let i = 0; i < 7; i++) await create(`filler${i}`, { title: `Filler ${i}`, content: 'x', date: `2019-0${i + 1}-01T00:00:00` });
  });
  afterAll(async () => {
    await app.close();
  });

  describe('paging', () => {
    it('sends totals and prev/next links built from the request', async () => {
      const first = await app.request('GET', '/cms/v2/posts?per_page=5');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-wp-total')).toBe('12');
      expect(first.headers.get('x-wp-totalpages')).toBe('3');
      expect(first.headers.get('link')).toContain('<http://example.test/index.php/cms-json/cms/v2/posts?per_page=5&page=2>; rel="next"');
      expect(first.headers.get('link')).not.toContain('rel="prev"');
      const mid = await app.request('GET', '/cms/v2/posts?per_page=5&page=2');
      expect(mid.headers.get('link')).toContain('per_page=5&page=1>; rel="prev"');
      expect(mid.headers.get('link')).toContain('per_page=5&page=3>; rel="next"');
      const last = await app.request('GET', '/cms/v2/posts?per_page=5&page=3');
      expect(last.body).toHaveLength(2);
      expect(last.headers.get('link')).not.toContain('rel="next"');
      const past = await app.request('GET', '/cms/v2/posts?per_page=5&page=4');
      expect(past.status).toBe(400);
      expect(past.body).toEqual({
        code: 'rest_post_invalid_page_number',
        message: 'The page number requested is larger than the number of pages available.',
        data: { status: 400 },
      });
      const none = await app.request('GET', '/cms/v2/posts?search=nothingmatches');
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      expect(none.headers.get('x-wp-total')).toBe('0');
      const offset = await app.request('GET', '/cms/v2/posts?offset=10&per_page=5');
      expect(offset.body).toHaveLength(2);
      expect(offset.headers.get('x-wp-total')).toBe('12');
      // An empty offset (0) pages by `page`, as WP_Query does.
      const second = await app.request('GET', '/cms/v2/posts?per_page=5&page=2');
      const zero = await app.request('GET', '/cms/v2/posts?per_page=5&page=2&offset=0');
      expect(zero.body.map((p: { id: number }) => p.id)).toEqual(second.body.map((p: { id: number }) => p.id));
    });

    it('HEAD counts and sends the headers without a body; _envelope wraps them', async () => {
      const head = await app.request('HEAD', '/cms/v2/posts?per_page=5');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('x-wp-total')).toBe('12');
      const env = await app.request('GET', '/cms/v2/posts?per_page=5&_envelope');
      expect(env.body.status).toBe(200);
      expect(env.body.headers['X-WP-Total']).toBe('12');
      expect(env.body.body).toHaveLength(5);
    });

    it('reports bad list arguments with the reference messages', async () => {
      const bounds = await app.request('GET', '/cms/v2/posts?per_page=0&page=0');
      expect(bounds.status).toBe(400);
      expect(bounds.body.data.params).toEqual({
        page: 'page must be greater than or equal to 1',
        per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
      });
      for (const q of [
        'per_page=-1',
        'per_page=101',
        'context=banana',
        'after=foo',
        'author_exclude=invalid',
        'include=invalid',
        'sticky=nothanks',
        'orderby=nope',
        'status=nope',
        'format=nope',
        'categories[operator]=XOR',
      ]) {
        const res = await app.request('GET', `/cms/v2/posts?${q}`);
        expect([q, res.status, res.body.code]).toEqual([q, 400, 'rest_invalid_param']);
      }
      const relevance = await app.request('GET', '/cms/v2/posts?orderby=relevance');
      expect(relevance.body).toEqual({
        code: 'rest_no_search_term_defined',
        message: 'You need to define a search term to order by relevance.',
        data: { status: 400 },
      });
      const include = await app.request('GET', '/cms/v2/posts?orderby=include');
      expect(include.body.code).toBe('rest_orderby_include_missing_include');
    });
  });

  describe('filters', () => {
    it('search in every column or the chosen ones, exact, exclusions and relevance', async () => {
      const all = await app.request('GET', '/cms/v2/posts?search=apple');
      expect(idsOf(all.body).sort()).toEqual([ids.apple, ids.banana, ids.elder].sort());
      const titles = await app.request('GET', '/cms/v2/posts?search=apple&search_columns=post_title');
      expect(idsOf(titles.body)).toEqual([ids.apple]);
      const excerpt = await app.request('GET', '/cms/v2/posts?search=yellow&search_columns[]=post_excerpt');
      expect(idsOf(excerpt.body)).toEqual([ids.banana]);
      const exact = await app.request('GET', '/cms/v2/posts?search=Red%20fruit&search_semantics=exact');
      expect(idsOf(exact.body)).toEqual([ids.cherry]);
      const words = await app.request('GET', '/cms/v2/posts?search=apple%20pie');
      expect(idsOf(words.body).sort()).toEqual([ids.apple, ids.elder].sort());
      const without = await app.request('GET', '/cms/v2/posts?search=apple%20-free');
      expect(idsOf(without.body).sort()).toEqual([ids.apple, ids.elder].sort());
      const ranked = await app.request('GET', '/cms/v2/posts?search=apple%20pie&orderby=relevance');
      expect(idsOf(ranked.body)).toEqual([ids.apple, ids.elder]);
      expect(ranked.headers.get('x-wp-total')).toBe('2');
    });

    it('dates, authors, ids, slugs, sticky and format', async () => {
      const after = await app.request('GET', '/cms/v2/posts?after=2020-02-15T00:00:00&before=2020-04-15T00:00:00');
      expect(idsOf(after.body)).toEqual([ids.date, ids.cherry]);
      const modified = await app.request(
        'GET',
        `/cms/v2/posts?modified_after=${encodeURIComponent('2020-04-15T00:00:00Z')}&modified_before=2020-06-01T00:00:00Z`,
      );
      expect(idsOf(modified.body)).toEqual([ids.elder]);
      const author = await app.request('GET', `/cms/v2/posts?author=${editorId}`);
      expect(idsOf(author.body)).toEqual([ids.cherry]);
      const notAuthor = await app.request('GET', `/cms/v2/posts?author_exclude=${editorId}&per_page=100`);
      expect(idsOf(notAuthor.body)).not.toContain(ids.cherry);
      const include = await app.request('GET', `/cms/v2/posts?include=${ids.date},${ids.apple},${ids.cherry}&orderby=include`);
      expect(idsOf(include.body)).toEqual([ids.date, ids.apple, ids.cherry]);
      const exclude = await app.request('GET', `/cms/v2/posts?include=${ids.date},${ids.apple}&exclude=${ids.apple}`);
      expect(idsOf(exclude.body)).toEqual([ids.date]);
      const slugs = await app.request('GET', '/cms/v2/posts?slug=date-squares,apple-pie-recipe&orderby=include_slugs');
      expect(idsOf(slugs.body)).toEqual([ids.date, ids.apple]);
      const sticky = await app.request('GET', '/cms/v2/posts?sticky=true');
      expect(idsOf(sticky.body)).toEqual([ids.cherry]);
      const notSticky = await app.request('GET', '/cms/v2/posts?sticky=false&per_page=100');
      expect(idsOf(notSticky.body)).not.toContain(ids.cherry);
      const stickyFirst = await app.request('GET', '/cms/v2/posts?ignore_sticky=false&per_page=2');
      expect(idsOf(stickyFirst.body)).toEqual([ids.cherry, ids.elder]);
      const format = await app.request('GET', '/cms/v2/posts?format=aside');
      expect(idsOf(format.body)).toEqual([ids.banana]);
      const standard = await app.request('GET', '/cms/v2/posts?format[]=standard&per_page=100');
      expect(idsOf(standard.body)).not.toContain(ids.banana);
    });

    it('categories and tags in both forms, with children, AND, exclusions and tax_relation', async () => {
      const list = await app.request('GET', `/cms/v2/posts?categories=${catA}`);
      expect(idsOf(list.body)).toEqual([ids.cherry, ids.apple]);
      const children = await app.request('GET', `/cms/v2/posts?categories[terms]=${catA}&categories[include_children]=true`);
      expect(idsOf(children.body)).toEqual([ids.cherry, ids.banana, ids.apple]);
      const and = await app.request('GET', `/cms/v2/posts?categories[terms][]=${catA}&categories[terms][]=${catB}&categories[operator]=AND`);
      expect(idsOf(and.body)).toEqual([ids.cherry]);
      const exclude = await app.request('GET', `/cms/v2/posts?categories_exclude=${catA}&tags=${tagX}`);
      expect(idsOf(exclude.body)).toEqual([ids.date]);
      const or = await app.request('GET', `/cms/v2/posts?categories=${catChild}&tags=${tagX}&tax_relation=OR`);
      expect(idsOf(or.body)).toEqual([ids.date, ids.banana, ids.apple]);
      const tagsExclude = await app.request('GET', `/cms/v2/posts?tags_exclude[terms]=${tagX}&categories=${catA},${catB}`);
      expect(idsOf(tagsExclude.body)).toEqual([ids.cherry]);
      const unknown = await app.request('GET', '/cms/v2/posts?categories=999999');
      expect(unknown.body).toEqual([]);
      const json = await app.request('GET', `/cms/v2/posts?categories=${catA}&_fields=id,categories,class_list`);
      expect(json.body[1].class_list).toContain('category-alpha');
      expect(json.body[1].class_list).toContain('tag-x');
    });

    it('keeps the published counts of terms as posts are published, retagged and trashed', async () => {
      const counts = async () => {
        const db = await openStore({ dataDir: app.config.DATA_DIR, mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB });
        try {
          const rows = await db.collection('terms').find({ id: { $in: [catA, catB, tagX] } });
          return Object.fromEntries(rows.map((r) => [r.id as number, r.count as number]));
        } finally {
          await db.close();
        }
      };
      expect(await counts()).toEqual({ [catA]: 2, [catB]: 2, [tagX]: 2 });
      const p = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Counted', categories: [catA], tags: [tagX] } });
      expect((await counts())[catA]).toBe(2);
      await app.admin('PUT', `/cms/v2/posts/${p.body.id}`, { body: { status: 'publish' } });
      expect(await counts()).toEqual({ [catA]: 3, [catB]: 2, [tagX]: 3 });
      await app.admin('PUT', `/cms/v2/posts/${p.body.id}`, { body: { categories: [catB], tags: [] } });
      expect(await counts()).toEqual({ [catA]: 2, [catB]: 3, [tagX]: 2 });
      await app.admin('DELETE', `/cms/v2/posts/${p.body.id}`);
      expect(await counts()).toEqual({ [catA]: 2, [catB]: 2, [tagX]: 2 });
    });

    it('orders by every attribute', async () => {
      const title = await app.request('GET', '/cms/v2/posts?orderby=title&order=asc&per_page=3&_fields=title');
      expect(title.body.map((p: { title: { rendered: string } }) => p.title.rendered)).toEqual(['Apple pie recipe', 'Banana bread', 'Cherry tart']);
      const slug = await app.request('GET', '/cms/v2/posts?orderby=slug&order=desc&per_page=1&_fields=slug');
      expect(slug.body[0].slug).toBe('filler-6');
      const id = await app.request('GET', '/cms/v2/posts?orderby=id&order=asc&per_page=1');
      expect(id.body[0].id).toBe(ids.apple);
      const date = await app.request('GET', '/cms/v2/posts?order=asc&per_page=1');
      expect(date.body[0].id).toBe(ids.filler0);
      for (const orderby of ['author', 'modified', 'parent']) {
        const res = await app.request('GET', `/cms/v2/posts?orderby=${orderby}`);
        expect(res.status).toBe(200);
      }
      const pages = await app.request('GET', '/cms/v2/pages?orderby=menu_order');
      expect(pages.status).toBe(200);
      const postsMenu = await app.request('GET', '/cms/v2/posts?orderby=menu_order');
      expect(postsMenu.status).toBe(400);
    });

    it('status lists need the right to see them; any means every searchable status', async () => {
      const draft = await app.admin('POST', '/cms/v2/posts', { body: { title: 'A draft in the list' } });
      const guest = await app.request('GET', '/cms/v2/posts?status=draft');
      expect(guest.status).toBe(400);
      expect(guest.body.code).toBe('rest_invalid_param');
      expect(guest.body.data.details.status).toEqual({ code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } });
      const admin = await app.admin('GET', '/cms/v2/posts?status=draft');
      expect(idsOf(admin.body)).toEqual([draft.body.id]);
      const any = await app.admin('GET', '/cms/v2/posts?status=any&per_page=100');
      expect(any.headers.get('x-wp-total')).toBe('13');
    });
  });

  it("keeps a guest's list answer only while nothing it shows was written, by this process or, on the embedded store, another", async () => {
    const url = `/cms/v2/posts?include=${ids.apple}&_fields=id,title`;
    const title = async () => (await app.request('GET', url)).body[0].title.rendered;
    expect(await title()).toBe('Apple pie recipe');
    // Another connection to the same data renames the post, as another process of the deployment would.
    const db = await openStore({ dataDir: app.config.DATA_DIR, mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB });
    try {
      await db.collection('posts').updateOne({ id: ids.apple }, { $set: { title: 'Apple pie, renamed' } });
    } finally {
      await db.close();
    }
    if (!env.MONGO_URL) {
      // The embedded store counts every commit, so the next request sees it.
      expect(await title()).toBe('Apple pie, renamed');
    } else {
      // MongoDB tells a process nothing of other clients' writes: what is kept may stay its second, so
      // ask until the change shows (a bound of a few seconds, not a timing window).
      const deadline = Date.now() + 5000;
      while ((await title()) !== 'Apple pie, renamed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await title()).toBe('Apple pie, renamed');
    }
    // This process's own write shows at once on both.
    await app.admin('POST', `/cms/v2/posts/${ids.apple}`, { body: { title: 'Apple pie recipe' } });
    expect(await title()).toBe('Apple pie recipe');
  });
});
