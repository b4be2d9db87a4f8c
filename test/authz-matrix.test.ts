/**
 * The write side of the authorization matrix: every role of the reference (and a guest) against every
 * write route, on their own records and on others', each cell with the status and error code the
 * reference's capability table gives (guest 401, signed-in user without the capability 403,
 * parameter validation before permission). A refused cell must leave the store as it was: the
 * collections the route writes are fingerprinted before and after.
 *
 * Runs on the embedded store and on MongoDB.
 */
import sharp from 'sharp';
import { PostsRepository } from '../libs/posts/repository';
import { siteFrom } from '../libs/rest/site';
import type { Store } from '../libs/store/types';
import { ImportRecords } from '../services/aggregator/storage/records';
import { startTestApp, type ApiResponse, type RequestOptions, type TestApp } from './support/app';
import { WHO, everyone, fingerprint, from, openAppStore, ownerId, Tally, type Expectations, type Ownership } from './support/authz';
import { createRoleUsers, type RoleUsers, type Who } from './support/roles';

type Fx = Record<string, any>;

interface Req {
  method: string;
  path: string;
  opts?: Omit<RequestOptions, 'auth'>;
}

interface Row {
  area: string;
  action: string;
  ownership: Ownership;
  /** Collections the route writes: unchanged after a refusal. */
  stores: string[];
  /** Makes what the cell acts on, as the administrator, owned by `owner`. */
  setup?: (owner: number, who: Who) => Promise<Fx>;
  request: (fx: Fx, who: Who) => Req;
  expect: Expectations;
  /** A further check of an answer; returns what is wrong, if anything. */
  check?: (res: ApiResponse, who: Who, fx: Fx) => Promise<string | null> | string | null;
}

const EEA = {
  'X-TEC-EEA':
    'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
};

describe.each([
  ['SQLite', {}],
  ['MongoDB', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `authz_matrix_${process.pid}_${Date.now()}` }],
] as const)('authorization matrix, write side (%s)', (storeName, env) => {
  let app: TestApp;
  let users: RoleUsers;
  let store: Store;
  let adminId: number;
  let jpeg: Buffer;
  let seq = 0;
  const tally = new Tally();
  const uniq = (what: string) => `${what} ${++seq}`;

  beforeAll(async () => {
    app = await startTestApp(env);
    users = await createRoleUsers(app, 'mx');
    store = await openAppStore(app);
    adminId = (await app.admin('GET', '/cms/v2/users/me')).body.id;
    jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 20, b: 30 } } })
      .jpeg()
      .toBuffer();
  }, 60_000);
  afterAll(async () => {
    tally.print(`authorization matrix, write side (${storeName})`);
    await store?.close();
    await app?.close();
  });

  /** An administrator's write that a fixture needs; fails loudly if refused. */
  async function made(method: string, path: string, opts: Omit<RequestOptions, 'auth'>): Promise<any> {
    const res = await app.admin(method, path, opts);
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  const post = (base: 'posts' | 'pages', status: string, author: number) =>
    made('POST', `/cms/v2/${base}`, { body: { title: uniq(`${base} ${status}`), content: 'Body', status, author } }).then((b) => ({ id: b.id }));
  const v1Event = (status: string, author: number) =>
    made('POST', '/vendor/events/v1/events', {
      body: { title: uniq('event'), start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 12:00:00', status, author },
    }).then((b) => ({ id: b.id, slug: b.slug }));
  const v1Linked = (kind: 'venue' | 'organizer', status: string, author: number) =>
    made('POST', `/vendor/events/v1/${kind}s`, { body: { [kind]: uniq(kind), status, author } }).then((b) => ({ id: b.id }));
  const ecRecord = (base: 'events' | 'venues' | 'organizers', status: string, author: number) =>
    made('POST', `/ec/v1/${base}`, {
      headers: EEA,
      body: { title: uniq(`ec ${base}`), status, author, ...(base === 'events' ? { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' } : {}) },
    }).then((b) => ({ id: b.id }));
  const term = (path: string) => made('POST', path, { body: { name: uniq('term') } }).then((b) => ({ id: b.id }));
  const media = (author: number) =>
    made('POST', `/cms/v2/media?author=${author}`, {
      raw: jpeg,
      contentType: 'image/jpeg',
      headers: { 'Content-Disposition': `attachment; filename="m${++seq}.jpg"` },
    }).then((b) => ({ id: b.id }));
  const user = () =>
    made('POST', '/cms/v2/users', {
      body: { username: uniq('user').replace(' ', '-'), email: `u${++seq}@example.com`, password: 'pw-123456', roles: ['subscriber'] },
    }).then((b) => ({ id: b.id }));
  const comment = async (postAuthor: number) => {
    const p = await post('posts', 'publish', postAuthor);
    const c = await made('POST', '/cms/v2/comments', { body: { post: p.id, content: uniq('A comment') } });
    return { id: c.id, post: p.id };
  };
  const appPassword = async () => {
    const u = await user();
    const ap = await made('POST', `/cms/v2/users/${u.id}/application-passwords`, { body: { name: 'other' } });
    return { id: u.id, uuid: ap.uuid };
  };
  const revision = async (author: number) => {
    const p = await post('posts', 'publish', author);
    await made('POST', `/cms/v2/posts/${p.id}`, { body: { content: 'Changed body' } });
    const revs = await app.admin('GET', `/cms/v2/posts/${p.id}/revisions`);
    return { id: p.id, revision: revs.body[0].id };
  };
  const records = () =>
    new ImportRecords(new PostsRepository(store), siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }));

  const POSTS = ['posts', 'terms'];
  /** Someone else for `who` to write as: the administrator, or for the administrator the editor. */
  const otherAuthor = (who: Who) => (who === 'administrator' ? users.ids.editor : adminId);
  const req = (method: string, path: string, opts?: Req['opts']): Req => ({ method, path, opts });
  const body = (b: Record<string, unknown>) => ({ body: b });

  const ROWS: Row[] = [
    // cms/v2 posts
    {
      area: 'posts',
      action: 'create a draft',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/posts', body({ title: uniq('new') })),
      expect: from('contributor', 201, 'rest_cannot_create'),
    },
    {
      area: 'posts',
      action: 'create published',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/posts', body({ title: uniq('new'), status: 'publish' })),
      expect: from('author', 201, 'rest_cannot_create', { contributor: { status: 403, code: 'rest_cannot_publish' } }),
    },
    {
      area: 'posts',
      action: 'create private',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/posts', body({ title: uniq('new'), status: 'private' })),
      expect: from('author', 201, 'rest_cannot_create', { contributor: { status: 403, code: 'rest_cannot_publish' } }),
    },
    {
      area: 'posts',
      action: 'create sticky',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/posts', body({ title: uniq('new'), sticky: true })),
      expect: from('author', 201, 'rest_cannot_assign_sticky'),
    },
    {
      area: 'posts',
      action: 'create as another author',
      ownership: 'others',
      stores: POSTS,
      request: (_fx, who) => req('POST', '/cms/v2/posts', body({ title: uniq('new'), author: who === 'administrator' ? users.ids.editor : adminId })),
      expect: from('editor', 201, 'rest_cannot_edit_others'),
    },
    {
      area: 'posts',
      action: 'update a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('contributor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'update a pending post',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'pending', o),
      request: (fx) => req('PUT', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('contributor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'update published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('author', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'publish a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}`, body({ status: 'publish' })),
      expect: from('author', 200, 'rest_cannot_edit', { contributor: { status: 403, code: 'rest_cannot_publish' } }),
    },
    {
      area: 'posts',
      action: 'update a draft',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('PATCH', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'update published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'update private',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'private', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'hand a draft to another author',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx, who) => req('POST', `/cms/v2/posts/${fx.id}`, body({ author: who === 'administrator' ? users.ids.editor : adminId })),
      expect: from('editor', 200, 'rest_cannot_edit_others', {
        guest: { status: 401, code: 'rest_cannot_edit' },
        subscriber: { status: 403, code: 'rest_cannot_edit' },
      }),
    },
    {
      area: 'posts',
      action: 'trash a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('DELETE', `/cms/v2/posts/${fx.id}`),
      expect: from('contributor', 200, 'rest_cannot_delete'),
    },
    {
      area: 'posts',
      action: 'trash published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('DELETE', `/cms/v2/posts/${fx.id}`),
      expect: from('author', 200, 'rest_cannot_delete'),
    },
    {
      area: 'posts',
      action: 'delete published for good',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('DELETE', `/cms/v2/posts/${fx.id}?force=true`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },
    {
      area: 'posts',
      action: 'trash via ?_method=DELETE',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}?_method=DELETE`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },
    {
      area: 'posts',
      action: 'trash a draft',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('DELETE', `/cms/v2/posts/${fx.id}`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },
    {
      area: 'posts',
      action: 'invalid status (validation first)',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/posts', body({ title: uniq('new'), status: 'teststatus' })),
      expect: everyone(400, 'rest_invalid_param'),
    },
    {
      area: 'posts',
      action: 'autosave published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}/autosaves`, body({ content: uniq('autosaved') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'autosave a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('POST', `/cms/v2/posts/${fx.id}/autosaves`, body({ content: uniq('autosaved') })),
      expect: from('contributor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'posts',
      action: 'delete a revision',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => revision(o),
      request: (fx) => req('DELETE', `/cms/v2/posts/${fx.id}/revisions/${fx.revision}?force=true`),
      expect: from('nobody', 200, 'rest_cannot_delete'),
    },

    // cms/v2 pages
    {
      area: 'pages',
      action: 'create a draft',
      ownership: 'none',
      stores: POSTS,
      request: () => req('POST', '/cms/v2/pages', body({ title: uniq('page') })),
      expect: from('editor', 201, 'rest_cannot_create'),
    },
    {
      area: 'pages',
      action: 'update published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('pages', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/pages/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'pages',
      action: 'update published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('pages', 'publish', o),
      request: (fx) => req('POST', `/cms/v2/pages/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'pages',
      action: 'trash a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => post('pages', 'draft', o),
      request: (fx) => req('DELETE', `/cms/v2/pages/${fx.id}`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },

    // vendor/events/v1
    {
      area: 'events v1',
      action: 'create published',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req(
          'POST',
          '/vendor/events/v1/events',
          body({ title: uniq('event'), start_date: '2031-02-02 10:00:00', end_date: '2031-02-02 11:00:00', status: 'publish' }),
        ),
      expect: from('contributor', 201, 'rest_forbidden'),
      check: (res, who) => (res.status === 201 && res.body.status !== (who === 'contributor' ? 'pending' : 'publish') ? `stored as ${res.body.status}` : null),
    },
    {
      area: 'events v1',
      action: 'update a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('contributor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('PUT', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('author', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update a draft by slug',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/by-slug/${fx.slug}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('contributor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('author', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash a draft by slug',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/by-slug/${fx.slug}`),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'create as another author',
      ownership: 'others',
      stores: POSTS,
      request: (_fx, who) =>
        req(
          'POST',
          '/vendor/events/v1/events',
          body({ title: uniq('event'), start_date: '2031-02-02 10:00:00', end_date: '2031-02-02 11:00:00', author: otherAuthor(who) }),
        ),
      expect: from('editor', 201, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'hand a draft to another author',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx, who) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ author: otherAuthor(who) })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    ...(['venue', 'organizer'] as const).flatMap((kind): Row[] => [
      {
        area: `${kind}s v1`,
        action: 'create',
        ownership: 'none',
        stores: POSTS,
        request: () => req('POST', `/vendor/events/v1/${kind}s`, body({ [kind]: uniq(kind) })),
        expect: from('contributor', 201, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'create as another author',
        ownership: 'others',
        stores: POSTS,
        request: (_fx, who) => req('POST', `/vendor/events/v1/${kind}s`, body({ [kind]: uniq(kind), author: otherAuthor(who) })),
        expect: from('editor', 201, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'update a draft',
        ownership: 'own',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'draft', o),
        request: (fx) => req('POST', `/vendor/events/v1/${kind}s/${fx.id}`, body({ [kind]: uniq('edited') })),
        expect: from('contributor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'update published',
        ownership: 'others',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('POST', `/vendor/events/v1/${kind}s/${fx.id}`, body({ [kind]: uniq('edited') })),
        expect: from('editor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash published',
        ownership: 'own',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('DELETE', `/vendor/events/v1/${kind}s/${fx.id}`),
        expect: from('author', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash published',
        ownership: 'others',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('DELETE', `/vendor/events/v1/${kind}s/${fx.id}`),
        expect: from('editor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash a missing one (validation first)',
        ownership: 'none',
        stores: POSTS,
        request: () => req('DELETE', `/vendor/events/v1/${kind}s/999999`),
        expect: everyone(400, 'rest_invalid_param'),
      },
    ]),

    // ec/v1
    ...(['events', 'venues', 'organizers'] as const).flatMap((base): Row[] => {
      const extra = base === 'events' ? { start_date: '2031-03-02 10:00:00', end_date: '2031-03-02 11:00:00' } : {};
      const area = `${base} ec/v1`;
      return [
        {
          area,
          action: 'create',
          ownership: 'none',
          stores: POSTS,
          request: () => req('POST', `/ec/v1/${base}`, { headers: EEA, body: { title: uniq('ec'), ...extra } }),
          expect: from('contributor', 201, 'rest_forbidden'),
        },
        {
          area,
          action: 'create as another author',
          ownership: 'others',
          stores: POSTS,
          request: (_fx, who) => req('POST', `/ec/v1/${base}`, { headers: EEA, body: { title: uniq('ec'), author: otherAuthor(who), ...extra } }),
          expect: from('editor', 201, 'rest_forbidden'),
        },
        {
          area,
          action: 'hand a draft to another author',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx, who) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { author: otherAuthor(who) } }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update a draft',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('contributor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update published',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('PATCH', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('author', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update published',
          ownership: 'others',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'trash a draft',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx) => req('DELETE', `/ec/v1/${base}/${fx.id}`, { headers: EEA }),
          expect: from('contributor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'delete published for good',
          ownership: 'others',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('DELETE', `/ec/v1/${base}/${fx.id}?force=true`, { headers: EEA }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
      ];
    }),

    // terms: cms/v2 and vendor/events/v1
    ...(
      [
        ['categories cms/v2', '/cms/v2/categories', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['tags cms/v2', '/cms/v2/tags', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['event categories cms/v2', '/cms/v2/vendor_events_cat', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['categories v1', '/vendor/events/v1/categories', '', 'rest_forbidden', 'rest_forbidden', 'rest_forbidden'],
        ['tags v1', '/vendor/events/v1/tags', '', 'rest_forbidden', 'rest_forbidden', 'rest_forbidden'],
      ] as const
    ).flatMap(([area, path, force, create, update, del]): Row[] => {
      // Who manages the terms: core's categories and tags need manage_categories (editors), but a flat
      // taxonomy's terms are created with assign_terms (edit_posts, contributors) in cms/v2; the
      // calendar registers its event categories with publish_vendor_events (authors) for all four.
      const manager = (path.includes('categories') && path.includes('vendor')) || path.endsWith('vendor_events_cat') ? 'author' : 'editor';
      const creator = path === '/cms/v2/tags' ? 'contributor' : manager;
      return [
        {
          area,
          action: 'create',
          ownership: 'none',
          stores: ['terms'],
          request: () => req('POST', path, body({ name: uniq('term') })),
          expect: from(creator, 201, create),
        },
        {
          area,
          action: 'update',
          ownership: 'none',
          stores: ['terms'],
          setup: () => term(path),
          request: (fx) => req('POST', `${path}/${fx.id}`, body({ name: uniq('renamed') })),
          expect: from(manager, 200, update),
        },
        {
          area,
          action: 'delete',
          ownership: 'none',
          stores: ['terms', 'posts'],
          setup: () => term(path),
          request: (fx) => req('DELETE', `${path}/${fx.id}${force}`),
          expect: from(manager, 200, del),
        },
      ];
    }),
    {
      area: 'categories v1',
      action: 'delete a missing one (validation first)',
      ownership: 'none',
      stores: ['terms'],
      request: () => req('DELETE', '/vendor/events/v1/categories/999999'),
      expect: everyone(400, 'rest_invalid_param'),
    },

    // media
    {
      area: 'media',
      action: 'upload',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req('POST', '/cms/v2/media', { raw: jpeg, contentType: 'image/jpeg', headers: { 'Content-Disposition': `attachment; filename="up${++seq}.jpg"` } }),
      expect: from('author', 201, 'rest_cannot_create'),
    },
    {
      area: 'media',
      action: "upload to another's post",
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) =>
        req('POST', `/cms/v2/media?post=${fx.id}`, {
          raw: jpeg,
          contentType: 'image/jpeg',
          headers: { 'Content-Disposition': `attachment; filename="up${++seq}.jpg"` },
        }),
      expect: from('editor', 201, 'rest_cannot_create', { author: { status: 403, code: 'rest_cannot_edit' } }),
    },
    {
      area: 'media',
      action: 'update',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('POST', `/cms/v2/media/${fx.id}`, body({ title: uniq('media') })),
      expect: from('author', 200, 'rest_cannot_edit'),
    },
    {
      area: 'media',
      action: 'update',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('POST', `/cms/v2/media/${fx.id}`, body({ alt_text: uniq('alt') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'media',
      action: 'delete',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('DELETE', `/cms/v2/media/${fx.id}?force=true`),
      expect: from('author', 200, 'rest_cannot_delete'),
    },
    {
      area: 'media',
      action: 'delete',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('DELETE', `/cms/v2/media/${fx.id}?force=true`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },

    // comments
    {
      area: 'comments',
      action: 'comment on a published post',
      ownership: 'none',
      stores: ['comments'],
      setup: () => post('posts', 'publish', users.ids.editor),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Nice post') })),
      expect: from('subscriber', 201, 'rest_comment_login_required'),
    },
    {
      area: 'comments',
      action: 'comment as another user',
      ownership: 'others',
      stores: ['comments'],
      setup: () => post('posts', 'publish', users.ids.editor),
      request: (fx, who) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Spoofed'), author: otherAuthor(who) })),
      expect: from('editor', 201, 'rest_comment_invalid_author', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: 'comment approved at once',
      ownership: 'none',
      stores: ['comments'],
      setup: () => post('posts', 'publish', users.ids.editor),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Approve me'), status: 'approved' })),
      expect: from('editor', 201, 'rest_comment_invalid_status', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: 'comment on a draft',
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('On a draft') })),
      expect: from('nobody', 201, 'rest_comment_draft_post', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: "edit a comment on the actor's post",
      ownership: 'own',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('POST', `/cms/v2/comments/${fx.id}`, body({ content: uniq('edited') })),
      expect: from('author', 200, 'rest_cannot_edit'),
    },
    {
      area: 'comments',
      action: "edit a comment on another's post",
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('POST', `/cms/v2/comments/${fx.id}`, body({ content: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'comments',
      action: "delete a comment on another's post",
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('DELETE', `/cms/v2/comments/${fx.id}?force=true`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },

    // users
    {
      area: 'users',
      action: 'create',
      ownership: 'none',
      stores: ['users'],
      request: () => req('POST', '/cms/v2/users', body({ username: `new-${++seq}`, email: `new${seq}@example.com`, password: 'pw-123456' })),
      expect: from('administrator', 201, 'rest_cannot_create_user'),
    },
    {
      area: 'users',
      action: 'update own name',
      ownership: 'own',
      stores: ['users'],
      request: () => req('POST', '/cms/v2/users/me', body({ name: uniq('Name') })),
      expect: from('subscriber', 200, 'rest_not_logged_in'),
    },
    {
      area: 'users',
      action: 'make oneself administrator',
      ownership: 'own',
      stores: ['users'],
      request: (_fx, who) => req('POST', `/cms/v2/users/${who === 'guest' ? adminId : users.ids[who]}`, body({ roles: ['administrator'] })),
      expect: from('administrator', 200, 'rest_cannot_edit_roles', { guest: { status: 401, code: 'rest_cannot_edit' } }),
    },
    {
      area: 'users',
      action: 'update',
      ownership: 'others',
      stores: ['users'],
      setup: () => user(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}`, body({ name: uniq('Name') })),
      expect: from('administrator', 200, 'rest_cannot_edit'),
    },
    {
      area: 'users',
      action: 'delete',
      ownership: 'others',
      stores: ['users', 'posts'],
      setup: () => user(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}?force=true&reassign=${adminId}`),
      expect: from('administrator', 200, 'rest_user_cannot_delete'),
    },

    // application passwords
    {
      area: 'application passwords',
      action: 'create',
      ownership: 'own',
      stores: ['users'],
      request: () => req('POST', '/cms/v2/users/me/application-passwords', body({ name: uniq('mine') })),
      expect: from('subscriber', 201, 'rest_not_logged_in'),
    },
    {
      area: 'application passwords',
      action: 'create',
      ownership: 'others',
      stores: ['users'],
      setup: () => user(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}/application-passwords`, body({ name: 'theirs' })),
      expect: from('administrator', 201, 'rest_cannot_create_application_passwords'),
    },
    {
      area: 'application passwords',
      action: 'list',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('GET', `/cms/v2/users/${fx.id}/application-passwords`),
      expect: from('administrator', 200, 'rest_cannot_list_application_passwords'),
    },
    {
      area: 'application passwords',
      action: 'rename',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}/application-passwords/${fx.uuid}`, body({ name: 'renamed' })),
      expect: from('administrator', 200, 'rest_cannot_edit_application_password'),
    },
    {
      area: 'application passwords',
      action: 'delete one',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}/application-passwords/${fx.uuid}`),
      expect: from('administrator', 200, 'rest_cannot_delete_application_password'),
    },
    {
      area: 'application passwords',
      action: 'delete all',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}/application-passwords`),
      expect: from('administrator', 200, 'rest_cannot_delete_application_passwords'),
    },

    // settings
    {
      area: 'settings',
      action: 'update the site title',
      ownership: 'none',
      stores: ['options'],
      request: () => req('POST', '/cms/v2/settings', body({ title: uniq('Site') })),
      expect: from('administrator', 200, 'rest_forbidden'),
    },

    // imports: the remote import service authenticates by the record's batch hash, not by a user
    {
      area: 'imports',
      action: 'batch for an unknown import',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req(
          'POST',
          '/vendor/event-aggregator/v1/import/nosuchimport/batch',
          body({ batch_hash: 'x', percentage_complete: 1, status: { data: { total: 1, done: 0 }, batch: { total: 1, done: 0 } }, events: [] }),
        ),
      expect: everyone(400, 'rest_invalid_param'),
    },
    {
      area: 'imports',
      action: 'state with a wrong hash',
      ownership: 'none',
      stores: POSTS,
      setup: async () => {
        const importId = `imp${++seq}${Date.now()}`;
        await records().create({ importId, origin: 'ical', batchHash: 'the-real-secret' });
        return { importId };
      },
      request: (fx) =>
        req(
          'POST',
          `/vendor/event-aggregator/v1/import/${fx.importId}/state`,
          body({ batch_hash: 'guessed', status: 'failed', message: 'm', message_slug: 's', percentage_complete: 50 }),
        ),
      expect: everyone(400, 'rest_invalid_param'),
    },
    {
      area: 'imports',
      action: 'state with the right hash',
      ownership: 'none',
      stores: POSTS,
      setup: async () => {
        const importId = `imp${++seq}${Date.now()}`;
        await records().create({ importId, origin: 'ical', batchHash: 'the-real-secret' });
        return { importId };
      },
      request: (fx) =>
        req(
          'POST',
          `/vendor/event-aggregator/v1/import/${fx.importId}/state`,
          body({ batch_hash: 'the-real-secret', status: 'pending', message: 'm', message_slug: 's', percentage_complete: 50 }),
        ),
      expect: everyone(200),
    },
  ];

  it(`answers every cell as the reference's capability table says, and a refusal changes nothing`, async () => {
    const wrong: string[] = [];
    for (const row of ROWS) {
      for (const who of WHO) {
        const fx = row.setup ? await row.setup(ownerId(users, adminId, who, row.ownership), who) : {};
        const r = row.request(fx, who);
        const want = row.expect[who];
        const refused = want.status >= 400;
        const named = [fx.id, fx.post, fx.revision].filter((v): v is number => typeof v === 'number');
        const before = refused ? await fingerprint(store, row.stores, named) : '';
        const res = await users.as(who, r.method, r.path, r.opts);
        const label = `${row.area} | ${row.action} | ${row.ownership} | ${who}`;
        const gotCode = res.status >= 400 ? res.body?.code : undefined;
        if (res.status !== want.status || (want.code && gotCode !== want.code)) {
          wrong.push(`${label}: expected ${want.status} ${want.code ?? ''}, got ${res.status} ${gotCode ?? ''}`.trim());
        } else if (refused && (await fingerprint(store, row.stores, named)) !== before) {
          wrong.push(`${label}: refused, but the store changed`);
        } else if (row.check) {
          const problem = await row.check(res, who, fx);
          if (problem) wrong.push(`${label}: ${problem}`);
        }
        tally.add(row.area, refused);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('batch sub-requests each run with the caller’s own rights', async () => {
    const published = await post('posts', 'publish', adminId);
    const subs: Array<{ label: string; request: Record<string, unknown> | ((who: Who) => Record<string, unknown>); expect: Expectations }> = [
      {
        label: 'create a draft post',
        request: { method: 'POST', path: '/cms/v2/posts', body: { title: 'batched' } },
        expect: from('contributor', 201, 'rest_cannot_create'),
      },
      {
        label: 'create a page',
        request: { method: 'POST', path: '/cms/v2/pages', body: { title: 'batched page' } },
        expect: from('editor', 201, 'rest_cannot_create'),
      },
      {
        label: 'create a category',
        request: { method: 'POST', path: '/cms/v2/categories', body: { name: 'batched' } },
        expect: from('editor', 201, 'rest_cannot_create'),
      },
      {
        label: "edit the administrator's published post",
        request: { method: 'PUT', path: `/cms/v2/posts/${published.id}`, body: { title: 'batched edit' } },
        expect: from('editor', 200, 'rest_cannot_edit'),
      },
      // Users are not batchable here (the interface lists posts, pages and, as the reference, terms).
      {
        label: 'rename oneself as users/me',
        request: { method: 'POST', path: '/cms/v2/users/me', body: { name: 'Batched' } },
        expect: everyone(400, 'rest_batch_not_allowed'),
      },
      {
        label: 'trash published post for good',
        request: { method: 'DELETE', path: `/cms/v2/posts/${published.id}?force=true` },
        expect: from('administrator', 200, 'rest_cannot_delete', { editor: 200 }),
      },
    ];
    const wrong: string[] = [];
    // Lowest rights first, so the refusals see the post the administrator deletes at the end.
    for (const who of WHO) {
      const n = ++seq;
      const requests = subs.map((sub) => {
        const s = { request: typeof sub.request === 'function' ? sub.request(who) : sub.request };
        const body = s.request.body as Record<string, unknown> | undefined;
        return {
          ...s.request,
          ...(body ? { body: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? `${v} ${n}` : v])) } : {}),
        };
      });
      const allRefused = subs.every((s) => s.expect[who].status >= 400);
      const before = allRefused ? await fingerprint(store, ['posts', 'terms', 'users'], [published.id]) : '';
      // The editor edits and deletes the post; the administrator's own run finds it gone.
      const res = await users.as(who, 'POST', '/batch/v1', { body: { requests: who === 'administrator' ? requests.slice(0, 3) : requests } });
      if (res.status !== 207) {
        wrong.push(`batch | ${who}: expected 207, got ${res.status}`);
        continue;
      }
      res.body.responses.forEach((r: { status: number; body: { code?: string } }, i: number) => {
        const want = subs[i].expect[who];
        const code = r.status >= 400 ? r.body?.code : undefined;
        if (r.status !== want.status || (want.code && code !== want.code))
          wrong.push(`batch | ${subs[i].label} | ${who}: expected ${want.status} ${want.code ?? ''}, got ${r.status} ${code ?? ''}`);
        tally.add('batch sub-requests', want.status >= 400);
      });
      if (allRefused && (await fingerprint(store, ['posts', 'terms', 'users'], [published.id])) !== before)
        wrong.push(`batch | ${who}: all refused, but the store changed`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
