import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers, type Who } from '../../../test/support/roles';

let app: TestApp;
let store: Store;
let users: RoleUsers;

const WHO: Who[] = ['guest', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];
const KINDS = ['events', 'organizers', 'venues'] as const;

async function create(plural: string, body: Record<string, unknown>, who: Who = 'administrator'): Promise<any> {
  const res = await users.as(who, 'POST', `/ec/v1/${plural}`, { body });
  if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
  return res.body;
}

/** Status (and code when refused) per caller. */
async function matrix(call: (who: Who) => Promise<{ status: number; body: any }>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const who of WHO) {
    const res = await call(who);
    out[who] = res.status >= 400 && res.body?.code ? `${res.status} ${res.body.code}` : String(res.status);
  }
  return out;
}

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
  users = await createRoleUsers(app, 'ecperm');
});
afterAll(async () => {
  await store.close();
  await app.close();
});

describe.each(KINDS)('%s', (plural) => {
  const base = `/ec/v1/${plural}`;
  const body = (extra: Record<string, unknown> = {}) => ({
    title: `A ${plural} record`,
    ...(plural === 'events' ? { start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 12:00:00' } : {}),
    ...extra,
  });

  it('lists are public; guests see published records only, whatever status they ask for', async () => {
    const pub = await create(plural, body());
    const draft = await create(plural, body({ status: 'draft' }));
    const guest = (await users.as('guest', 'GET', `${base}?status=draft,publish&per_page=100`)).body.map((e: { id: number }) => e.id);
    expect(guest).toContain(pub.id);
    expect(guest).not.toContain(draft.id);
    const editor = (await users.as('editor', 'GET', `${base}?status=draft&per_page=100`)).body.map((e: { id: number }) => e.id);
    expect(editor).toContain(draft.id);
    // A contributor may ask for drafts, and sees their own only.
    const own = await create(plural, body({ status: 'draft' }), 'contributor');
    const contributor = (await users.as('contributor', 'GET', `${base}?status=draft&per_page=100`)).body.map((e: { id: number }) => e.id);
    expect(contributor).toContain(own.id);
    expect(contributor).not.toContain(draft.id);
  });

  it('single reads: published for all; drafts and private ones for those who may read them, else 401/403 rest_forbidden', async () => {
    const pub = await create(plural, body());
    const draft = await create(plural, body({ status: 'draft' }));
    const priv = await create(plural, body({ status: 'private' }));
    const all200 = Object.fromEntries(WHO.map((w) => [w, '200']));
    expect(await matrix((w) => users.as(w, 'GET', `${base}/${pub.id}`))).toEqual(all200);
    const hidden = {
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '403 rest_forbidden',
      author: '403 rest_forbidden',
      editor: '200',
      administrator: '200',
    };
    expect(await matrix((w) => users.as(w, 'GET', `${base}/${draft.id}`))).toEqual(hidden);
    expect(await matrix((w) => users.as(w, 'GET', `${base}/${priv.id}`))).toEqual(hidden);
    const missing = {
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '403 rest_forbidden',
      author: '403 rest_forbidden',
      editor: '403 rest_forbidden',
      administrator: '403 rest_forbidden',
    };
    expect(await matrix((w) => users.as(w, 'GET', `${base}/987654`))).toEqual(missing);
  });

  it('create needs the edit capability; a contributor’s publish becomes pending', async () => {
    const created = await matrix((w) => users.as(w, 'POST', base, { body: body({ title: `by ${w}` }) }));
    expect(created).toEqual({
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '201',
      author: '201',
      editor: '201',
      administrator: '201',
    });
    const byContributor = await store.collection('posts').findOne({ type: { $ne: 'revision' }, title: 'by contributor', status: { $ne: 'trash' } });
    expect(byContributor!.status).toBe('pending');
    const byAuthor = await store.collection('posts').findOne({ title: 'by author' });
    expect(byAuthor!.status).toBe('publish');
  });

  it('update needs edit_post on the record; a refused update changes nothing', async () => {
    const doc = await create(plural, body({ title: 'Original' }));
    const res = await matrix((w) =>
      users.as(w, 'PUT', `${base}/${doc.id}`, { body: { title: w === 'editor' || w === 'administrator' ? `Edited by ${w}` : 'Hacked' } }),
    );
    expect(res).toEqual({
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '403 rest_forbidden',
      author: '403 rest_forbidden',
      editor: '200',
      administrator: '200',
    });
    expect((await store.collection('posts').findOne({ id: doc.id }))!.title).toBe('Edited by administrator');
    const mine = await create(plural, body({ title: 'Mine' }), 'author');
    expect((await users.as('author', 'PATCH', `${base}/${mine.id}`, { body: { title: 'Still mine' } })).status).toBe(200);
    expect((await users.as('contributor', 'PATCH', `${base}/${mine.id}`, { body: { title: 'Not yours' } })).status).toBe(403);
  });

  it('naming another author needs edit_others (a contributor or author cannot write as someone else)', async () => {
    const adminId = (await app.admin('GET', '/cms/v2/users/me')).body.id;
    const other = (w: Who) => (w === 'administrator' ? users.ids.editor : adminId);
    const created = await matrix((w) => users.as(w, 'POST', base, { body: body({ title: `as another by ${w}`, author: other(w) }) }));
    expect(created).toEqual({
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '403 rest_forbidden',
      author: '403 rest_forbidden',
      editor: '201',
      administrator: '201',
    });
    const mine = await create(plural, body({ title: 'Kept', status: 'draft' }), 'contributor');
    expect((await users.as('contributor', 'PUT', `${base}/${mine.id}`, { body: { author: adminId } })).status).toBe(403);
    expect((await store.collection('posts').findOne({ id: mine.id }))!.author).toBe(users.ids.contributor);
    expect((await users.as('contributor', 'PUT', `${base}/${mine.id}`, { body: { author: users.ids.contributor, title: 'Still kept' } })).status).toBe(200);
  });

  it('delete needs delete_post on the record', async () => {
    const docs: Record<string, number> = {};
    for (const w of WHO) docs[w] = (await create(plural, body({ title: `to delete ${w}` }))).id;
    const res = await matrix((w) => users.as(w, 'DELETE', `${base}/${docs[w]}?force=true`));
    expect(res).toEqual({
      guest: '401 rest_forbidden',
      subscriber: '403 rest_forbidden',
      contributor: '403 rest_forbidden',
      author: '403 rest_forbidden',
      editor: '200',
      administrator: '200',
    });
    expect(await store.collection('posts').findOne({ id: docs.editor })).toBeNull();
    expect(await store.collection('posts').findOne({ id: docs.author })).not.toBeNull();
    const own = await create(plural, body({ title: 'own draft', status: 'draft' }), 'contributor');
    expect((await users.as('contributor', 'DELETE', `${base}/${own.id}`)).status).toBe(200);
  });

  it('validation comes before permissions: a guest with a bad argument gets 400', async () => {
    const res = await users.as('guest', 'POST', base, { body: { status: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });
});
