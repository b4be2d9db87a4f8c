/**
 * cms/v2 comments through real HTTP, written from the reference's comments controller: the routes, and
 * who may comment where, moderation on create, duplicates and floods. Reading: comments-read.test.ts;
 * moderating, editing, deleting and notes: comments-moderation.test.ts.
 */
import type { Who } from '../../../test/support/roles';
import { adminComment, app, freshUsers, makePost, matrix, open, ROOT, sets, useCommentsApp, users } from './comments.fixtures';

useCommentsApp();

describe('the routes', () => {
  it('are listed after the users routes, with their arguments and the comment schema', async () => {
    const index = await app.request('GET', '/cms/v2');
    const routes = Object.keys(index.body.routes);
    expect(routes.indexOf('/cms/v2/comments')).toBeGreaterThan(routes.indexOf('/cms/v2/users/me'));
    expect(routes[routes.indexOf('/cms/v2/comments') + 1]).toBe('/cms/v2/comments/(?P<id>[\\d]+)');
    const collection = index.body.routes['/cms/v2/comments'];
    expect(collection.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST']]);
    expect(collection.endpoints[0].args.status).toEqual({
      default: 'approve',
      description: 'Limit result set to comments assigned a specific status. Requires authorization.',
      type: 'string',
      required: false,
    });
    expect(collection.endpoints[1].args.post).toMatchObject({ type: 'integer', default: 0 });
    expect(collection.endpoints[1].args.type).toBeUndefined();
    const options = await app.request('OPTIONS', '/cms/v2/comments/1');
    expect(options.body.schema.title).toBe('comment');
    expect(options.body.schema.properties.author_email.context).toEqual(['edit']);
    expect(options.body.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']]);
  });
});

describe('creating comments', () => {
  it('needs an account (anonymous REST comments are off), then any role may comment on an open post', async () => {
    await matrix(
      (who) => users.as(who, 'POST', '/cms/v2/comments', { body: { post: open, content: `Hello from the ${who}` } }),
      [
        [401, 'rest_comment_login_required'],
        [201, null],
        [201, null],
        [201, null],
        [201, null],
        [201, null],
      ],
    );
    const guest = await app.request('POST', '/cms/v2/comments', { body: { post: open, content: 'x', author_name: 'Guest', author_email: 'g@example.com' } });
    expect(guest.body).toEqual({ code: 'rest_comment_login_required', message: 'Sorry, you must be logged in to comment.', data: { status: 401 } });
  });

  it('writes as the signed-in user, held for moderation unless trusted, with a Location', async () => {
    const m = await freshUsers();
    const post = await makePost({ title: 'Moderation' }, 'author', m);
    const sub = await m.as('subscriber', 'POST', '/cms/v2/comments', { body: { post, content: 'First words' } });
    expect(sub.status).toBe(201);
    expect(sub.headers.get('location')).toBe(`${ROOT}/cms/v2/comments/${sub.body.id}`);
    // A non-moderator gets the view context: no e-mail, no raw content.
    expect(sub.body).toMatchObject({
      post,
      parent: 0,
      author: m.ids.subscriber,
      author_name: 'The subscriber',
      status: 'hold',
      type: 'comment',
      content: { rendered: '<p>First words</p>\n' },
    });
    expect(sub.body.author_email).toBeUndefined();
    expect(sub.body.content.raw).toBeUndefined();
    expect(sub.body.link).toBe(`http://example.test/moderation/#comment-${sub.body.id}`);
    expect(Object.keys(sub.body.author_avatar_urls)).toEqual(['24', '48', '96']);
    expect(sub.body.meta).toEqual({ _cms_note_status: '' });
    // The post's author is trusted; so are moderators, who get the edit context.
    const own = await m.as('author', 'POST', '/cms/v2/comments', { body: { post, content: 'Thanks for reading' } });
    expect(own.body.status).toBe('approved');
    const ed = await m.as('editor', 'POST', '/cms/v2/comments', { body: { post, content: 'Editor here' } });
    expect(ed.body).toMatchObject({ status: 'approved', author_email: `f${sets}-editor@example.com`, author_ip: '127.0.0.1', content: { raw: 'Editor here' } });
  });

  it('approves a writer with an earlier approved comment, and holds content with two links', async () => {
    const r = await freshUsers();
    const post = await makePost({ title: 'Returning' });
    // Written long ago on the contributor's behalf, so no flood: held, as nothing of theirs was approved yet.
    const first = await app.admin('POST', '/cms/v2/comments', { body: { post, content: 'Once', author: r.ids.contributor, date_gmt: '2020-01-01T00:00:00' } });
    expect(first.body.status).toBe('hold');
    expect((await app.admin('POST', `/cms/v2/comments/${first.body.id}`, { body: { status: 'approve' } })).body.status).toBe('approved');
    const second = await r.as('contributor', 'POST', '/cms/v2/comments', { body: { post, content: 'Twice' } });
    expect(second.body.status).toBe('approved');
    const linky = await app.admin('POST', '/cms/v2/comments', {
      body: { post, author: r.ids.contributor, content: '<a href="http://a.test/">a</a> <a href="http://b.test/">b</a>' },
    });
    expect(linky.body.status).toBe('hold');
  });

  it('refuses what the reference refuses', async () => {
    const draft = await makePost({ title: 'Draft', status: 'draft' });
    const closed = await makePost({ title: 'Closed', comment_status: 'closed' });
    const trashed = await makePost({ title: 'Trashed' });
    await app.admin('DELETE', `/cms/v2/posts/${trashed}`);
    const privatePost = await makePost({ title: 'Private', status: 'private' });
    const say = (who: Who, body: Record<string, unknown>) => users.as(who, 'POST', '/cms/v2/comments', { body: { content: 'Some words', ...body } });
    expect((await say('subscriber', {})).body).toEqual({
      code: 'rest_comment_invalid_post_id',
      message: 'Sorry, you are not allowed to create this comment without a post.',
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: 999999 })).body.code).toBe('rest_comment_invalid_post_id');
    expect((await say('subscriber', { post: draft })).body).toEqual({
      code: 'rest_comment_draft_post',
      message: 'Sorry, you are not allowed to create a comment on this post.',
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: trashed })).body).toEqual({
      code: 'rest_comment_trash_post',
      message: 'Sorry, you are not allowed to create a comment on this post.',
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: closed })).body).toEqual({
      code: 'rest_comment_closed',
      message: 'Sorry, comments are closed for this item.',
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: privatePost })).body).toEqual({
      code: 'rest_cannot_read_post',
      message: 'Sorry, you are not allowed to read the post for this comment.',
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: open, status: 'approve' })).body).toEqual({
      code: 'rest_comment_invalid_status',
      message: "Sorry, you are not allowed to edit 'status' for comments.",
      data: { status: 403 },
    });
    expect((await say('subscriber', { post: open, author: users.ids.editor })).body.code).toBe('rest_comment_invalid_author');
    expect((await say('subscriber', { post: open, content: '' })).body).toEqual({
      code: 'rest_comment_content_invalid',
      message: 'Invalid comment content.',
      data: { status: 400 },
    });
    expect((await say('subscriber', { post: open, content: undefined })).body.code).toBe('rest_comment_content_invalid');
    expect((await say('subscriber', { post: open, type: 'pingback' })).body).toEqual({
      code: 'rest_invalid_comment_type',
      message: 'Cannot create a comment with that type.',
      data: { status: 400 },
    });
    expect((await say('subscriber', { post: open, author_email: 'not-an-address' })).status).toBe(400);
    // Naming oneself without an address fails the "name and email required" setting.
    expect((await say('subscriber', { post: open, author_name: 'Just a name' })).body.code).toBe('rest_comment_author_data_required');
    expect((await app.admin('POST', '/cms/v2/comments', { body: { post: open, content: 'x', author: 999999 } })).body).toEqual({
      code: 'rest_comment_author_invalid',
      message: 'Invalid comment author ID.',
      data: { status: 400 },
    });
    // Editors may comment on a draft they can read? No: drafts take no comments at all.
    expect((await say('editor', { post: draft })).body.code).toBe('rest_comment_draft_post');
    // A moderator may set the status and comment on a closed post? Closed stays closed.
    expect((await say('editor', { post: closed })).body.code).toBe('rest_comment_closed');
    const held = await app.admin('POST', '/cms/v2/comments', { body: { post: open, status: 'hold', content: 'Held on purpose' } });
    expect(held.body.status).toBe('hold');
  });

  it("records the caller's address and user agent; only moderators name another address", async () => {
    const f = await freshUsers();
    const post = await makePost({ title: 'Addresses' });
    const other = await f.as('subscriber', 'POST', '/cms/v2/comments', { body: { post, content: 'From elsewhere', author_ip: '10.1.2.3' } });
    expect(other.body).toEqual({
      code: 'rest_comment_invalid_author_ip',
      message: "Sorry, you are not allowed to edit 'author_ip' for comments.",
      data: { status: 403 },
    });
    const own = await f.as('subscriber', 'POST', '/cms/v2/comments', {
      body: { post, content: 'From here', author_ip: '127.0.0.1' },
      headers: { 'User-Agent': 'TestBrowser/1.0' },
    });
    expect(own.status).toBe(201);
    const stored = await app.admin('GET', `/cms/v2/comments/${own.body.id}?context=edit`);
    expect(stored.body).toMatchObject({ author_ip: '127.0.0.1', author_user_agent: 'TestBrowser/1.0' });
    const named = await app.admin('POST', '/cms/v2/comments', {
      body: { post, content: 'Imported', author_ip: '10.1.2.3', author_user_agent: 'Importer <b>2</b>' },
    });
    expect(named.body).toMatchObject({ author_ip: '10.1.2.3', author_user_agent: 'Importer 2' });
    expect((await app.admin('POST', '/cms/v2/comments', { body: { post, content: 'Bad address', author_ip: 'nowhere' } })).body.code).toBe(
      'rest_invalid_param',
    );
  });

  it('answers 409 to a duplicate and 400 to a flood', async () => {
    const post = await makePost({ title: 'Duplicates' });
    const a = await adminComment(post, 'Same words');
    expect(a.status).toBe('approved');
    const dupe = await app.admin('POST', '/cms/v2/comments', { body: { post, content: 'Same words' } });
    expect(dupe.body).toEqual({
      code: 'comment_duplicate',
      message: 'Duplicate comment detected; it looks as though you&#8217;ve already said that!',
      data: { status: 409 },
    });
    // A reply with the same words is not a duplicate (another parent).
    expect((await app.admin('POST', '/cms/v2/comments', { body: { post, content: 'Same words', parent: a.id } })).status).toBe(201);
    const f = await freshUsers();
    const sub1 = await f.as('author', 'POST', '/cms/v2/comments', { body: { post, content: 'One' } });
    expect(sub1.status).toBe(201);
    const sub2 = await f.as('author', 'POST', '/cms/v2/comments', { body: { post, content: 'Two' } });
    expect(sub2.body).toEqual({ code: 'comment_flood', message: 'You are posting comments too quickly. Slow down.', data: { status: 400 } });
  });

  it('filters content for writers without unfiltered_html and marks links as user content', async () => {
    const post = await makePost({ title: 'Filtering' });
    const res = await (
      await freshUsers()
    ).as('subscriber', 'POST', '/cms/v2/comments', {
      body: { post, content: 'Hi <script>alert(1)</script><strong onclick="x()">bold</strong> <a href="javascript:alert(1)">x</a> <img src="http://a/b.png">' },
    });
    expect(res.status).toBe(201);
    const stored = await app.admin('GET', `/cms/v2/comments/${res.body.id}?context=edit`);
    expect(stored.body.content.raw).toBe('Hi alert(1)<strong>bold</strong> <a href="alert(1)" rel="nofollow ugc">x</a> ');
    const trusted = await app.admin('POST', '/cms/v2/comments', { body: { post, content: '<img src="http://a/b.png"> see http://example.org/x' } });
    expect(trusted.body.content.raw).toBe('<img src="http://a/b.png"> see http://example.org/x');
    const links = await app.admin('POST', '/cms/v2/comments', {
      body: { post, content: '<a href="http://example.test/about/">us</a> <a rel="external" href="http://x.test/">x</a>' },
    });
    expect(links.body.content.raw).toBe('<a href="http://example.test/about/" rel="ugc">us</a> <a href="http://x.test/" rel="external nofollow ugc">x</a>');
    expect(trusted.body.content.rendered).toBe(
      '<p><img src="http://a/b.png"> see <a href="http://example.org/x" rel="nofollow">http://example.org/x</a></p>\n',
    );
  });
});
