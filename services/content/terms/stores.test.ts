import { startTestApp, type TestApp, appStores } from '../../../test/support/app';

/** The terms rules on both store adapters: the same answers from the embedded store and MongoDB. */
describe.each(appStores('terms'))('cms/v2 terms on %s', (_name, env) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(env);
  });
  afterAll(async () => {
    await app.close();
  });

  it('inserts, lists, counts and deletes alike', async () => {
    const make = async (body: Record<string, unknown>) => {
      const res = await app.admin('POST', '/cms/v2/categories', { body });
      if (res.status !== 201) throw new Error(res.text);
      return res.body as { id: number; slug: string };
    };
    const ids = async (query: string) => ((await app.request('GET', `/cms/v2/categories?${query}`)).body as Array<{ id: number }>).map((t) => t.id);
    const top = await make({ name: 'Store Top' });
    const child = await make({ name: 'Store Child', parent: top.id });
    const twin = await make({ name: 'Store Kid', parent: top.id, slug: 'store-child' });
    expect(twin.slug).toBe('store-child-store-top');
    expect((await app.admin('POST', '/cms/v2/categories', { body: { name: 'store child', parent: top.id } })).body).toMatchObject({
      code: 'term_exists',
      data: { term_id: child.id },
    });
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'In child', status: 'publish', categories: [child.id] } })).body;
    expect(await ids('search=store&hide_empty=true')).toEqual([child.id, top.id]);
    expect(await ids('search=STORE&orderby=id&order=desc')).toEqual([twin.id, child.id, top.id]);
    expect(await ids(`post=${post.id}`)).toEqual([child.id]);
    expect((await app.request('GET', `/cms/v2/categories/${child.id}`)).body.count).toBe(1);
    const uncategorized = ((await app.request('GET', '/cms/v2/categories?slug=uncategorized')).body as Array<{ id: number; count: number }>)[0];
    expect((await app.admin('DELETE', `/cms/v2/categories/${child.id}?force=true`)).status).toBe(200);
    expect((await app.admin('GET', `/cms/v2/posts/${post.id}`)).body.categories).toEqual([uncategorized.id]);
    expect((await app.request('GET', `/cms/v2/categories/${uncategorized.id}`)).body.count).toBe(uncategorized.count + 1);
    expect((await app.request('GET', `/cms/v2/posts?categories=${uncategorized.id}`)).body.map((p: { id: number }) => p.id)).toContain(post.id);
    expect(await ids(`parent=${top.id}`)).toEqual([twin.id]);
  });
});
