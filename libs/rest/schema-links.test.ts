/**
 * The record schema shown by OPTIONS and context=help carries the controller's `links` (the posts
 * controller's action links); controllers without them show none.
 */
import { startTestApp, type TestApp } from '../../test/support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const rels = (schema: { links?: Array<{ rel: string }> }) => (schema.links ?? []).map((l) => l.rel.replace('https://api.w.org/', ''));

it('posts: publish, unfiltered HTML, sticky, author and both taxonomies, aimed at the item route', async () => {
  for (const path of ['/cms/v2/posts', '/cms/v2/posts/1']) {
    const res = await app.request('OPTIONS', path);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.schema).sort()).toEqual(['$schema', 'links', 'properties', 'title', 'type']);
    expect(rels(res.body.schema)).toEqual([
      'action-publish',
      'action-unfiltered-html',
      'action-sticky',
      'action-assign-author',
      'action-assign-categories',
      'action-create-categories',
      'action-assign-tags',
      'action-create-tags',
    ]);
  }
  const [publish, html, , , assignCats] = (await app.request('OPTIONS', '/cms/v2/posts')).body.schema.links;
  expect(publish).toEqual({
    rel: 'https://api.w.org/action-publish',
    title: 'The current user can publish this post.',
    href: 'http://example.test/index.php/cms-json/cms/v2/posts/{id}',
    targetSchema: { type: 'object', properties: { status: { type: 'string', enum: ['publish', 'future'] } } },
  });
  expect(html.targetSchema).toEqual({ type: 'object', properties: { content: { raw: { type: 'string' } } } });
  expect(assignCats).toMatchObject({
    title: 'The current user can assign terms in the category taxonomy.',
    targetSchema: { properties: { categories: { type: 'array', items: { type: 'integer' } } } },
  });
});

it('pages: no sticky and no taxonomies', async () => {
  const res = await app.admin('OPTIONS', '/cms/v2/pages');
  expect(rels(res.body.schema)).toEqual(['action-publish', 'action-unfiltered-html', 'action-assign-author']);
  expect(res.body.schema.links[0].href).toBe('http://example.test/index.php/cms-json/cms/v2/pages/{id}');
});

it('the namespace index with context=help shows the same links', async () => {
  const res = await app.request('GET', '/cms/v2?context=help');
  expect(rels(res.body.routes['/cms/v2/posts'].schema)).toContain('action-sticky');
  // Without help, no schema at all.
  expect((await app.request('GET', '/cms/v2')).body.routes['/cms/v2/posts'].schema).toBeUndefined();
});

it('revisions, autosaves, users and ec/v1 entities have no schema links', async () => {
  for (const path of ['/cms/v2/posts/1/revisions', '/cms/v2/posts/1/autosaves', '/cms/v2/users', '/ec/v1/events']) {
    const res = await app.request('OPTIONS', path);
    expect([path, res.status, 'links' in (res.body.schema ?? {})]).toEqual([path, 200, false]);
  }
});
