import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers, type Who } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
let editorDraft: number;
let editorPublished: number;
let editorPrivate: number;
let contributorPending: number;

const WHO: Who[] = ['guest', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

/** Expected [status, code] per caller, in WHO order. */
type Row = Array<[number, string | null]>;

async function matrix(run: (who: Who) => Promise<{ status: number; body: { code?: string } }>, expected: Row): Promise<void> {
  const got: Row = [];
  for (const who of WHO) {
    const res = await run(who);
    got.push([res.status, res.status >= 400 ? (res.body.code ?? null) : null]);
  }
  expect(Object.fromEntries(WHO.map((w, i) => [w, got[i]]))).toEqual(Object.fromEntries(WHO.map((w, i) => [w, expected[i]])));
}

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
  const make = async (who: Who, body: Record<string, unknown>) => (await users.as(who, 'POST', '/cms/v2/posts', { body })).body.id as number;
  editorDraft = await make('editor', { title: 'Editor draft' });
  editorPublished = await make('editor', { title: 'Editor published', status: 'publish' });
  editorPrivate = await make('editor', { title: 'Editor private', status: 'private' });
  contributorPending = await make('contributor', { title: 'Contributor pending', status: 'pending' });
});
afterAll(async () => {
  await app.close();
});

const OK = (s = 200): [number, null] => [s, null];

describe('permission matrix: guest, subscriber, contributor, author, editor, administrator', () => {
  it('create a draft post', async () => {
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/posts', { body: { title: `draft by ${who}` } }),
      [[401, 'rest_cannot_create'], [403, 'rest_cannot_create'], OK(201), OK(201), OK(201), OK(201)],
    );
  });

  it('publish a post', async () => {
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/posts', { body: { title: `published by ${who}`, status: 'publish' } }),
      [[401, 'rest_cannot_create'], [403, 'rest_cannot_create'], [403, 'rest_cannot_publish'], OK(201), OK(201), OK(201)],
    );
  });

  it('create a private post', async () => {
    const res = await users.as('contributor', 'POST', '/cms/v2/posts', { body: { title: 'x', status: 'private' } });
    expect(res.body).toEqual({
      code: 'rest_cannot_publish',
      message: 'Sorry, you are not allowed to create private posts in this post type.',
      data: { status: 403 },
    });
  });

  it('make a post sticky, or write it as someone else', async () => {
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/posts', { body: { title: 'sticky', sticky: true } }),
      [[401, 'rest_cannot_assign_sticky'], [403, 'rest_cannot_assign_sticky'], [403, 'rest_cannot_assign_sticky'], OK(201), OK(201), OK(201)],
    );
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/posts', { body: { title: 'as the editor', author: users.ids.editor } }),
      [
        [401, 'rest_cannot_edit_others'],
        [403, 'rest_cannot_edit_others'],
        [403, 'rest_cannot_edit_others'],
        [403, 'rest_cannot_edit_others'],
        OK(201),
        OK(201),
      ],
    );
  });

  it("read the editor's draft and private post", async () => {
    await matrix(
      (who) => users.as(who, 'GET', `/cms/v2/posts/${editorDraft}`),
      [[401, 'rest_forbidden'], [403, 'rest_forbidden'], [403, 'rest_forbidden'], [403, 'rest_forbidden'], OK(), OK()],
    );
    await matrix(
      (who) => users.as(who, 'GET', `/cms/v2/posts/${editorPrivate}`),
      [[401, 'rest_forbidden'], [403, 'rest_forbidden'], [403, 'rest_forbidden'], [403, 'rest_forbidden'], OK(), OK()],
    );
    await matrix((who) => users.as(who, 'GET', `/cms/v2/posts/${editorPublished}`), [OK(), OK(), OK(), OK(), OK(), OK()]);
  });

  it("edit the editor's published post, and one's own pending post", async () => {
    await matrix(
      (who) => users.as(who, 'PATCH', `/cms/v2/posts/${editorPublished}`, { body: { excerpt: `by ${who}` } }),
      [[401, 'rest_cannot_edit'], [403, 'rest_cannot_edit'], [403, 'rest_cannot_edit'], [403, 'rest_cannot_edit'], OK(), OK()],
    );
    const own = await users.as('contributor', 'PATCH', `/cms/v2/posts/${contributorPending}`, { body: { title: 'Still pending' } });
    expect(own.status).toBe(200);
    const publish = await users.as('contributor', 'PATCH', `/cms/v2/posts/${contributorPending}`, { body: { status: 'publish' } });
    expect(publish.body.code).toBe('rest_cannot_publish');
  });

  it('read in edit context', async () => {
    await matrix(
      (who) => users.as(who, 'GET', '/cms/v2/posts?context=edit'),
      [[401, 'rest_forbidden_context'], [403, 'rest_forbidden_context'], OK(), OK(), OK(), OK()],
    );
    await matrix(
      (who) => users.as(who, 'GET', `/cms/v2/posts/${editorPublished}?context=edit`),
      [[401, 'rest_forbidden_context'], [403, 'rest_forbidden_context'], [403, 'rest_forbidden_context'], [403, 'rest_forbidden_context'], OK(), OK()],
    );
  });

  it('list drafts and private posts: only what the caller may read is listed and counted', async () => {
    await matrix(
      (who) => users.as(who, 'GET', '/cms/v2/posts?status=draft'),
      [[400, 'rest_invalid_param'], [400, 'rest_invalid_param'], OK(), OK(), OK(), OK()],
    );
    const contributor = await users.as('contributor', 'GET', '/cms/v2/posts?status=draft,pending&per_page=100');
    expect(contributor.body.every((p: { author: number }) => p.author === users.ids.contributor)).toBe(true);
    expect(Number(contributor.headers.get('x-wp-total'))).toBe(contributor.body.length);
    const editor = await users.as('editor', 'GET', '/cms/v2/posts?status=draft&per_page=100');
    expect(editor.body.map((p: { id: number }) => p.id)).toContain(editorDraft);
    expect(new Set(editor.body.map((p: { author: number }) => p.author)).size).toBeGreaterThan(1);
    await matrix(
      (who) => users.as(who, 'GET', '/cms/v2/posts?status=private'),
      [[400, 'rest_invalid_param'], [400, 'rest_invalid_param'], OK(), OK(), OK(), OK()],
    );
    const author = await users.as('author', 'GET', '/cms/v2/posts?status=private');
    expect(author.body).toEqual([]);
    const editorPrivateList = await users.as('editor', 'GET', '/cms/v2/posts?status=private');
    expect(editorPrivateList.body.map((p: { id: number }) => p.id)).toEqual([editorPrivate]);
  });

  it("delete the editor's post", async () => {
    const targets: number[] = [];
    for (let i = 0; i < WHO.length; i++)
      targets.push((await users.as('editor', 'POST', '/cms/v2/posts', { body: { title: `to delete ${i}`, status: 'publish' } })).body.id);
    let i = 0;
    await matrix(
      (who) => users.as(who, 'DELETE', `/cms/v2/posts/${targets[i++]}`),
      [[401, 'rest_cannot_delete'], [403, 'rest_cannot_delete'], [403, 'rest_cannot_delete'], [403, 'rest_cannot_delete'], OK(), OK()],
    );
  });

  it('pages need the page capabilities', async () => {
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/pages', { body: { title: `page by ${who}` } }),
      [[401, 'rest_cannot_create'], [403, 'rest_cannot_create'], [403, 'rest_cannot_create'], [403, 'rest_cannot_create'], OK(201), OK(201)],
    );
  });

  it('filters markup of writers without unfiltered_html; editors keep theirs', async () => {
    const body = {
      title: '<div>div</div> <strong>strong</strong> <script>oh noes</script>',
      content: '<div>div</div> <strong>strong</strong> <script>oh noes</script>',
    };
    const author = await users.as('author', 'POST', '/cms/v2/posts', { body });
    expect(author.body.title.raw).toBe('div <strong>strong</strong> oh noes');
    expect(author.body.content.raw).toBe('<div>div</div> <strong>strong</strong> oh noes');
    const editor = await users.as('editor', 'POST', '/cms/v2/posts', { body });
    expect(editor.body.content.raw).toBe(body.content);
    const autosave = await users.as('author', 'POST', `/cms/v2/posts/${author.body.id}/autosaves`, {
      body: { content: '<a href="javascript:x()" onclick="y()">l</a>' },
    });
    expect(autosave.body.content.raw).toBe('<a href="x()">l</a>');
  });

  it('validation comes before permission', async () => {
    const res = await users.as('guest', 'POST', '/cms/v2/posts', { body: { title: 'x', status: 'teststatus' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });
});
