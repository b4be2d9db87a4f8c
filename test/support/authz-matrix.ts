/**
 * The write side of the authorization matrix (test/authz-matrix.test.ts): the row type, and the kit its
 * rows are written with (test/support/authz-rows-*.ts): the app, a user of each role, the store, and
 * fixture makers that write as the administrator.
 */
import sharp from 'sharp';
import { PostsRepository } from '#libs/posts/repository';
import { siteFrom } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import { ImportRecords } from '../../services/aggregator/storage/records';
import { startTestApp, type ApiResponse, type RequestOptions, type TestApp } from './app';
import { openAppStore, Tally, type Expectations, type Ownership } from './authz';
import { createRoleUsers, type RoleUsers, type Who } from './roles';

export type Fx = Record<string, any>;

export interface Req {
  method: string;
  path: string;
  opts?: Omit<RequestOptions, 'auth'>;
}

export interface Row {
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

export const EEA = {
  'X-TEC-EEA':
    'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
};

/**
 * Opens the suite's app (with `env`), a user of each role and the store before its tests, prints the
 * tally and closes them after; returns the kit the rows and tests use.
 */
export function matrixKit(storeName: string, env: Record<string, string | undefined>) {
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

  return {
    get app() {
      return app;
    },
    get users() {
      return users;
    },
    get store() {
      return store;
    },
    get adminId() {
      return adminId;
    },
    get jpeg() {
      return jpeg;
    },
    /** The next number of the suite's counter, for unique names. */
    next: () => ++seq,
    tally,
    uniq,
    made,
    post,
    v1Event,
    v1Linked,
    ecRecord,
    term,
    media,
    user,
    comment,
    appPassword,
    revision,
    records,
    POSTS,
    otherAuthor,
    req,
    body,
  };
}

export type MatrixKit = ReturnType<typeof matrixKit>;
