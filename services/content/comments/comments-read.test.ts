/** cms/v2 comments through real HTTP: the list filters, what never leaks, and the `replies` embed of a post. */
import type { Who } from '../../../test/support/roles';
import { adminComment, app, freshUsers, makePost, matrix, ROOT, useCommentsApp, users } from './comments.fixtures';

useCommentsApp();

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
