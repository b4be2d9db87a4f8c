import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
});
afterAll(async () => {
  await app.close();
});

async function editorPost(body: Record<string, unknown> = {}, base = 'posts'): Promise<number> {
  const res = await users.as('editor', 'POST', `/cms/v2/${base}`, { body: { title: 'Original', content: 'First body', ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

describe('revisions', () => {
  it('an update that changes title, content or excerpt stores a revision; create stores none', async () => {
    const id = await editorPost({ status: 'publish' });
    const before = await app.admin('GET', `/cms/v2/posts/${id}/revisions`);
    expect(before.body).toEqual([]);
    expect(before.headers.get('x-wp-total')).toBe('0');
    for (const title of ['One', 'Two', 'Three']) await users.as('editor', 'PUT', `/cms/v2/posts/${id}`, { body: { title } });
    await users.as('editor', 'PUT', `/cms/v2/posts/${id}`, { body: { comment_status: 'closed' } });
    const list = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: { title: { rendered: string } }) => r.title.rendered)).toEqual(['Three', 'Two', 'One']);
    expect(list.headers.get('x-wp-total')).toBe('3');
    expect(list.headers.get('x-wp-totalpages')).toBe('1');
    const rev = list.body[0];
    expect(rev).toMatchObject({ parent: id, slug: `${id}-revision-v1`, author: users.ids.editor, content: { rendered: '<p>First body</p>\n' } });
    expect(
      Object.keys(rev)
        .filter((k) => k !== '_links')
        .sort(),
    ).toEqual('author content date date_gmt excerpt guid id meta modified modified_gmt parent slug title'.split(' '));
    expect(rev._links.parent[0].href).toBe(`http://example.test/index.php/cms-json/cms/v2/posts/${id}`);
    const embed = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?context=embed`);
    expect(
      Object.keys(embed.body[0])
        .filter((k) => k !== '_links')
        .sort(),
    ).toEqual('author date excerpt id parent slug title'.split(' '));
    const edit = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions/${rev.id}?context=edit`);
    expect(edit.body.title).toEqual({ raw: 'Three', rendered: 'Three' });
    const post = await app.request('GET', `/cms/v2/posts/${id}`);
    expect(post.body._links['version-history'][0].count).toBe(3);
    expect(post.body._links['predecessor-version'][0]).toEqual({
      id: rev.id,
      href: `http://example.test/index.php/cms-json/cms/v2/posts/${id}/revisions/${rev.id}`,
    });
  });

  it('pages, offsets, searches; refuses what does not exist or belong', async () => {
    const id = await editorPost();
    for (let i = 1; i <= 5; i++) await users.as('editor', 'PUT', `/cms/v2/posts/${id}`, { body: { content: `Version ${i}` } });
    const paged = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?per_page=2`);
    expect(paged.body).toHaveLength(2);
    expect(paged.headers.get('x-wp-total')).toBe('5');
    expect(paged.headers.get('x-wp-totalpages')).toBe('3');
    expect(paged.headers.get('link')).toContain(`/cms/v2/posts/${id}/revisions?per_page=2&page=2>; rel="next"`);
    const past = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?per_page=2&page=4`);
    expect(past.body.code).toBe('rest_revision_invalid_page_number');
    const offset = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?per_page=2&offset=4`);
    expect(offset.body).toHaveLength(1);
    const bad = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?per_page=2&offset=5`);
    expect(bad.body).toEqual({
      code: 'rest_revision_invalid_offset_number',
      message: 'The offset number requested is larger than or equal to the number of available revisions.',
      data: { status: 400 },
    });
    const word = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?offset=moreplease`);
    expect(word.body.code).toBe('rest_invalid_param');
    const search = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?search=Version%203`);
    expect(search.body.map((r: { content: { rendered: string } }) => r.content.rendered)).toEqual(['<p>Version 3</p>\n']);
    const asc = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions?order=asc&orderby=id`);
    expect(asc.body[0].content.rendered).toBe('<p>Version 1</p>\n');
    const noParent = await users.as('editor', 'GET', '/cms/v2/posts/999999/revisions');
    expect(noParent.body).toEqual({ code: 'rest_post_invalid_parent', message: 'Invalid post parent ID.', data: { status: 404 } });
    const other = await editorPost();
    const mismatch = await users.as('editor', 'GET', `/cms/v2/posts/${other}/revisions/${asc.body[0].id}`);
    expect(mismatch.body).toEqual({
      code: 'rest_revision_parent_id_mismatch',
      message: `The revision does not belong to the specified parent with id of "${other}"`,
      data: { status: 404 },
    });
    const wrongType = await users.as('editor', 'GET', `/cms/v2/pages/${id}/revisions`);
    expect(wrongType.body.code).toBe('rest_post_invalid_parent');
    const notRevision = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions/${other}`);
    expect(notRevision.body.code).toBe('rest_post_invalid_id');
    const post = await users.as('editor', 'POST', `/cms/v2/posts/${id}/revisions`, { body: {} });
    expect(post.body.code).toBe('rest_no_route');
  });

  it('needs edit rights on the parent to read; nobody deletes a revision', async () => {
    const id = await editorPost({ status: 'publish' });
    await users.as('editor', 'PUT', `/cms/v2/posts/${id}`, { body: { title: 'Edited' } });
    const guest = await users.as('guest', 'GET', `/cms/v2/posts/${id}/revisions`);
    expect(guest.body).toEqual({ code: 'rest_cannot_read', message: 'Sorry, you are not allowed to view revisions of this post.', data: { status: 401 } });
    const contributor = await users.as('contributor', 'GET', `/cms/v2/posts/${id}/revisions`);
    expect(contributor.status).toBe(403);
    const revs = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions`);
    const revId = revs.body[0].id;
    // As in the reference, delete_post on a revision is never granted: everyone is refused, with or without force.
    const author = await users.as('author', 'DELETE', `/cms/v2/posts/${id}/revisions/${revId}?force=true`);
    expect(author.body).toEqual({ code: 'rest_cannot_delete', message: 'Sorry, you are not allowed to delete revisions of this post.', data: { status: 403 } });
    const guestDel = await users.as('guest', 'DELETE', `/cms/v2/posts/${id}/revisions/${revId}?force=true`);
    expect(guestDel.status).toBe(401);
    for (const who of ['editor', 'administrator'] as const) {
      for (const q of ['', '?force=true']) {
        const del = await users.as(who, 'DELETE', `/cms/v2/posts/${id}/revisions/${revId}${q}`);
        expect(del.body).toEqual({ code: 'rest_cannot_delete', message: 'Sorry, you are not allowed to delete this revision.', data: { status: 403 } });
        expect(del.headers.get('allow')).toBe('GET');
      }
    }
    const still = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions/${revId}`);
    expect(still.status).toBe(200);
    expect(still.headers.get('allow')).toBe('GET');
  });

  it('a permanent delete of the post removes its revisions', async () => {
    const id = await editorPost();
    await users.as('editor', 'PUT', `/cms/v2/posts/${id}`, { body: { title: 'Edited' } });
    const revs = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions`);
    await users.as('editor', 'DELETE', `/cms/v2/posts/${id}?force=true`);
    const rev = await users.as('editor', 'GET', `/cms/v2/posts/${id}/revisions/${revs.body[0].id}`);
    expect(rev.status).toBe(404);
  });
});

describe('autosaves', () => {
  it("an editor's autosave of a published post is a separate record; the post is unchanged", async () => {
    const id = await editorPost({ status: 'publish' });
    const res = await users.as('editor', 'POST', `/cms/v2/posts/${id}/autosaves`, { body: { content: 'Autosaved body' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ parent: id, slug: `${id}-autosave-v1`, title: { raw: 'Original' }, content: { raw: 'Autosaved body' } });
    expect(res.body.id).not.toBe(id);
    expect(res.body.preview_link).toMatch(new RegExp(`^http://example.test/original(-\\d+)?/\\?preview_id=${id}&preview=true$`));
    const post = await users.as('editor', 'GET', `/cms/v2/posts/${id}?context=edit`);
    expect(post.body.content.raw).toBe('First body');
    const again = await users.as('editor', 'POST', `/cms/v2/posts/${id}/autosaves`, { body: { content: 'Second autosave' } });
    expect(again.body.id).toBe(res.body.id);
    const admin = await app.admin('POST', `/cms/v2/posts/${id}/autosaves`, { body: { content: 'Admin autosave' } });
    expect(admin.body.id).not.toBe(res.body.id);
    const list = await users.as('editor', 'GET', `/cms/v2/posts/${id}/autosaves`);
    expect(list.body.map((a: { id: number }) => a.id).sort()).toEqual([res.body.id, admin.body.id].sort());
    const latest = await users.as('editor', 'GET', `/cms/v2/posts/${id}/autosaves/${res.body.id}?context=edit`);
    expect(latest.body.content.raw).toBe('Admin autosave');
    const same = await app.admin('POST', `/cms/v2/posts/${id}/autosaves`, { body: { content: 'First body' } });
    expect(same.status).toBe(200);
  });

  it("the author's autosave of their own draft updates the draft itself", async () => {
    const id = await editorPost();
    const res = await users.as('editor', 'POST', `/cms/v2/posts/${id}/autosaves`, { body: { title: 'Autosaved title' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, parent: 0, title: { raw: 'Autosaved title' } });
    const post = await users.as('editor', 'GET', `/cms/v2/posts/${id}?context=edit`);
    expect(post.body.title.raw).toBe('Autosaved title');
    const none = await users.as('editor', 'GET', `/cms/v2/posts/${id}/autosaves/1`);
    expect(none.body).toEqual({ code: 'rest_post_no_autosave', message: 'There is no autosave revision for this post.', data: { status: 404 } });
    const other = await app.admin('POST', `/cms/v2/posts/${id}/autosaves`, { body: { title: 'Admin idea' } });
    expect(other.body.parent).toBe(id);
    const still = await users.as('editor', 'GET', `/cms/v2/posts/${id}?context=edit`);
    expect(still.body.title.raw).toBe('Autosaved title');
  });

  it('a body id picks the post; permissions follow the post update check', async () => {
    const target = await editorPost({ status: 'publish' });
    const other = await editorPost({ status: 'publish' });
    const res = await users.as('editor', 'POST', `/cms/v2/posts/${other}/autosaves`, { body: { id: target, content: 'Into the target' } });
    expect(res.body.parent).toBe(target);
    const contributor = await users.as('contributor', 'POST', `/cms/v2/posts/${target}/autosaves`, { body: { content: 'x' } });
    expect(contributor.body).toEqual({ code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this post.', data: { status: 403 } });
    const guestList = await users.as('guest', 'GET', `/cms/v2/posts/${target}/autosaves`);
    expect(guestList.body.code).toBe('rest_cannot_read');
    expect(guestList.status).toBe(401);
    const missing = await users.as('editor', 'POST', '/cms/v2/posts/999999/autosaves', { body: { content: 'x' } });
    expect(missing.status).toBe(404);
    const options = await app.request('OPTIONS', `/cms/v2/posts/${target}/autosaves`);
    expect(Object.keys(options.body.endpoints[0].args)).toEqual(['parent', 'context']);
    expect(options.body.schema.properties.preview_link).toBeDefined();
  });

  it('pages have revisions and autosaves too', async () => {
    const id = await editorPost({ status: 'publish' }, 'pages');
    await users.as('editor', 'PUT', `/cms/v2/pages/${id}`, { body: { title: 'Page edited' } });
    const revs = await users.as('editor', 'GET', `/cms/v2/pages/${id}/revisions`);
    expect(revs.body).toHaveLength(1);
    const auto = await users.as('editor', 'POST', `/cms/v2/pages/${id}/autosaves`, { body: { content: 'Page autosave', menu_order: 2 } });
    expect(auto.body.parent).toBe(id);
  });
});
