import { startTestApp } from '../../../test/support/app';
import { app, future, post, usePostsApp } from './posts.fixtures';

usePostsApp();

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

  it("a draft's suggested slug follows other records' slugs at the next read, while its kept presentation is reused", async () => {
    const draft = await post({ title: 'Suggested Slug' });
    const edit = async () => (await app.admin('GET', `/cms/v2/posts/${draft.id}?context=edit`)).body;
    expect((await edit()).generated_slug).toBe('suggested-slug');
    expect((await edit()).generated_slug).toBe('suggested-slug');
    // A new draft takes the slug (a draft moves no term count, so nothing else drops what is kept): the first draft would now get the next one.
    expect((await post({ title: 'Other', slug: 'suggested-slug' })).slug).toBe('suggested-slug');
    expect((await edit()).generated_slug).toBe('suggested-slug-2');
    // The view context shows no suggestion, and a new record leaves it as it was.
    const view = async () => (await app.admin('GET', `/cms/v2/posts/${draft.id}`)).body;
    const before = await view();
    await post({ title: 'Another' });
    expect(await view()).toEqual(before);
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
