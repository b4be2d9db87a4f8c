/**
 * cms/v2 comments through real HTTP, written from the reference's comments controller: who may
 * comment where, moderation, the list filters, what never leaks, duplicates and floods, and the
 * `replies` embed of a post.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers, type Who } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
/** A published post by the author, open for comments. */
let open: number;

/** The REST root as the site prints it in links. */
const ROOT = 'http://example.test/index.php/cms-json';

const WHO: Who[] = ['guest', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

type Row = Array<[number, string | null]>;

async function matrix(run: (who: Who) => Promise<{ status: number; body: { code?: string } }>, expected: Row): Promise<void> {
  const got: Row = [];
  for (const who of WHO) {
    const res = await run(who);
    got.push([res.status, res.status >= 400 ? (res.body.code ?? null) : null]);
  }
  expect(Object.fromEntries(WHO.map((w, i) => [w, got[i]]))).toEqual(Object.fromEntries(WHO.map((w, i) => [w, expected[i]])));
}

const makePost = async (body: Record<string, unknown>, who: Who = 'editor', set: RoleUsers = users) => {
  const res = await set.as(who, 'POST', '/cms/v2/posts', { body: { status: 'publish', ...body } });
  expect(res.status).toBe(201);
  return res.body.id as number;
};

/** A comment written by the administrator (approved, never throttled). */
const adminComment = async (post: number, content: string, extra: Record<string, unknown> = {}) => {
  const res = await app.admin('POST', '/cms/v2/comments', { body: { post, content, ...extra } });
  expect(res.status).toBe(201);
  return res.body;
};

let sets = 0;
/** Another user per role: the flood check stops one person commenting twice within 15 seconds. */
const freshUsers = () => createRoleUsers(app, `f${++sets}`);

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
  open = await makePost({ title: 'Open for comments' }, 'author');
});
afterAll(async () => {
  await app.close();
});

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

describe('reading comments', () => {
  let post: number;
  let approved: number;
  let held: number;
  let reply: number;

  beforeAll(async () => {
    post = await makePost({ title: 'Reading' });
    approved = (await adminComment(post, 'Approved one')).id;
    held = (await adminComment(post, 'Held one', { status: 'hold', author: users.ids.subscriber })).id;
    reply = (await adminComment(post, 'A reply', { parent: approved })).id;
  });

  it('gives guests approved comments only, with links', async () => {
    const list = await app.request('GET', `/cms/v2/comments?post=${post}`);
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([reply, approved]);
    expect(list.headers.get('x-wp-total')).toBe('2');
    expect(list.headers.get('x-wp-totalpages')).toBe('1');
    const first = list.body.find((c: { id: number }) => c.id === approved);
    expect(first._links).toMatchObject({
      self: [{ href: `${ROOT}/cms/v2/comments/${approved}`, targetHints: { allow: ['GET'] } }],
      collection: [{ href: `${ROOT}/cms/v2/comments` }],
      author: [{ embeddable: true, href: expect.stringMatching(/\/cms\/v2\/users\/\d+$/) }],
      up: [{ embeddable: true, post_type: 'post', href: `${ROOT}/cms/v2/posts/${post}` }],
      children: [{ embeddable: true, href: `${ROOT}/cms/v2/comments?parent=${approved}` }],
    });
    const second = list.body.find((c: { id: number }) => c.id === reply);
    expect(second._links['in-reply-to']).toEqual([{ embeddable: true, href: `${ROOT}/cms/v2/comments/${approved}` }]);
    expect(second._links.children).toBeUndefined();
    expect((await app.request('GET', `/cms/v2/comments/${held}`)).body).toEqual({
      code: 'rest_cannot_read',
      message: 'Sorry, you are not allowed to read this comment.',
      data: { status: 401 },
    });
    // Its writer reads it; moderators read everything.
    expect((await users.as('subscriber', 'GET', `/cms/v2/comments/${held}`)).status).toBe(200);
    expect((await users.as('editor', 'GET', `/cms/v2/comments/${held}?context=edit`)).body.status).toBe('hold');
  });

  it('counts only comments the caller may read: none on drafts, private or protected posts', async () => {
    const hiddenPosts = [
      await makePost({ title: 'Unpublished with a comment' }),
      await makePost({ title: 'Private with a comment', status: 'private' }),
      await makePost({ title: 'Protected with a comment', password: 'sesame' }),
    ];
    for (const id of hiddenPosts) await adminComment(id, `On hidden post ${id}`);
    // Comments are not written on drafts: this one was commented while published.
    expect((await app.admin('POST', `/cms/v2/posts/${hiddenPosts[0]}`, { body: { status: 'draft' } })).status).toBe(200);
    const shown = async (who: Who, query = '') => {
      const res = await users.as(who, 'GET', `/cms/v2/comments?per_page=100${query}`);
      return {
        total: Number(res.headers.get('x-wp-total')),
        shown: res.body.length,
        hidden: res.body.filter((c: { post: number }) => hiddenPosts.includes(c.post)).length,
      };
    };
    for (const who of ['guest', 'subscriber', 'author'] as const) {
      const got = await shown(who);
      expect(got.hidden).toBe(0);
      expect(got.total).toBe(got.shown);
      const searched = await shown(who, '&search=hidden%20post');
      expect(searched).toEqual({ total: 0, shown: 0, hidden: 0 });
    }
    // The password opens the comments of that one post; moderators read them all.
    const unlocked = await app.request('GET', `/cms/v2/comments?post=${hiddenPosts[2]}&password=sesame`);
    expect([unlocked.body.length, unlocked.headers.get('x-wp-total')]).toEqual([1, '1']);
    expect((await shown('editor', '&search=hidden%20post')).total).toBe(3);
  });

  it('keeps the protected parameters and the edit context for those allowed', async () => {
    expect((await app.request('GET', '/cms/v2/comments?status=hold')).body).toEqual({
      code: 'rest_forbidden_param',
      message: 'Query parameter not permitted: status',
      data: { status: 401 },
    });
    expect((await users.as('subscriber', 'GET', `/cms/v2/comments?author=${users.ids.subscriber}&type=pings`)).body).toEqual({
      code: 'rest_forbidden_param',
      message: 'Query parameter not permitted: author, type',
      data: { status: 403 },
    });
    await matrix(
      (who) => users.as(who, 'GET', '/cms/v2/comments?context=edit'),
      [
        [401, 'rest_forbidden_context'],
        [403, 'rest_forbidden_context'],
        [403, 'rest_forbidden_context'],
        [403, 'rest_forbidden_context'],
        [200, null],
        [200, null],
      ],
    );
    const heldList = await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&status=hold`);
    expect(heldList.body.map((c: { id: number }) => c.id)).toEqual([held]);
    // Statuses and types are read as keys (sanitize_key).
    expect((await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&status=HOLD`)).body.map((c: { id: number }) => c.id)).toEqual([held]);
    expect((await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&status=spam`)).body).toEqual([]);
    expect((await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&type=note`)).body).toEqual([]);
    expect((await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&type=all&status=any`)).body).toHaveLength(3);
    const all = await users.as('editor', 'GET', `/cms/v2/comments?post=${post}&status=all&orderby=id&order=asc`);
    expect(all.body.map((c: { id: number }) => c.id)).toEqual([approved, held, reply]);
    // A contributor may ask for held comments, but sees only those it may read.
    const contributor = await users.as('contributor', 'GET', `/cms/v2/comments?post=${post}&status=hold`);
    expect(contributor.status).toBe(200);
    expect(contributor.body).toEqual([]);
    expect((await app.request('GET', '/cms/v2/comments/999999')).body).toEqual({
      code: 'rest_comment_invalid_id',
      message: 'Invalid comment ID.',
      data: { status: 404 },
    });
  });

  it('filters, orders and pages', async () => {
    const p = await makePost({ title: 'Filters' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await adminComment(p, `Filter comment ${i} needle${i % 2}`, { author: users.ids.editor, date: `2024-01-0${i + 1}T10:00:00` })).id);
    const get = async (q: string) => (await app.request('GET', `/cms/v2/comments?post=${p}&${q}`)).body.map((c: { id: number }) => c.id);
    expect(await get('')).toEqual([...ids].reverse());
    expect(await get('order=asc')).toEqual(ids);
    expect(await get('search=needle1')).toEqual([ids[3], ids[1]]);
    expect(await get('after=2024-01-02T12:00:00&before=2024-01-05T00:00:00')).toEqual([ids[3], ids[2]]);
    expect(await get(`include=${ids[0]},${ids[4]},${ids[2]}&orderby=include`)).toEqual([ids[0], ids[4], ids[2]]);
    expect(await get(`exclude=${ids[0]},${ids[1]}`)).toEqual([ids[4], ids[3], ids[2]]);
    const paged = await app.request('GET', `/cms/v2/comments?post=${p}&per_page=2&page=2`);
    expect(paged.body.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(paged.headers.get('x-wp-total')).toBe('5');
    expect(paged.headers.get('x-wp-totalpages')).toBe('3');
    expect(paged.headers.get('link')).toContain('rel="prev"');
    expect(paged.headers.get('link')).toContain('rel="next"');
    expect(await get('offset=3')).toEqual([ids[1], ids[0]]);
    const beyond = await app.request('GET', `/cms/v2/comments?post=${p}&page=9`);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-wp-total')).toBe('5');
    const byAuthor = await users.as('editor', 'GET', `/cms/v2/comments?post=${p}&author=${users.ids.editor}&per_page=1`);
    expect(byAuthor.headers.get('x-wp-total')).toBe('5');
    const byEmail = await users.as('editor', 'GET', `/cms/v2/comments?post=${p}&author_email=r-editor@example.com`);
    expect(byEmail.body).toHaveLength(5);
    expect((await users.as('editor', 'GET', `/cms/v2/comments?post=${p}&author_email=nobody@example.com`)).body).toEqual([]);
    const excluded = await users.as('editor', 'GET', `/cms/v2/comments?post=${p}&author_exclude=${users.ids.editor}`);
    expect(excluded.body).toEqual([]);
    expect((await app.request('GET', `/cms/v2/comments?post=${p}&orderby=karma`)).status).toBe(400);
    const parents = await app.request('GET', `/cms/v2/comments?parent=${approved}`);
    expect(parents.body.map((c: { id: number }) => c.id)).toEqual([reply]);
    const noParent = await app.request('GET', `/cms/v2/comments?post=${post}&parent_exclude=${approved}`);
    expect(noParent.body.map((c: { id: number }) => c.id)).toEqual([approved]);
  });

  it('never shows comments of private, draft or protected posts to those who may not read them', async () => {
    const priv = await makePost({ title: 'Private comments' });
    const c1 = await adminComment(priv, 'On a soon private post');
    await app.admin('POST', `/cms/v2/posts/${priv}`, { body: { status: 'private' } });
    const locked = await makePost({ title: 'Locked', password: 'sesame' });
    const c2 = await adminComment(locked, 'On a protected post');
    expect((await app.request('GET', `/cms/v2/comments?post=${priv}`)).body.code).toBe('rest_cannot_read_post');
    expect((await app.request('GET', `/cms/v2/comments/${c1.id}`)).body.code).toBe('rest_cannot_read');
    expect((await users.as('subscriber', 'GET', `/cms/v2/comments?post=${priv}`)).status).toBe(403);
    const everything = (await app.request('GET', '/cms/v2/comments?per_page=100')).body.map((c: { id: number }) => c.id);
    expect(everything).not.toContain(c1.id);
    expect(everything).not.toContain(c2.id);
    expect((await app.request('GET', `/cms/v2/comments?post=${locked}`)).body.code).toBe('rest_cannot_read_post');
    expect((await app.request('GET', `/cms/v2/comments?post=${locked}&password=wrong`)).body.code).toBe('rest_cannot_read_post');
    const withPassword = await app.request('GET', `/cms/v2/comments?post=${locked}&password=sesame`);
    expect(withPassword.body.map((c: { id: number }) => c.id)).toEqual([c2.id]);
    expect((await app.request('GET', `/cms/v2/comments/${c2.id}?password=sesame`)).status).toBe(200);
    expect((await app.request('GET', `/cms/v2/comments/${c2.id}`)).status).toBe(401);
    // Commenting on a protected post needs its password too.
    const f = await freshUsers();
    expect((await f.as('subscriber', 'POST', '/cms/v2/comments', { body: { post: locked, content: 'Let me in' } })).body.code).toBe('rest_cannot_read_post');
    expect((await f.as('subscriber', 'POST', '/cms/v2/comments', { body: { post: locked, content: 'Let me in', password: 'sesame' } })).status).toBe(201);
    // A post id of 0 lists comments without a post: moderators only.
    expect((await users.as('subscriber', 'GET', '/cms/v2/comments?post=0')).body.code).toBe('rest_cannot_read');
    expect((await users.as('editor', 'GET', '/cms/v2/comments?post=0')).status).toBe(200);
  });

  it('embeds approved comments as the replies of a post', async () => {
    const res = await app.request('GET', `/cms/v2/posts/${post}?_embed=replies`);
    expect(res.body._links.replies).toEqual([{ embeddable: true, href: `${ROOT}/cms/v2/comments?post=${post}` }]);
    expect(res.body._embedded.replies[0].map((c: { id: number }) => c.id)).toEqual([reply, approved]);
    expect(res.body._embedded.replies[0][0]).not.toHaveProperty('author_email');
  });
});

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
    const { openStore } = await import('../../../libs/store');
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
