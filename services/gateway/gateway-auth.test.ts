import { ADMIN, startTestApp, type TestApp } from '../../test/support/app';
import { openAuthorizeForm, postAuthorizeForm } from '../../test/support/authorize';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ AUTH_FAILURE_LIMIT: '5' });
});
afterAll(async () => {
  await app.close();
});

describe('authentication', () => {
  it('accepts the application password with or without spaces, by login or e-mail', async () => {
    const a = await app.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword] });
    expect(a.status).toBe(200);
    expect(a.body.slug).toBe('admin');
    const b = await app.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword.replace(/ /g, '')] });
    expect(b.status).toBe(200);
    const c = await app.request('GET', '/cms/v2/users/me', { auth: ['admin@localhost.localdomain', ADMIN.appPassword] });
    expect(c.status).toBe(200);
  });

  it('rejects the account password and failed credentials with 401 even on public routes', async () => {
    const a = await app.request('GET', '/', { auth: [ADMIN.login, ADMIN.password] });
    expect(a.status).toBe(401);
    expect(a.body.code).toBe('incorrect_password');
    const b = await app.request('GET', '/', { auth: ['nobody', 'x'] });
    expect(b.status).toBe(401);
    expect(b.body.code).toBe('invalid_username');
  });

  it('me without credentials is rest_not_logged_in', async () => {
    const res = await app.request('GET', '/cms/v2/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_not_logged_in');
  });

  it('throttles repeated failures from one address', async () => {
    const t = await startTestApp({ AUTH_FAILURE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i++) expect((await t.request('GET', '/', { auth: ['admin', 'wrong'] })).status).toBe(401);
      const blocked = await t.request('GET', '/', { auth: [ADMIN.login, ADMIN.appPassword] });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('too_many_failed_logins');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('failed-login throttle per address and per (address, login)', () => {
  // Behind one trusted proxy (TRUST_PROXY_HOPS=1) the client address is the X-Forwarded-For entry that
  // proxy added: the tests stand for clients at different addresses through that header.
  const from = (ip: string) => ({ 'X-Forwarded-For': ip });
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_FAILURE_LIMIT: '3', TRUST_PROXY_HOPS: '1' });
  });
  afterAll(() => t.close());

  it('failures from one address never lock the user out from another', async () => {
    for (let i = 0; i < 4; i++) await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, 'wrong wrong wrong'], headers: from('198.51.100.1') });
    const blocked = await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: from('198.51.100.1') });
    expect([blocked.status, blocked.body.code]).toEqual([429, 'too_many_failed_logins']);
    // Another spelling of the same user is the same (address, login).
    expect(
      (await t.request('GET', '/cms/v2/users/me', { auth: ['admin@localhost.localdomain', ADMIN.appPassword], headers: from('198.51.100.1') })).status,
    ).toBe(429);
    const elsewhere = await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: from('198.51.100.2') });
    expect([elsewhere.status, elsewhere.body.slug]).toEqual([200, ADMIN.login]);
    // The same for the account-password form of authorize-application.
    const session = await openAuthorizeForm(t.url);
    const form = (pwd: string, ip: string) => postAuthorizeForm(t.url, { app_name: `app ${ip} ${pwd.length}`, log: ADMIN.login, pwd }, session, from(ip));
    for (let i = 0; i < 3; i++) expect((await form('not the password', '198.51.100.3')).status).toBe(401);
    expect((await form(ADMIN.password, '198.51.100.3')).status).toBe(429);
    expect((await form(ADMIN.password, '198.51.100.4')).status).toBe(200);
  });

  it('one login failing at an address does not block other logins there, until the address is over its wider limit', async () => {
    const ip = '198.51.100.5';
    for (let i = 0; i < 3; i++) await t.request('GET', '/', { auth: ['nobody-1', 'x'], headers: from(ip) });
    expect((await t.request('GET', '/', { auth: ['nobody-1', 'x'], headers: from(ip) })).status).toBe(429);
    expect((await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: from(ip) })).status).toBe(200);
    // Spraying logins: 5 × the limit over all logins from one address blocks the address, and only it.
    for (let i = 2; i <= 5; i++) for (let j = 0; j < 3; j++) await t.request('GET', '/', { auth: [`nobody-${i}`, 'x'], headers: from(ip) });
    expect((await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: from(ip) })).status).toBe(429);
    expect((await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: from('198.51.100.6') })).status).toBe(200);
  });
});

describe('the client address', () => {
  it('ignores X-Forwarded-For unless proxies are trusted: a client cannot pose as another address', async () => {
    const t = await startTestApp({ AUTH_FAILURE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i++) await t.request('GET', '/', { auth: ['admin', 'wrong'], headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
      const spoofed = await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: { 'X-Forwarded-For': '203.0.113.99' } });
      expect([spoofed.status, spoofed.body.code]).toEqual([429, 'too_many_failed_logins']);
    } finally {
      await t.close();
    }
  });

  it('behind one trusted proxy takes the entry it added, not one the client wrote before it', async () => {
    const t = await startTestApp({ AUTH_FAILURE_LIMIT: '3', TRUST_PROXY_HOPS: '1' });
    try {
      // The client writes a different address each time; the proxy appends the real one (198.51.100.7).
      for (let i = 0; i < 3; i++) await t.request('GET', '/', { auth: ['admin', 'wrong'], headers: { 'X-Forwarded-For': `203.0.113.${i}, 198.51.100.7` } });
      const blocked = await t.request('GET', '/cms/v2/users/me', {
        auth: [ADMIN.login, ADMIN.appPassword],
        headers: { 'X-Forwarded-For': '203.0.113.99, 198.51.100.7' },
      });
      expect(blocked.status).toBe(429);
      const other = await t.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, ADMIN.appPassword], headers: { 'X-Forwarded-For': '198.51.100.8' } });
      expect(other.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
