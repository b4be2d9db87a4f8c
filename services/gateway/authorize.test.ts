/**
 * The authorize-application page against cross-site requests: approve and reject need the nonce of the
 * session the page started (cookie and form field together), the page says where each choice sends the
 * browser, the redirect addresses follow the reference's rule, and a Content-Security-Policy comes with
 * every answer.
 */
import { ADMIN, startTestApp, type TestApp } from '../../test/support/app';
import { AUTHORIZE_PAGE, openAuthorizeForm, postAuthorizeForm } from '../../test/support/authorize';
import { isLocalSite, redirectProblem } from './authorize';

const APP_ID = '0b5b5a5e-2d8c-4b44-9bde-3c2a3a0d7c11';
const SUCCESS = 'https://app.example/cb';
const REJECT = 'https://app.example/no';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const appPasswordCount = async () => (await app.admin('GET', '/cms/v2/users/me/application-passwords')).body.length as number;
const query = new URLSearchParams({ app_name: 'Phone', app_id: APP_ID, success_url: SUCCESS, reject_url: REJECT }).toString();

describe('the form', () => {
  it('starts a session, carries its nonce, says where each choice leads, and sends a CSP', async () => {
    const res = await fetch(`${app.url}${AUTHORIZE_PAGE}?${query}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^cms_authorize_session=[0-9a-f]{32}; Path=\/cms-admin\/authorize-application\.php; HttpOnly; SameSite=Strict$/);
    expect(html).toMatch(/<input type="hidden" name="_wpnonce" value="[0-9a-f]{16}">/);
    expect(html).toContain(
      `You will be sent to <strong><code>${SUCCESS}?site_url=http%3A%2F%2Fexample.test&amp;user_login=%5Byour+username%5D&amp;password=%5B------%5D</code></strong>`,
    );
    expect(html).toContain(`you will be sent to <strong><code>${REJECT}</code></strong>`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self' http:\/\/example\.test https:\/\/app\.example$/);
    // Without a success_url the password is shown on the page.
    const plain = await (await fetch(`${app.url}${AUTHORIZE_PAGE}?app_name=cli`)).text();
    expect(plain).toContain('You will be given a password to manually enter into the application in question.');
    // Refusals carry the policy too.
    const bad = await fetch(`${app.url}${AUTHORIZE_PAGE}?success_url=${encodeURIComponent('http://evil.example/')}`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-security-policy')).toContain("default-src 'none'");
    await bad.text();
  });
});

describe('reject and approve need the session and its nonce', () => {
  it('refuses a reject without them, and redirects with them', async () => {
    const session = await openAuthorizeForm(app.url, query);
    const other = await openAuthorizeForm(app.url, query);
    const fields = { action: 'reject', reject_url: 'https://evil.example/' };
    for (const [what, s] of [
      ['neither', null],
      ['cookie only', { cookie: session.cookie }],
      ['nonce only', { nonce: session.nonce }],
      ["another session's nonce", { cookie: session.cookie, nonce: other.nonce }],
      ['a made-up nonce', { cookie: session.cookie, nonce: '0123456789abcdef' }],
    ] as const) {
      const res = await postAuthorizeForm(app.url, fields, s);
      const html = await res.text();
      expect([what, res.status, res.headers.get('location')]).toEqual([what, 403, null]);
      expect(html).toContain('The link you followed has expired.');
    }
    const ok = await postAuthorizeForm(app.url, fields, session);
    expect([ok.status, ok.headers.get('location')]).toEqual([302, 'https://evil.example/']);
  });

  it('creates no application password without them, even with the right account password', async () => {
    const before = await appPasswordCount();
    const fields = { app_name: 'Forged', app_id: APP_ID, success_url: SUCCESS, log: ADMIN.login, pwd: ADMIN.password, action: 'approve' };
    const forged = await postAuthorizeForm(app.url, fields, null);
    expect([forged.status, forged.headers.get('location')]).toEqual([403, null]);
    await forged.text();
    expect(await appPasswordCount()).toBe(before);

    const session = await openAuthorizeForm(app.url, query);
    const res = await postAuthorizeForm(app.url, { ...fields, app_name: 'Phone' }, session);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(SUCCESS);
    expect(await appPasswordCount()).toBe(before + 1);
    const me = await app.request('GET', '/cms/v2/users/me', { auth: [ADMIN.login, to.searchParams.get('password')!] });
    expect(me.status).toBe(200);
  });

  it('shows the form again with a nonce of the same session after a wrong password', async () => {
    const session = await openAuthorizeForm(app.url, query);
    const res = await postAuthorizeForm(app.url, { app_name: 'Phone', log: ADMIN.login, pwd: 'wrong', action: 'approve' }, session);
    expect(res.status).toBe(401);
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(await res.text())?.[1];
    const again = await postAuthorizeForm(app.url, { action: 'reject', reject_url: REJECT }, { cookie: session.cookie, nonce });
    expect([again.status, again.headers.get('location')]).toEqual([302, REJECT]);
  });
});

describe('redirect addresses (wp_is_authorize_application_password_request_valid)', () => {
  it('take https, an application scheme, and http only to 127.0.0.1 or [::1]', () => {
    for (const ok of ['https://app.example/cb', 'wordpress://example', 'http://127.0.0.1:8123/cb', 'http://[::1]:8123/cb'])
      expect([ok, redirectProblem(ok)]).toEqual([ok, null]);
    for (const bad of ['http://evil.example/', 'http://localhost/cb', 'http://127.0.0.2/', 'javascript://x/%0aalert(1)', 'data://x/y', 'not a url'])
      expect([bad, redirectProblem(bad)]).not.toEqual([bad, null]);
  });

  it('take any http address from a local environment: a site whose own address is a loopback one', () => {
    expect(isLocalSite({ url: 'http://127.0.0.1:8080' })).toBe(true);
    expect(isLocalSite({ url: 'http://localhost:8080' })).toBe(true);
    expect(isLocalSite({ url: 'http://[::1]:8080' })).toBe(true);
    expect(isLocalSite({ url: 'https://events.example.org' })).toBe(false);
    expect(redirectProblem('http://app.example/cb', true)).toBeNull();
    expect(redirectProblem('javascript://x/%0aalert(1)', true)).not.toBeNull();
  });

  it('refuse a bad address on the post too', async () => {
    const session = await openAuthorizeForm(app.url, query);
    const res = await postAuthorizeForm(app.url, { action: 'reject', reject_url: 'http://evil.example/' }, session);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('The URL must be served over a secure connection.');
  });
});
