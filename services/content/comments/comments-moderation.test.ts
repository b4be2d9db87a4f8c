/** cms/v2 comments through real HTTP: moderating, editing and deleting comments, notes and comment meta. */
import type { Who } from '../../../test/support/roles';
import { adminComment, app, freshUsers, makePost, matrix, open, useCommentsApp, users } from './comments.fixtures';

useCommentsApp();

describe('moderating, editing and deleting', () => {
  it('moves a comment through hold, approve, spam, unspam, trash and untrash', async () => {
    const post = await makePost({ title: 'Moderation transitions' });
    const c = await adminComment(post, 'Transitions', { status: 'hold' });
    expect(c.status).toBe('hold');
    const set = async (status: string) => (await users.as('editor', 'POST', `/cms/v2/comments/${c.id}`, { body: { status } })).body.status;
    expect(await set('approve')).toBe('approved');
    expect(await set('spam')).toBe('spam');
    expect(await set('unspam')).toBe('approved');
    expect(await set('hold')).toBe('hold');
    expect(await set('trash')).toBe('trash');
    expect(await set('untrash')).toBe('hold');
    expect(await set('1')).toBe('approved');
    expect(await set('bogus')).toBe('approved');
  });

  it('lets moderators and those who may edit the post edit a comment', async () => {
    const f = await freshUsers();
    const post = await makePost({ title: 'Edit rights' }, 'author', f);
    const c = await f.as('subscriber', 'POST', '/cms/v2/comments', { body: { post, content: 'Mine' } });
    await matrix(
      (who) => f.as(who, 'PATCH', `/cms/v2/comments/${c.body.id}`, { body: { content: `edited by ${who}` } }),
      [
        [401, 'rest_cannot_edit'],
        [403, 'rest_cannot_edit'],
        [403, 'rest_cannot_edit'],
        [200, null],
        [200, null],
        [200, null],
      ],
    );
    const edited = await app.admin('GET', `/cms/v2/comments/${c.body.id}?context=edit`);
    expect(edited.body.content.raw).toBe('edited by administrator');
    expect((await app.admin('POST', `/cms/v2/comments/${c.body.id}`, { body: { content: '' } })).body.code).toBe('rest_comment_content_invalid');
    expect((await app.admin('POST', `/cms/v2/comments/${c.body.id}`, { body: { type: 'note' } })).body).toEqual({
      code: 'rest_comment_invalid_type',
      message: 'Sorry, you are not allowed to change the comment type.',
      data: { status: 404 },
    });
    expect((await app.admin('POST', `/cms/v2/comments/${c.body.id}`, { body: { post: 999999 } })).body).toEqual({
      code: 'rest_comment_invalid_post_id',
      message: 'Invalid post ID.',
      data: { status: 403 },
    });
    const renamed = await app.admin('POST', `/cms/v2/comments/${c.body.id}`, { body: { author_name: 'Renamed <b>person</b>', date: '2024-05-06T07:08:09' } });
    expect(renamed.body).toMatchObject({ author_name: 'Renamed person', date: '2024-05-06T07:08:09', date_gmt: '2024-05-06T07:08:09' });
    // A failed update changed nothing.
    expect((await app.admin('GET', `/cms/v2/comments/${c.body.id}?context=edit`)).body.content.raw).toBe('edited by administrator');
  });

  it('trashes by default, answers 410 for a second trash, deletes for good with force', async () => {
    const post = await makePost({ title: 'Deleting' });
    const parent = await adminComment(post, 'Parent');
    const child = await adminComment(post, 'Child', { parent: parent.id });
    await matrix(
      (who) => users.as(who, 'DELETE', `/cms/v2/comments/${parent.id}?force=false`),
      [
        [401, 'rest_cannot_delete'],
        [403, 'rest_cannot_delete'],
        [403, 'rest_cannot_delete'],
        [403, 'rest_cannot_delete'],
        [200, null],
        [410, 'rest_already_trashed'],
      ],
    );
    const trashed = await app.admin('GET', `/cms/v2/comments/${parent.id}?context=edit`);
    expect(trashed.body.status).toBe('trash');
    const again = await app.admin('DELETE', `/cms/v2/comments/${parent.id}`);
    expect(again.body).toEqual({ code: 'rest_already_trashed', message: 'The comment has already been trashed.', data: { status: 410 } });
    const gone = await app.admin('DELETE', `/cms/v2/comments/${parent.id}?force=true`);
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: parent.id, status: 'trash', content: { raw: 'Parent' } } });
    expect(gone.body.previous._links).toBeUndefined();
    expect((await app.admin('GET', `/cms/v2/comments/${parent.id}`)).status).toBe(404);
    // Its reply moved up to the top level.
    expect((await app.admin('GET', `/cms/v2/comments/${child.id}`)).body.parent).toBe(0);
  });

  it('hides the comments of a trashed post and gives them back when it leaves the trash', async () => {
    const post = await makePost({ title: 'Trash and back' });
    const a = await adminComment(post, 'Approved before');
    const h = await adminComment(post, 'Held before', { status: 'hold' });
    await app.admin('DELETE', `/cms/v2/posts/${post}`);
    expect((await app.admin('GET', `/cms/v2/comments?post=${post}&status=all`)).body).toEqual([]);
    const hidden = await app.admin('GET', `/cms/v2/comments?post=${post}&status=post-trashed&orderby=id&order=asc`);
    expect(hidden.body.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([
      [a.id, 'post-trashed'],
      [h.id, 'post-trashed'],
    ]);
    await app.admin('POST', `/cms/v2/posts/${post}`, { body: { status: 'publish' } });
    const back = await app.admin('GET', `/cms/v2/comments?post=${post}&status=all&orderby=id&order=asc`);
    expect(back.body.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([
      [a.id, 'approved'],
      [h.id, 'hold'],
    ]);
  });

  it('removes the comments of a post deleted for good', async () => {
    const post = await makePost({ title: 'Short-lived' });
    const c = await adminComment(post, 'Soon gone');
    expect((await app.admin('DELETE', `/cms/v2/posts/${post}?force=true`)).status).toBe(200);
    expect((await app.admin('GET', `/cms/v2/comments/${c.id}`)).body.code).toBe('rest_comment_invalid_id');
  });
});

describe('notes', () => {
  it('are for those who may edit the post, approved at once, even on drafts', async () => {
    const draft = await makePost({ title: 'Draft with notes', status: 'draft' }, 'author');
    const write = (who: Who) => users.as(who, 'POST', '/cms/v2/comments', { body: { post: draft, content: `note by ${who}`, type: 'note' } });
    await matrix(write, [
      [401, 'rest_comment_login_required'],
      [403, 'rest_cannot_create_note'],
      [403, 'rest_cannot_create_note'],
      [201, null],
      [201, null],
      [201, null],
    ]);
    const notes = await users.as('author', 'GET', `/cms/v2/comments?post=${draft}&type=note&status=all`);
    expect(notes.body.map((n: { type: string; status: string }) => [n.type, n.status])).toEqual([
      ['note', 'approved'],
      ['note', 'approved'],
      ['note', 'approved'],
    ]);
    expect((await users.as('contributor', 'GET', `/cms/v2/comments/${notes.body[0].id}`)).body.code).toBe('rest_cannot_read');
    const resolved = await users.as('author', 'POST', '/cms/v2/comments', {
      body: { post: draft, type: 'note', content: '', parent: notes.body[0].id, meta: { _cms_note_status: 'resolved' } },
    });
    expect(resolved.status).toBe(201);
    expect(resolved.body.meta).toEqual({ _cms_note_status: 'resolved' });
  });
});

describe('comment meta keys', () => {
  it('stores only registered keys: Object.prototype names are no keys', async () => {
    const { openStore } = await import('#libs/store/index');
    const store = await openStore({ dataDir: app.config.DATA_DIR });
    try {
      const res = await app.admin('POST', '/cms/v2/comments', {
        raw:
          '{"post":' + open + ',"content":"meta keys","meta":{"constructor":{"prototype":{"x":1}},"toString":"x","__proto__":{"_cms_note_status":"resolved"}}}',
      });
      expect(res.status).toBe(201);
      expect(res.body.meta).toEqual({ _cms_note_status: '' });
      const doc = await store.collection('comments').findOne({ id: res.body.id });
      expect(Object.keys(doc!.meta as object)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
