import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const sortedKeys = (o: Record<string, unknown>) =>
  Object.keys(o)
    .filter((k) => k !== '_links')
    .sort();
const future = (days: number) => new Date(Date.now() + days * 86400000).toISOString().slice(0, 19);

async function post(body: Record<string, unknown>, path = '/cms/v2/posts') {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('create', () => {
  it('answers 201 with Location and the edit-context record; a draft by default, in the default category', async () => {
    const res = await app.admin('POST', '/cms/v2/posts', { body: { title: 'First draft', content: 'Some words' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`http://example.test/index.php/cms-json/cms/v2/posts/${res.body.id}`);
    expect(res.body).toMatchObject({
      status: 'draft',
      slug: '',
      generated_slug: 'first-draft',
      type: 'post',
      title: { raw: 'First draft', rendered: 'First draft' },
      content: { raw: 'Some words', rendered: '<p>Some words</p>\n', protected: false, block_version: 0 },
      excerpt: { raw: '', rendered: '<p>Some words</p>\n', protected: false },
      author: 1,
      comment_status: 'open',
      ping_status: 'open',
      format: 'standard',
      sticky: false,
      template: '',
      password: '',
      tags: [],
      permalink_template: 'http://example.test/%postname%/',
    });
    expect(res.body.categories).toHaveLength(1);
    expect(res.body.link).toBe(`http://example.test/?p=${res.body.id}`);
    expect(res.body.guid).toEqual({ rendered: `http://example.test/?p=${res.body.id}`, raw: `http://example.test/?p=${res.body.id}` });
    expect(res.body._links['version-history'][0].count).toBe(0);
  });

  it('publishes with a slug from the title, made unique with -2, -3', async () => {
    const a = await post({ title: 'Same Title', status: 'publish' });
    const b = await post({ title: 'Same Title', status: 'publish' });
    const c = await post({ title: 'Same Title', status: 'draft', slug: 'same-title' });
    expect([a.slug, b.slug, c.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
    expect(a.link).toBe('http://example.test/same-title/');
    const accents = await post({ title: 'x', slug: 'tęst-acceńted-chäræcters', status: 'publish' });
    expect(accents.slug).toBe('test-accented-charaecters');
  });

  it('refuses an id, an unknown status or format, a bad author and empty content', async () => {
    const exists = await app.admin('POST', '/cms/v2/posts', { body: { id: 5, title: 'x' } });
    expect(exists.status).toBe(400);
    expect(exists.body.code).toBe('rest_post_exists');
    const status = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', status: 'teststatus' } });
    expect(status.status).toBe(400);
    expect(status.body.code).toBe('rest_invalid_param');
    expect(status.body.data.params.status).toMatch(/^status is not one of publish, future, draft, pending, private, vendor-ea-success/);
    const format = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', format: 'testformat' } });
    expect(format.body.data.details.format.code).toBe('rest_not_in_enum');
    const author = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', author: 9999 } });
    expect(author.status).toBe(400);
    expect(author.body.code).toBe('rest_invalid_author');
    const empty = await app.admin('POST', '/cms/v2/posts', { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: 'empty_content', message: 'Content, title, and excerpt are empty.', data: { status: 400 } });
    const emptyPage = await app.admin('POST', '/cms/v2/pages', { body: {} });
    expect(emptyPage.status).toBe(201);
    const link = await post({ title: 'Linked', format: 'link' });
    expect(link.format).toBe('link');
  });

  it('takes title, content and excerpt as strings or {raw}, and ignores read-only fields', async () => {
    const p = await post({ title: { raw: 'Raw title' }, content: { raw: 'Raw body' }, excerpt: 'Short', modified: '2001-01-01T00:00:00', status: 'publish' });
    expect(p.title.raw).toBe('Raw title');
    expect(p.content.raw).toBe('Raw body');
    expect(p.excerpt).toEqual({ raw: 'Short', rendered: '<p>Short</p>\n', protected: false });
    expect(p.modified.startsWith('2001')).toBe(false);
  });

  it('keeps every known status, including the importer ones', async () => {
    for (const status of [
      'pending',
      'private',
      'vendor-ea-success',
      'vendor-ea-failed',
      'vendor-ea-schedule',
      'vendor-ea-pending',
      'vendor-ea-draft',
      'vendor-ignored',
    ]) {
      const p = await post({ title: `In ${status}`, status });
      expect(p.status).toBe(status);
    }
    const list = await app.admin('GET', '/cms/v2/posts?status=vendor-ea-success,vendor-ignored&context=edit');
    expect(list.status).toBe(200);
    expect(list.body.map((p: { status: string }) => p.status).sort()).toEqual(['vendor-ea-success', 'vendor-ignored']);
  });
});

describe('dates and statuses', () => {
  it('reads date with an offset into the site zone and date_gmt as UTC; rejects impossible dates', async () => {
    const a = await post({ title: 'Dated', date: '2010-01-01T02:00:00-10:00', status: 'publish' });
    expect(a.date).toBe('2010-01-01T12:00:00');
    expect(a.modified).toBe('2010-01-01T12:00:00');
    expect(a.date_gmt).toBe('2010-01-01T12:00:00');
    const b = await post({ title: 'Dated gmt', date_gmt: '2010-01-01T02:00:00', status: 'publish' });
    expect(b.date).toBe('2010-01-01T02:00:00');
    const bad = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', date: '2010-60-01T02:00:00Z' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.details.date.code).toBe('rest_invalid_date');
    const badGmt = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', date_gmt: '2010-60-01T02:00:00' } });
    expect(badGmt.status).toBe(400);
  });

  it('publishing with a future date schedules (future) and a past date publishes again', async () => {
    const p = await post({ title: 'Scheduled', status: 'publish', date: future(3) });
    expect(p.status).toBe('future');
    expect(p.link).toBe(`http://example.test/?p=${p.id}`);
    const back = await app.admin('PUT', `/cms/v2/posts/${p.id}`, { body: { date: '2020-01-01T00:00:00' } });
    expect(back.body.status).toBe('publish');
    const f = await post({ title: 'Future to past', status: 'future', date: '2019-05-05T05:05:05' });
    expect(f.status).toBe('publish');
  });

  it('a draft without a date floats: date_gmt is computed, and null resets a set date', async () => {
    const d = await post({ title: 'Floating', status: 'draft' });
    expect(d.date_gmt).toBe(d.date);
    // One value for the whole test: computing it again could cross a second boundary.
    const inTenDays = future(10);
    const set = await app.admin('PATCH', `/cms/v2/posts/${d.id}`, { body: { date: inTenDays } });
    expect(set.body.date).toBe(inTenDays);
    const reset = await app.admin('PATCH', `/cms/v2/posts/${d.id}`, { body: { date_gmt: null } });
    expect(reset.status).toBe(200);
    expect(reset.body.date).not.toBe(inTenDays);
    expect(reset.body.date_gmt).toBe(reset.body.date);
  });

  it('uses the site time zone for local dates', async () => {
    const zoned = await startTestApp({ SITE_TIMEZONE: 'America/New_York' });
    try {
      const res = await zoned.admin('POST', '/cms/v2/posts', { body: { title: 'NY', date: '2016-12-12T14:00:00', status: 'publish' } });
      expect(res.body.date).toBe('2016-12-12T14:00:00');
      expect(res.body.date_gmt).toBe('2016-12-12T19:00:00');
      const after = await zoned.request('GET', '/cms/v2/posts?after=2016-12-12T18:30:00Z');
      expect(after.body.map((p: { id: number }) => p.id)).toEqual([res.body.id]);
      const before = await zoned.request('GET', '/cms/v2/posts?after=2016-12-12T19:30:00Z');
      expect(before.body).toEqual([]);
    } finally {
      await zoned.close();
    }
  });

  it('contributors create pending posts that float until published', async () => {
    const res = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Pending one', status: 'pending' } });
    expect(res.body.status).toBe('pending');
    expect(res.body.date_gmt).toBe(res.body.date);
  });
});

describe('passwords', () => {
  let id: number;
  beforeAll(async () => {
    id = (await post({ title: 'Secret', content: 'Hidden body', password: 'letmein', status: 'publish' })).id;
  });

  it('hides content and excerpt without the password, shows them with it, refuses a wrong one', async () => {
    const anon = await app.request('GET', `/cms/v2/posts/${id}`);
    expect(anon.status).toBe(200);
    expect(anon.body.title.rendered).toBe('Secret');
    expect(anon.body.content).toEqual({ rendered: '', protected: true });
    expect(anon.body.excerpt).toEqual({ rendered: '', protected: true });
    expect(anon.body.class_list).toContain('post-password-required');
    const right = await app.request('GET', `/cms/v2/posts/${id}?password=letmein`);
    expect(right.body.content).toEqual({ rendered: '<p>Hidden body</p>\n', protected: true });
    const wrong = await app.request('GET', `/cms/v2/posts/${id}?password=nope`);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: 'rest_post_incorrect_password', message: 'Incorrect post password.', data: { status: 403 } });
    const edit = await app.admin('GET', `/cms/v2/posts/${id}?context=edit`);
    expect(edit.body.content.rendered).toBe('<p>Hidden body</p>\n');
    expect(edit.body.password).toBe('letmein');
  });

  it('a password and sticky do not go together', async () => {
    const both = await app.admin('POST', '/cms/v2/posts', { body: { title: 'x', password: '123', sticky: true } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ code: 'rest_invalid_field', message: 'A post can not be sticky and have a password.', data: { status: 400 } });
    const blank = await post({ title: 'Sticky, no password', password: '', sticky: true });
    expect(blank).toMatchObject({ sticky: true, password: '' });
    const onProtected = await app.admin('PUT', `/cms/v2/posts/${id}`, { body: { sticky: true } });
    expect(onProtected.body.message).toBe('A password protected post can not be set to sticky.');
    const onSticky = await app.admin('PUT', `/cms/v2/posts/${blank.id}`, { body: { password: 'pw' } });
    expect(onSticky.body.message).toBe('A sticky post can not be password protected.');
  });
});

describe('update', () => {
  it('changes only what is sent, answers 200 in edit context, makes a sent slug unique', async () => {
    const taken = await post({ title: 'Sample', slug: 'sample-slug', status: 'publish' });
    const d = await post({ title: 'Other', content: 'Body' });
    const res = await app.admin('PUT', `/cms/v2/posts/${d.id}`, { body: { slug: 'sample-slug' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.body).toMatchObject({ slug: 'sample-slug-2', title: { raw: 'Other' }, content: { raw: 'Body' } });
    expect(taken.slug).toBe('sample-slug');
    const missing = await app.admin('PUT', '/cms/v2/posts/999999', { body: { title: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('rest_post_invalid_id');
    const wrongType = await app.admin('PUT', `/cms/v2/pages/${d.id}`, { body: { title: 'x' } });
    expect(wrongType.status).toBe(404);
  });

  it('sets and clears categories and tags (unknown ids dropped), sticky and format', async () => {
    const p = await post({ title: 'Termed', categories: '1,424242', tags: [] });
    expect(p.categories).toEqual([1]);
    const cleared = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { categories: [], sticky: true, format: 'aside' } });
    expect(cleared.body).toMatchObject({ categories: [], sticky: true, format: 'aside' });
    const std = await app.admin('PATCH', `/cms/v2/posts/${p.id}`, { body: { format: 'standard', sticky: false } });
    expect(std.body).toMatchObject({ format: 'standard', sticky: false });
  });

  it('refuses an unavailable template but accepts "" and the current one', async () => {
    const p = await post({ title: 'Templated' });
    const bad = await app.admin('PUT', `/cms/v2/posts/${p.id}`, { body: { template: 'no-such.php' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params.template).toBe('template is not one of .');
    const blank = await app.admin('PUT', `/cms/v2/posts/${p.id}`, { body: { template: '' } });
    expect(blank.body.template).toBe('');
  });
});

describe('delete', () => {
  it('trashes, refuses to trash twice, deletes with force, then 404', async () => {
    const p = await post({ title: 'Doomed', status: 'publish', slug: 'doomed' });
    const trash = await app.admin('DELETE', `/cms/v2/posts/${p.id}`);
    expect(trash.status).toBe(200);
    expect(trash.body).toMatchObject({ id: p.id, status: 'trash', slug: 'doomed__trashed', title: { raw: 'Doomed' } });
    const again = await app.admin('DELETE', `/cms/v2/posts/${p.id}?force=false`);
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } });
    const restore = await app.admin('PUT', `/cms/v2/posts/${p.id}`, { body: { status: 'publish' } });
    expect(restore.body).toMatchObject({ status: 'publish', slug: 'doomed' });
    const gone = await app.admin('DELETE', `/cms/v2/posts/${p.id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect(gone.body.previous).toMatchObject({ id: p.id, status: 'publish', title: { raw: 'Doomed' } });
    expect(gone.body.previous._links).toBeUndefined();
    const after = await app.admin('GET', `/cms/v2/posts/${p.id}`);
    expect(after.status).toBe(404);
    const asPage = await app.admin('DELETE', `/cms/v2/pages/${(await post({ title: 'a post' })).id}`);
    expect(asPage.status).toBe(404);
  });
});

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
