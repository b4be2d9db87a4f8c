/**
 * The `wpapi` client, driven only by the site index's routes, uses cms/v2 types, statuses, taxonomies,
 * search and settings as it would against the reference system.
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

const client = (auth: boolean) => wpapiClient(app, 'cms/v2', auth);

describe('wpapi against the cms/v2 discovery, search and settings routes', () => {
  it('reads types, statuses and taxonomies', async () => {
    const cms = await client(false);
    const types = await cms.types();
    expect(Object.keys(types)).toEqual(['post', 'page', 'attachment']);
    expect((await cms.types().type('page')).rest_base).toBe('pages');
    const statuses = await cms.statuses();
    expect(Object.keys(statuses)).toEqual(['publish']);
    expect(statuses.publish.name).toBe('Published');
    expect(Object.keys(await cms.taxonomies())).toEqual(['category', 'post_tag', 'vendor_events_cat']);
    expect((await cms.taxonomies().taxonomy('post_tag')).rest_base).toBe('tags');
    expect(Object.keys(await cms.taxonomies().param('type', 'post'))).toEqual(['category', 'post_tag']);
    await expect(cms.types().type('nope').get()).rejects.toMatchObject({ code: 'rest_type_invalid' });
  });

  it('searches with paging', async () => {
    const admin = await client(true);
    for (let i = 0; i < 3; i++) await admin.posts().create({ title: `Searchable ${i}`, status: 'publish' });
    const cms = await client(false);
    const first = await cms.search().search('searchable').perPage(2);
    expect(first).toHaveLength(2);
    expect(first[0]).toMatchObject({ type: 'post', subtype: 'post' });
    expect(first._paging).toMatchObject({ total: 3, totalPages: 2 });
    const next = await first._paging.next;
    expect(next).toHaveLength(1);
    const terms = await cms.search().param('type', 'term').search('uncat');
    expect(terms.map((t: { title: string }) => t.title)).toEqual(['Uncategorized']);
  });

  it('reads and updates the settings as an administrator, and is refused as a guest', async () => {
    const admin = await client(true);
    const settings = await admin.settings();
    expect(settings.title).toBe('Events Calendar');
    const updated = await admin.settings().update({ title: 'Set by wpapi', timezone: 'Europe/Berlin' });
    expect(updated).toMatchObject({ title: 'Set by wpapi', timezone: 'Europe/Berlin' });
    expect((await app.request('GET', '/')).body).toMatchObject({ name: 'Set by wpapi', timezone_string: 'Europe/Berlin' });
    const guest = await client(false);
    await expect(guest.settings().get()).rejects.toMatchObject({ code: 'rest_forbidden' });
  });
});
