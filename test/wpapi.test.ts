/**
 * A client written for the reference system, the `wpapi` npm package, driven only by the site index's
 * routes: it lists, creates, updates and deletes posts through namespace('cms/v2').
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

describe('wpapi against cms/v2', () => {
  it('lists, creates, updates and deletes posts from the routes of the site index', async () => {
    const cms = await wpapiClient(app);

    const created = await cms.posts().create({ title: 'Made by wpapi', content: 'Hello from a client', status: 'publish' });
    expect(created).toMatchObject({ title: { raw: 'Made by wpapi' }, status: 'publish', slug: 'made-by-wpapi' });

    const list = await cms.posts().perPage(5);
    expect(list.map((p: { id: number }) => p.id)).toContain(created.id);
    expect(list._paging).toMatchObject({ total: 1, totalPages: 1 });

    const one = await cms.posts().id(created.id);
    expect(one.content.rendered).toBe('<p>Hello from a client</p>\n');

    const updated = await cms.posts().id(created.id).update({ title: 'Renamed by wpapi' });
    expect(updated.title.raw).toBe('Renamed by wpapi');

    const searched = await cms.posts().search('Renamed');
    expect(searched.map((p: { id: number }) => p.id)).toEqual([created.id]);

    const trashed = await cms.posts().id(created.id).delete();
    expect(trashed.status).toBe('trash');
    const deleted = await cms.posts().id(created.id).param('force', true).delete();
    expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });

    await expect(cms.posts().id(created.id).get()).rejects.toMatchObject({ code: 'rest_post_invalid_id' });
  });

  it('pages many posts with the Link headers', async () => {
    const cms = await wpapiClient(app);
    for (let i = 0; i < 3; i++) await cms.posts().create({ title: `Paged ${i}`, status: 'publish' });
    const first = await cms.posts().perPage(2);
    expect(first).toHaveLength(2);
    expect(first._paging.totalPages).toBe(2);
    const second = await first._paging.next;
    const next = await second;
    expect(next).toHaveLength(1);
  });
});

describe('wpapi categories and tags against cms/v2', () => {
  it('creates, lists, updates and deletes terms with the client’s own .categories() and .tags()', async () => {
    const cms = await wpapiClient(app);

    const cat = await cms.categories().create({ name: 'Made by wpapi', description: 'A category' });
    expect(cat).toMatchObject({ name: 'Made by wpapi', slug: 'made-by-wpapi', taxonomy: 'category' });
    const child = await cms.categories().create({ name: 'Child by wpapi', parent: cat.id });
    const children = await cms.categories().param('parent', cat.id);
    expect(children.map((t: { id: number }) => t.id)).toEqual([child.id]);
    const tag = await cms.tags().create({ name: 'wpapi-tag' });
    const post = await cms.posts().create({ title: 'Tagged by wpapi', status: 'publish', categories: [child.id], tags: [tag.id] });
    const ofPost = await cms.tags().param('post', post.id);
    expect(ofPost).toHaveLength(1);
    expect(ofPost[0]).toMatchObject({ id: tag.id, count: 1 });
    const searched = await cms.categories().search('wpapi').perPage(1);
    expect(searched._paging).toMatchObject({ total: 2, totalPages: 2 });
    const renamed = await cms.tags().id(tag.id).update({ name: 'renamed-tag' });
    expect(renamed.name).toBe('renamed-tag');
    await expect(cms.categories().create({ name: 'Made by wpapi' })).rejects.toMatchObject({ code: 'term_exists', data: { term_id: cat.id } });
    const deleted = await cms.tags().id(tag.id).param('force', true).delete();
    expect(deleted).toMatchObject({ deleted: true, previous: { id: tag.id } });
    await expect(cms.tags().id(tag.id).get()).rejects.toMatchObject({ code: 'rest_term_invalid' });
  });
});
