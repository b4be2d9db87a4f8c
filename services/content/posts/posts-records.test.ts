import { app, post, sortedKeys, usePostsApp } from './posts.fixtures';

usePostsApp();

describe('records per context', () => {
  it('has the reference keys in view, embed and edit for posts and pages', async () => {
    const p = await post({ title: 'Keys', status: 'publish' });
    const view = await app.request('GET', `/cms/v2/posts/${p.id}`);
    expect(sortedKeys(view.body)).toEqual(
      'author categories class_list comment_status content date date_gmt excerpt featured_media format guid id link meta modified modified_gmt ping_status slug status sticky tags template title type'.split(
        ' ',
      ),
    );
    const edit = await app.admin('GET', `/cms/v2/posts/${p.id}?context=edit`);
    expect(sortedKeys(edit.body)).toEqual([...sortedKeys(view.body), 'generated_slug', 'password', 'permalink_template'].sort());
    const embed = await app.request('GET', `/cms/v2/posts/${p.id}?context=embed`);
    expect(sortedKeys(embed.body)).toEqual('author date excerpt featured_media id link slug title type'.split(' '));
    expect(view.body.title).toEqual({ rendered: 'Keys' });
    expect(view.body.guid).toEqual({ rendered: `http://example.test/?p=${p.id}` });
    const page = await post({ title: 'A page', status: 'publish' }, '/cms/v2/pages');
    const pv = await app.request('GET', `/cms/v2/pages/${page.id}`);
    expect(sortedKeys(pv.body)).toEqual(
      'author class_list comment_status content date date_gmt excerpt featured_media guid id link menu_order meta modified modified_gmt parent ping_status slug status template title type'.split(
        ' ',
      ),
    );
    expect(pv.body.comment_status).toBe('closed');
    expect(pv.headers.get('link')).toContain(`<http://example.test/a-page/>; rel="alternate"; type=text/html`);
  });

  it('guests get rest_forbidden_context for edit and rest_forbidden for drafts', async () => {
    const d = await post({ title: 'Private draft' });
    const edit = await app.request('GET', `/cms/v2/posts/${d.id}?context=edit`);
    expect(edit.status).toBe(401);
    expect(edit.body).toEqual({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to edit this post.', data: { status: 401 } });
    const list = await app.request('GET', '/cms/v2/posts?context=edit');
    expect(list.status).toBe(401);
    expect(list.body.message).toBe('Sorry, you are not allowed to edit posts in this post type.');
    const draft = await app.request('GET', `/cms/v2/posts/${d.id}`);
    expect(draft.status).toBe(401);
    expect(draft.body.code).toBe('rest_forbidden');
  });

  it('_fields trims, _embed follows the author link, Allow and targetHints follow permissions', async () => {
    const p = await post({ title: 'Embedded', status: 'publish' });
    const fields = await app.request('GET', `/cms/v2/posts/${p.id}?_fields=id,slug`);
    expect(fields.body).toEqual({ id: p.id, slug: 'embedded' });
    const nested = await app.admin('GET', `/cms/v2/posts/${p.id}?context=edit&_fields=content.rendered`);
    expect(nested.body).toEqual({ content: { rendered: '' } });
    const embedded = await app.request('GET', `/cms/v2/posts/${p.id}?_embed=author`);
    expect(embedded.body._embedded.author[0]).toMatchObject({ id: 1, slug: 'admin' });
    const anon = await app.request('GET', `/cms/v2/posts/${p.id}`);
    expect(anon.headers.get('allow')).toBe('GET');
    expect(anon.body._links.self[0].targetHints.allow).toEqual(['GET']);
    const admin = await app.admin('GET', `/cms/v2/posts/${p.id}`);
    expect(admin.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(admin.body._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('answers the route schema on OPTIONS', async () => {
    const res = await app.request('OPTIONS', '/cms/v2/posts');
    expect(res.status).toBe(200);
    expect(res.body.schema.properties.meta.properties._EventAllDay).toMatchObject({ type: 'boolean', default: false });
    expect(res.body.endpoints[0].allow_batch).toEqual({ v1: true });
  });
});

describe('rendering', () => {
  it('wraps paragraphs, curls quotes and generates excerpts of 55 words', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const p = await post({ title: 'It\'s "quoted"', content: `${words}\n\nline one\nline two`, status: 'publish' });
    expect(p.title.rendered).toBe('It&#8217;s &#8220;quoted&#8221;');
    expect(p.content.rendered).toBe(`<p>${words}</p>\n<p>line one<br />\nline two</p>\n`);
    expect(p.excerpt.rendered).toBe(`<p>${words.split(' ').slice(0, 55).join(' ')} [&hellip;]</p>\n`);
    const short = await app.request('GET', `/cms/v2/posts/${p.id}?excerpt_length=3`);
    expect(short.body.excerpt.rendered).toBe('<p>w0 w1 w2 [&hellip;]</p>\n');
    const blocks = await post({ title: 'Blocks', content: '<!-- wp:paragraph -->\n<p>Block text</p>\n<!-- /wp:paragraph -->', status: 'publish' });
    expect(blocks.content).toMatchObject({ rendered: '<p>Block text</p>\n', block_version: 1 });
  });
});

describe('meta', () => {
  it('reads every key with its default, writes typed values, resets with null, refuses wrong types', async () => {
    const p = await post({ title: 'With meta', meta: { _EventAllDay: true, _EventCost: '10', _EventVenueID: [3, 4], unknown_key: 'ignored' } });
    expect(p.meta).toMatchObject({ _EventAllDay: true, _EventCost: '10', _EventVenueID: [3, 4], _EventOrganizerID: [], _VenueShowMap: false, footnotes: '' });
    expect(Object.keys(p.meta)).toHaveLength(35);
    expect(p.meta.unknown_key).toBeUndefined();
    const reset = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventAllDay: null, _VenueCity: 'Berlin' } } });
    expect(reset.body.meta).toMatchObject({ _EventAllDay: false, _EventCost: '10', _VenueCity: 'Berlin' });
    const wrong = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventAllDay: 'yes' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('rest_invalid_param');
    expect(wrong.body.data.params.meta).toBe('meta[_EventAllDay] is not of type boolean.');
    const number = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventCost: 12 } } });
    expect(number.body.data.params.meta).toBe('meta[_EventCost] is not of type string.');
    const list = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { meta: { _EventOrganizerID: ['x'] } } });
    expect(list.body.data.params.meta).toBe('meta[_EventOrganizerID][0] is not of type number.');
    const page = await post({ title: 'Page meta', meta: { _VenueLat: '52.5' } }, '/cms/v2/pages');
    expect(page.meta._VenueLat).toBe('52.5');
    const unchanged = await app.admin('GET', `/cms/v2/posts/${p.id}?context=edit`);
    expect(unchanged.body.meta._EventAllDay).toBe(false);
  });
});

describe('pages', () => {
  it('parent and menu_order, hierarchical links, the up link and its embed', async () => {
    const top = await post({ title: 'Top', status: 'publish' }, '/cms/v2/pages');
    const child = await post({ title: 'Child', status: 'publish', parent: top.id, menu_order: 3 }, '/cms/v2/pages');
    expect(child).toMatchObject({ parent: top.id, menu_order: 3, link: 'http://example.test/top/child/' });
    expect(child._links.up[0]).toEqual({ embeddable: true, href: `http://example.test/index.php/cms-json/cms/v2/pages/${top.id}` });
    const embedded = await app.request('GET', `/cms/v2/pages/${child.id}?_embed=up`);
    expect(embedded.body._embedded.up[0]).toMatchObject({ id: top.id, slug: 'top' });
    const bad = await app.admin('POST', '/cms/v2/pages', { body: { title: 'x', parent: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post parent ID.', data: { status: 400 } });
    const unknown = await app.admin('POST', '/cms/v2/pages', { body: { title: 'x', parent: 987654 } });
    expect(unknown.body.code).toBe('rest_post_invalid_id');
    const cleared = await app.admin('PUT', `/cms/v2/pages/${child.id}`, { body: { parent: 0, menu_order: 1 } });
    expect(cleared.body).toMatchObject({ parent: 0, menu_order: 1 });
    const byParent = await app.admin('PUT', `/cms/v2/pages/${child.id}`, { body: { parent: top.id } });
    expect(byParent.body.parent).toBe(top.id);
    const list = await app.request('GET', `/cms/v2/pages?parent=${top.id}`);
    expect(list.body.map((p: { id: number }) => p.id)).toEqual([child.id]);
    const excl = await app.request('GET', `/cms/v2/pages?parent_exclude=${top.id}&menu_order=0`);
    expect(excl.body.map((p: { id: number }) => p.id)).toContain(top.id);
    const badArgs = await app.request('GET', '/cms/v2/pages?parent=some-slug&menu_order=top-first');
    expect(badArgs.status).toBe(400);
    expect(Object.keys(badArgs.body.data.params).sort()).toEqual(['menu_order', 'parent']);
    const deleted = await app.admin('DELETE', `/cms/v2/pages/${top.id}?force=true`);
    expect(deleted.status).toBe(200);
    const orphan = await app.admin('GET', `/cms/v2/pages/${child.id}`);
    expect(orphan.body.parent).toBe(0);
  });
});

describe('odd input', () => {
  it('gets an answer in the reference envelope, never a 500', async () => {
    const queries = [
      'offset=-5',
      'page=99999999999999999999',
      'per_page=10&offset=99999999999999999999',
      'search=%25',
      'search=--',
      'slug[]=',
      'categories[terms]=',
      'status[]=any&status[]=trash',
      'orderby=include_slugs',
      'after=9999-12-31T23:59:59',
    ];
    for (const q of queries) {
      const res = await app.admin('GET', `/cms/v2/posts?${q}`);
      expect([q, res.status < 500, typeof (res.status >= 400 ? res.body.code : 'ok')]).toEqual([q, true, 'string']);
    }
    const bodies = [
      { title: { raw: 123 } },
      { title: 'a', meta: 'x' },
      { title: 'a', categories: [{}] },
      { title: 'a', password: 123 },
      { title: 'a', content: { raw: null } },
      { title: 'a', date: '' },
    ];
    for (const body of bodies) {
      const res = await app.admin('POST', '/cms/v2/posts', { body });
      expect([body, res.status, res.body.code]).toEqual([body, 400, 'rest_invalid_param']);
    }
    const array = await app.admin('POST', '/cms/v2/posts', { raw: '[1,2]' });
    expect(array.body.code).toBe('empty_content');
  });

  it('a page cannot become its own ancestor', async () => {
    const a = await post({ title: 'Loop A' }, '/cms/v2/pages');
    const b = await post({ title: 'Loop B', parent: a.id }, '/cms/v2/pages');
    const self = await app.admin('PUT', `/cms/v2/pages/${a.id}`, { body: { parent: a.id } });
    expect(self.body.parent).toBe(0);
    const loop = await app.admin('PUT', `/cms/v2/pages/${a.id}`, { body: { parent: b.id } });
    expect(loop.body.parent).toBe(0);
  });
});
