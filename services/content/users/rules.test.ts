/**
 * cms/v2/users rules on both store adapters: what a search may look into, unique slugs, and the bounds
 * of every field a user writes (users and their application passwords).
 */
import { APP_PASSWORDS_MAX, USER_LIMITS } from '#libs/auth/limits';
import { startTestApp, type ApiResponse, type TestApp, appStores } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

const x = (n: number, c = 'x') => c.repeat(n);
const ids = (res: ApiResponse): number[] => (res.body as Array<{ id: number }>).map((u) => u.id).sort((a, b) => a - b);

describe.each(appStores('users_rules'))('cms/v2/users rules on %s', (name, env) => {
  let app: TestApp;
  let roles: RoleUsers;
  /** An author with a published post, so every caller may list them. */
  let author: { id: number; slug: string };

  beforeAll(async () => {
    app = await startTestApp(env);
    roles = await createRoleUsers(app, 'ur');
    const made = await app.admin('POST', '/cms/v2/users', {
      body: {
        username: 'searchable',
        email: 'hidden-mail@secret.test',
        url: 'https://hidden-url.test/page',
        name: 'Visible Name',
        slug: 'vis-slug',
        password: 'pw-123456',
        roles: ['author'],
      },
    });
    expect(made.status).toBe(201);
    author = made.body;
    expect((await app.admin('POST', '/cms/v2/posts', { body: { title: 'By the author', status: 'publish', author: author.id } })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('search', () => {
    const search = (who: 'guest' | 'subscriber' | 'administrator', query: string) => roles.as(who, 'GET', `/cms/v2/users?per_page=100&${query}`);

    it('looks only into ID, login, slug and display name for callers who may not list users', async () => {
      for (const who of ['guest', 'subscriber'] as const) {
        for (const term of ['hidden-mail', 'secret.test', 'hidden-mail@secret.test', '@secret', 'hidden-url', 'https://hidden-url.test']) {
          const res = await search(who, `search=${encodeURIComponent(term)}`);
          expect([who, term, res.status, ids(res), res.headers.get('x-wp-total')]).toEqual([who, term, 200, [], '0']);
        }
        // Asking for the e-mail column changes nothing.
        expect(ids(await search(who, 'search=hidden-mail&search_columns=email'))).toEqual([]);
        for (const term of ['searchable', 'SEARCH', 'vis-slug', 'Visible', String(author.id), '*searchable*', '**vis-slug']) {
          expect([who, term, ids(await search(who, `search=${encodeURIComponent(term)}`))]).toEqual([who, term, [author.id]]);
        }
      }
    });

    it('chooses the columns from the term for callers who may, or takes the ones asked for', async () => {
      const find = async (query: string) => ids(await search('administrator', query));
      expect(await find('search=hidden-mail%40secret.test')).toEqual([author.id]);
      expect(await find('search=hidden-mail')).toEqual([author.id]);
      expect(await find(`search=${encodeURIComponent('https://hidden-url')}`)).toEqual([author.id]);
      expect(await find('search=hidden-url')).toEqual([author.id]);
      // An address searches only the e-mail, a URL only the URL.
      expect(await find('search=%40searchable')).toEqual([]);
      expect(await find(`search=${encodeURIComponent('https://searchable')}`)).toEqual([]);
      expect(await find('search=searchable&search_columns=name')).toEqual([]);
      expect(await find('search=searchable&search_columns=username')).toEqual([author.id]);
      expect(await find('search=hidden&search_columns=email&search_columns=name')).toEqual([author.id]);
      expect(await find(`search=${author.id}`)).toContain(author.id);
    });

    it('reads the search text literally, never as a pattern or operator', async () => {
      for (const term of ['.+', '%', '_', '(', '[a-z]+', '\\', '^s', 'searchabl.', '$where', '{"$ne":null}']) {
        for (const who of ['guest', 'administrator'] as const) {
          const res = await search(who, `search=${encodeURIComponent(term)}`);
          expect([who, term, res.status, ids(res)]).toEqual([who, term, 200, []]);
        }
      }
      const operator = await roles.as('guest', 'GET', '/cms/v2/users?search[$ne]=x');
      expect(operator.status).toBe(400);
      expect(operator.body.code).toBe('rest_invalid_param');
    });
  });

  describe('slugs', () => {
    it("refuses another user's slug on an update, changing nothing", async () => {
      const me = await roles.as('subscriber', 'GET', '/cms/v2/users/me?context=edit');
      for (const slug of ['admin', author.slug]) {
        const res = await roles.as('subscriber', 'POST', '/cms/v2/users/me', { body: { slug, name: 'Taken slug' } });
        expect([slug, res.status, res.body.code]).toEqual([slug, 400, 'rest_user_invalid_slug']);
      }
      const after = await roles.as('subscriber', 'GET', '/cms/v2/users/me?context=edit');
      expect(after.body).toMatchObject({ slug: me.body.slug, name: me.body.name });
      const byAdmin = await app.admin('PUT', `/cms/v2/users/${roles.ids.editor}`, { body: { slug: 'admin' } });
      expect([byAdmin.status, byAdmin.body.code]).toEqual([400, 'rest_user_invalid_slug']);
      // One's own slug, or a free one, is fine.
      expect((await roles.as('subscriber', 'POST', '/cms/v2/users/me', { body: { slug: me.body.slug } })).status).toBe(200);
      expect((await roles.as('subscriber', 'POST', '/cms/v2/users/me', { body: { slug: 'ur-subscriber-own' } })).body.slug).toBe('ur-subscriber-own');
      expect(ids(await app.admin('GET', '/cms/v2/users?slug=admin'))).toHaveLength(1);
    });

    it('gives a new user whose slug is taken the next free one, -2, -3...', async () => {
      const create = (username: string, slug?: string) =>
        app.admin('POST', '/cms/v2/users', {
          body: { username, email: `${username.replace(/\W/g, '')}@example.test`, password: 'pw', ...(slug ? { slug } : {}) },
        });
      expect((await create('second-admin', 'admin')).body.slug).toBe('admin-2');
      expect((await create('Admin.')).body.slug).toBe('admin-3');
      expect((await create('admin-2')).body.slug).toBe('admin-2-2');
    });

    it('keeps slugs unique under concurrent creates', async () => {
      // The wire-compatible MongoDB test server does not enforce unique indexes; a real MongoDB does.
      if (name !== 'SQLite') return;
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          app.admin('POST', '/cms/v2/users', { body: { username: `crowd${i}`, email: `crowd${i}@example.test`, password: 'pw', slug: 'crowd' } }),
        ),
      );
      expect(made.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(new Set(made.map((r) => r.body.slug)).size).toBe(8);
    });
  });

  describe('bounds', () => {
    it('refuses every field a user writes past its limit, with the reference’s error where it has one, and stores nothing', async () => {
      const before = (await roles.as('author', 'GET', '/cms/v2/users/me?context=edit')).body;
      const cases: Array<[Record<string, string>, string]> = [
        [{ description: x(USER_LIMITS.description + 1) }, 'rest_invalid_param'],
        [{ first_name: x(USER_LIMITS.first_name + 1) }, 'rest_invalid_param'],
        [{ last_name: x(USER_LIMITS.last_name + 1) }, 'rest_invalid_param'],
        [{ nickname: x(USER_LIMITS.nickname + 1) }, 'rest_invalid_param'],
        [{ name: x(USER_LIMITS.name + 1) }, 'rest_invalid_param'],
        [{ email: `${x(USER_LIMITS.email)}@example.test` }, 'rest_invalid_param'],
        [{ url: `https://example.test/${x(USER_LIMITS.url)}` }, 'user_url_too_long'],
        [{ slug: x(USER_LIMITS.slug + 1) }, 'user_nicename_too_long'],
      ];
      for (const [body, code] of cases) {
        const res = await roles.as('author', 'POST', '/cms/v2/users/me', { body: { first_name: 'Changed?', ...body } });
        expect([Object.keys(body)[0], res.status, res.body.code]).toEqual([Object.keys(body)[0], 400, code]);
      }
      const after = (await roles.as('author', 'GET', '/cms/v2/users/me?context=edit')).body;
      expect(after).toEqual(before);
      // At the limit, in characters (not UTF-16 units).
      const full = await roles.as('author', 'POST', '/cms/v2/users/me', { body: { description: x(USER_LIMITS.description, '😀'), slug: x(USER_LIMITS.slug) } });
      expect(full.status).toBe(200);
      const login = await app.admin('POST', '/cms/v2/users', { body: { username: x(USER_LIMITS.login + 1), email: 'long@example.test', password: 'pw' } });
      expect([login.status, login.body.code]).toEqual([400, 'user_login_too_long']);
    });

    it(`bounds application passwords: names of at most 100 characters, ${APP_PASSWORDS_MAX} per user`, async () => {
      const add = (body: Record<string, string>) => roles.as('contributor', 'POST', '/cms/v2/users/me/application-passwords', { body });
      const long = await add({ name: x(101) });
      expect([long.status, long.body.code]).toEqual([400, 'rest_invalid_param']);
      const first = await add({ name: x(100) });
      expect(first.status).toBe(201);
      const rename = await roles.as('contributor', 'PUT', `/cms/v2/users/me/application-passwords/${first.body.uuid}`, { body: { name: x(101) } });
      expect([rename.status, rename.body.code]).toEqual([400, 'rest_invalid_param']);
      // createRoleUsers gave the contributor one already.
      for (let i = 2; i < APP_PASSWORDS_MAX; i++) expect((await add({ name: `app ${i}` })).status).toBe(201);
      const over = await add({ name: 'one too many' });
      expect([over.status, over.body.code]).toEqual([409, 'application_password_limit_reached']);
      const list = await roles.as('contributor', 'GET', '/cms/v2/users/me/application-passwords');
      expect(list.body).toHaveLength(APP_PASSWORDS_MAX);
    });
  });
});
