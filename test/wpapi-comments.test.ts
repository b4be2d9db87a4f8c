/**
 * The `wpapi` client's comments handler, unmodified, against cms/v2: it writes, lists, reads,
 * moderates, trashes and deletes comments through the routes of the site index.
 */
import type { TestApp } from './support/app';
import { startAppForClients, wpapiClient } from './support/wpapi';

let app: TestApp;

beforeAll(async () => {
  app = await startAppForClients();
});
afterAll(async () => {
  await app.close();
});

describe('wpapi comments against cms/v2', () => {
  it('creates, lists, reads, moderates, trashes and deletes comments', async () => {
    const cms = await wpapiClient(app);

    const post = await cms.posts().create({ title: 'Talk about it', content: 'Opinions welcome', status: 'publish' });
    const comment = await cms.comments().create({ post: post.id, content: 'First!' });
    expect(comment).toMatchObject({ post: post.id, status: 'approved', content: { raw: 'First!' } });
    const reply = await cms.comments().create({ post: post.id, parent: comment.id, content: 'Second' });

    const list = await cms.comments().param('post', post.id).order('asc');
    expect(list.map((c: { id: number }) => c.id)).toEqual([comment.id, reply.id]);
    expect(list._paging).toMatchObject({ total: 2, totalPages: 1 });
    const replies = await cms.comments().parent(comment.id);
    expect(replies.map((c: { id: number }) => c.id)).toEqual([reply.id]);

    const one = await cms.comments().id(comment.id);
    expect(one.content.rendered).toBe('<p>First!</p>\n');
    const held = await cms.comments().id(reply.id).update({ status: 'hold', content: 'Second, edited' });
    expect(held).toMatchObject({ status: 'hold', content: { raw: 'Second, edited' } });

    const trashed = await cms.comments().id(reply.id).delete();
    expect(trashed.status).toBe('trash');
    const deleted = await cms.comments().id(reply.id).param('force', true).delete();
    expect(deleted).toMatchObject({ deleted: true, previous: { id: reply.id } });
    await expect(cms.comments().id(reply.id).get()).rejects.toMatchObject({ code: 'rest_comment_invalid_id' });

    // The post embeds its approved comments as replies.
    const embedded = await cms.posts().id(post.id).embed();
    expect(embedded._embedded.replies[0].map((c: { id: number }) => c.id)).toEqual([comment.id]);
  });
});
