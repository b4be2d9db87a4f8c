import { ADMIN, startTestApp, type TestApp } from '../../../test/support/app';
import { openAuthorizeForm, postAuthorizeForm } from '../../../test/support/authorize';

let app: TestApp;
let editorId: number;
let editorPassword: string;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('users', () => {
  it('lists with any integer offset or page (a negative offset skips its absolute value, a huge one skips every row)', async () => {
    for (const q of ['offset=-1', 'offset=99999999999999999999', 'page=99999999999999999999', 'offset=-99999999999999999999']) {
      const res = await app.admin('GET', `/cms/v2/users?${q}`);
      expect([q, res.status, Array.isArray(res.body)]).toEqual([q, 200, true]);
    }
    expect((await app.admin('GET', '/cms/v2/users?offset=99999999999999999999')).body).toEqual([]);
  });

  it('an administrator creates an editor (201, Location, edit context)', async () => {
    const res = await app.admin('POST', '/cms/v2/users', {
      body: { username: 'ed', email: 'Ed@Example.com', password: 'secret-pass', roles: ['editor'], name: 'Ed Itor' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`http://example.test/index.php/cms-json/cms/v2/users/${res.body.id}`);
    expect(res.body).toMatchObject({ username: 'ed', email: 'ed@example.com', roles: ['editor'], name: 'Ed Itor', slug: 'ed' });
    expect(res.body.capabilities.edit_others_posts).toBe(true);
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('pass_hash');
    editorId = res.body.id;
  });

  it('refuses duplicates, bad roles and illegal logins', async () => {
    const dup = await app.admin('POST', '/cms/v2/users', { body: { username: 'ed', email: 'other@example.com', password: 'x' } });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('existing_user_login');
    const mail = await app.admin('POST', '/cms/v2/users', { body: { username: 'ed2', email: 'ed@example.com', password: 'x' } });
    expect(mail.body.code).toBe('existing_user_email');
    const role = await app.admin('POST', '/cms/v2/users', { body: { username: 'ed3', email: 'ed3@example.com', password: 'x', roles: ['pope'] } });
    expect(role.body.code).toBe('rest_user_invalid_role');
    const login = await app.admin('POST', '/cms/v2/users', { body: { username: 'bad<login>', email: 'b@example.com', password: 'x' } });
    expect(login.body.code).toBe('rest_user_invalid_username');
  });

  it('creates an application password for the editor, shown once, that authenticates over Basic', async () => {
    const res = await app.admin('POST', `/cms/v2/users/${editorId}/application-passwords`, { body: { name: 'my app' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'my app', app_id: '', last_used: null, last_ip: null });
    expect(res.body.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(res.headers.get('location')).toContain(`/cms/v2/users/${editorId}/application-passwords/${res.body.uuid}`);
    editorPassword = res.body.password;

    const me = await app.request('GET', '/cms/v2/users/me?context=edit', { auth: ['ed', editorPassword] });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(editorId);
    expect(me.body.roles).toEqual(['editor']);

    const wrong = await app.request('GET', '/cms/v2/users/me', { auth: ['ed', 'aaaa bbbb cccc dddd eeee ffff'] });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('incorrect_password');

    const list = await app.request('GET', '/cms/v2/users/me/application-passwords', { auth: ['ed', editorPassword] });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('password');
    expect(list.body[0].last_used).not.toBeNull();

    const intro = await app.request('GET', '/cms/v2/users/me/application-passwords/introspect', { auth: ['ed', editorPassword] });
    expect(intro.body.uuid).toBe(res.body.uuid);
  });

  it('application passwords: names unique, other users forbidden, delete one and all', async () => {
    const dup = await app.admin('POST', `/cms/v2/users/${editorId}/application-passwords`, { body: { name: 'my app' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('application_password_duplicate_name');
    const blank = await app.admin('POST', `/cms/v2/users/${editorId}/application-passwords`, { body: { name: '   ' } });
    expect(blank.status).toBe(400);

    const sub = await app.admin('POST', '/cms/v2/users', { body: { username: 'sub', email: 'sub@example.com', password: 'x' } });
    const subPass = (await app.admin('POST', `/cms/v2/users/${sub.body.id}/application-passwords`, { body: { name: 'a' } })).body.password;
    const forbidden = await app.request('POST', '/cms/v2/users/1/application-passwords', { body: { name: 'steal' }, auth: ['sub', subPass] });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('rest_cannot_create_application_passwords');
    const anon = await app.request('GET', '/cms/v2/users/me/application-passwords');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('rest_not_logged_in');
    const zero = await app.admin('GET', '/cms/v2/users/0/application-passwords');
    expect(zero.status).toBe(404);
    expect(zero.body.code).toBe('rest_user_invalid_id');

    const second = await app.admin('POST', `/cms/v2/users/${editorId}/application-passwords`, { body: { name: 'second' } });
    const renamed = await app.admin('PUT', `/cms/v2/users/${editorId}/application-passwords/${second.body.uuid}`, { body: { name: 'renamed' } });
    expect(renamed.body.name).toBe('renamed');
    const del = await app.admin('DELETE', `/cms/v2/users/${editorId}/application-passwords/${second.body.uuid}`);
    expect(del.body).toMatchObject({ deleted: true, previous: { uuid: second.body.uuid } });
    const gone = await app.admin('GET', `/cms/v2/users/${editorId}/application-passwords/${second.body.uuid}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest_application_password_not_found');
    const all = await app.admin('DELETE', `/cms/v2/users/${editorId}/application-passwords`);
    expect(all.body).toEqual({ deleted: true, count: 1 });
    const after = await app.request('GET', '/cms/v2/users/me', { auth: ['ed', editorPassword] });
    expect(after.status).toBe(401);
  });

  it('lists users with paging headers; guests see only authors of published content', async () => {
    const res = await app.admin('GET', '/cms/v2/users?per_page=1&orderby=id');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers.get('x-wp-total'))).toBeGreaterThanOrEqual(2);
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.headers.get('link')).toContain('per_page=1');
    const guest = await app.request('GET', '/cms/v2/users');
    expect(guest.status).toBe(200);
    expect(guest.body).toEqual([]);
    const edit = await app.request('GET', '/cms/v2/users?context=edit');
    expect(edit.status).toBe(401);
    expect(edit.body.code).toBe('rest_forbidden_context');
  });

  it('updates a user, refuses a username change, and deletes with force and reassign', async () => {
    const up = await app.admin('POST', `/cms/v2/users/${editorId}`, { body: { first_name: 'Ed', description: 'hello' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ first_name: 'Ed', description: 'hello' });
    const login = await app.admin('PATCH', `/cms/v2/users/${editorId}`, { body: { username: 'other' } });
    expect(login.body.code).toBe('rest_user_invalid_argument');
    const noForce = await app.admin('DELETE', `/cms/v2/users/${editorId}?reassign=1`);
    expect(noForce.status).toBe(501);
    expect(noForce.body.code).toBe('rest_trash_not_supported');
    const badReassign = await app.admin('DELETE', `/cms/v2/users/${editorId}?force=true&reassign=9999`);
    expect(badReassign.body.code).toBe('rest_user_invalid_reassign');
    const del = await app.admin('DELETE', `/cms/v2/users/${editorId}?force=true&reassign=1`);
    expect(del.status).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect(del.body.previous.username).toBe('ed');
    const gone = await app.admin('GET', `/cms/v2/users/${editorId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest_user_invalid_id');
  });

  it('keeps secrets out of responses and the store hashes them', async () => {
    const res = await app.admin('GET', '/cms/v2/users/1?context=edit');
    expect(JSON.stringify(res.body)).not.toContain(ADMIN.appPassword.replace(/ /g, ''));
    expect(JSON.stringify(res.body)).not.toMatch(/hash/);
  });
});

describe('application authorization page', () => {
  it('signs in with the account password and redirects with a new application password', async () => {
    const q = 'app_name=Phone&app_id=0b5b5a5e-2d8c-4b44-9bde-3c2a3a0d7c11&success_url=' + encodeURIComponent('https://app.example/cb');
    const form = await app.request('GET', `/cms-admin/authorize-application.php?${q}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form');
    const fields = {
      app_name: 'Phone',
      app_id: '0b5b5a5e-2d8c-4b44-9bde-3c2a3a0d7c11',
      success_url: 'https://app.example/cb',
      log: ADMIN.login,
      pwd: ADMIN.password,
      action: 'approve',
    };
    const res = await postAuthorizeForm(app.url, fields, await openAuthorizeForm(app.url, q));
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).toBe('https://app.example/cb');
    expect(to.searchParams.get('user_login')).toBe('admin');
    const pw = to.searchParams.get('password')!;
    const me = await app.request('GET', '/cms/v2/users/me', { auth: ['admin', pw] });
    expect(me.status).toBe(200);
  });

  it('refuses insecure redirect URLs and wrong account passwords', async () => {
    const bad = await app.request('GET', `/cms-admin/authorize-application.php?success_url=${encodeURIComponent('http://evil.example/')}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The URL must be served over a secure connection.');
    const fields = { app_name: 'X', log: ADMIN.login, pwd: 'wrong', action: 'approve' };
    const res = await postAuthorizeForm(app.url, fields, await openAuthorizeForm(app.url));
    expect(res.status).toBe(401);
  });
});
