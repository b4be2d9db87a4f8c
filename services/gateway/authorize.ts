/**
 * The application authorization page advertised by the site index
 * (`{base_url}/cms-admin/authorize-application.php`): a person signs in with their account password
 * and approves an application, which receives a new application password, as in the reference flow
 * (app_name, app_id, success_url, reject_url).
 *
 * The form belongs to the browser that loaded it: showing it starts a session (a random token in an
 * HttpOnly, SameSite=Strict cookie) and the form carries the reference's `authorize_application_password`
 * nonce bound to that session. Approve and reject both need the two to match (check_admin_referer), so
 * another site can neither sign a visitor in nor send them to its own reject_url. The page says where
 * approving and rejecting send the browser, and its Content-Security-Policy allows no script, no frame
 * and form submissions only to the site and those two addresses.
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import qs from 'qs';
import { throttleLogin, type FailureThrottle } from '#libs/auth/authenticate';
import type { Nonces } from '#libs/auth/nonces';
import { chunkPassword, verifyAccountPassword } from '#libs/auth/passwords';
import { appPasswordProblem } from '#libs/auth/limits';
import type { UsersRepository } from '#libs/auth/users';
import { ADMIN_PATH, type Site } from '#libs/rest/site';
import { escapeHtml as esc } from '#libs/html/escape';
import { clientIp } from './client-ip';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AUTHORIZE_PATH = `${ADMIN_PATH}/authorize-application.php`;
/** The reference's nonce action for this form. */
export const AUTHORIZE_ACTION = 'authorize_application_password';
/** The cookie holding the form's session token, and the form field holding the nonce (wp_nonce_field). */
export const AUTHORIZE_COOKIE = 'cms_authorize_session';
export const NONCE_FIELD = '_wpnonce';
const SESSION_SHAPE = /^[0-9a-f]{32}$/;
const LOOPBACK = ['127.0.0.1', '[::1]'];

/**
 * Whether the site is a local environment (the reference's WP_ENVIRONMENT_TYPE `local`): its own
 * address is a loopback one, so only the machine it runs on reaches it.
 */
export function isLocalSite(site: Pick<Site, 'url'>): boolean {
  try {
    const host = new URL(site.url).hostname;
    return LOOPBACK.includes(host) || host === 'localhost';
  } catch {
    return false;
  }
}

/**
 * The reference's checks on success_url / reject_url (wp_is_authorize_application_password_request_valid):
 * a scheme and a host, no `javascript:` or `data:`, and `http:` only to 127.0.0.1 or [::1] or from a
 * local environment; returns the problem or null.
 */
export function redirectProblem(raw: string, local = false): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'The URL must be a valid URL with a scheme and a host.';
  }
  if (!u.host) return 'The URL must be a valid URL with a scheme and a host.';
  if (['javascript:', 'data:'].includes(u.protocol)) return 'The URL contains an invalid protocol.';
  if (u.protocol === 'http:' && !local && !LOOPBACK.includes(u.hostname)) return 'The URL must be served over a secure connection.';
  return null;
}

interface Params {
  app_name: string;
  app_id: string;
  success_url: string;
  reject_url: string;
}

function readParams(src: Record<string, unknown>): Params {
  const s = (k: string) => {
    const v = src[k];
    return typeof v === 'string' ? v : '';
  };
  return { app_name: s('app_name'), app_id: s('app_id'), success_url: s('success_url'), reject_url: s('reject_url') };
}

function problems(site: Site, p: Params): string[] {
  const out: string[] = [];
  if (p.app_id && !UUID.test(p.app_id)) out.push('The application ID must be a UUID.');
  for (const k of ['success_url', 'reject_url'] as const) {
    if (p[k]) {
      const why = redirectProblem(p[k], isLocalSite(site));
      if (why) out.push(why);
    }
  }
  return out;
}

/** A source for CSP's form-action: an address's origin, or its scheme alone for an application's own scheme. */
function formTarget(url: string): string {
  const u = new URL(url);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

/** The page's policy: nothing loads or runs, no framing, and forms go to the site and the application's addresses. */
function setPolicy(ctx: Koa.Context, site: Site, p: Params): void {
  const targets = new Set(["'self'", new URL(site.url).origin]);
  // Approving or rejecting redirects the form's submission there, which form-action governs too.
  for (const u of [p.success_url, p.reject_url]) if (u && !redirectProblem(u, true)) targets.add(formTarget(u));
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action ${[...targets].join(' ')}`);
}

function page(site: Site, title: string, body: string): string {
  // The calendar's stylesheet (served by the gateway beside the calendar page), so the site looks one.
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} &lsaquo; ${esc(site.name)}</title>` +
    `<link rel="stylesheet" href="/cms-content/calendar/calendar.css"></head><body class="calendar-page">` +
    `<header class="calendar-site-header"><div class="calendar-container"><a class="calendar-site-name" href="${esc(site.home)}/">${esc(site.name)}</a></div></header>` +
    `<main class="calendar-container calendar-main calendar-form-page"><h1 class="calendar-page-title">${esc(title)}</h1>${body}</main></body></html>`
  );
}

/** Where approving and rejecting send the browser, as the reference's page says it. */
function destinations(site: Site, p: Params): string {
  const approve = p.success_url
    ? `<p>You will be sent to <strong><code>${esc(withQuery(p.success_url, { site_url: site.url, user_login: '[your username]', password: '[------]' }))}</code></strong></p>`
    : '<p>You will be given a password to manually enter into the application in question.</p>';
  const rejectTo = rejectUrl(p);
  const reject = rejectTo
    ? `<p>If you do not approve, you will be sent to <strong><code>${esc(rejectTo)}</code></strong></p>`
    : '<p>If you do not approve, the application will not be told about it.</p>';
  return approve + reject;
}

function form(site: Site, p: Params, nonce: string, error?: string): string {
  const hidden = (['app_id', 'success_url', 'reject_url'] as const).map((k) => `<input type="hidden" name="${k}" value="${esc(p[k])}">`).join('');
  return page(
    site,
    'Authorize Application',
    `${error ? `<p role="alert" style="color:#b00">${esc(error)}</p>` : ''}
<p>An application would like to connect to your account on ${esc(site.name)}. Sign in to approve or reject it.</p>
${destinations(site, p)}
<form method="post" action="${esc(site.url + AUTHORIZE_PATH)}"><input type="hidden" name="${NONCE_FIELD}" value="${esc(nonce)}">${hidden}
<p><label>New application password name<br><input name="app_name" required value="${esc(p.app_name)}"></label></p>
<p><label>Username or email<br><input name="log" autocomplete="username" required></label></p>
<p><label>Password<br><input type="password" name="pwd" autocomplete="current-password" required></label></p>
<p><button name="action" value="approve">Yes, I approve of this connection</button> <button name="action" value="reject" formnovalidate>No, I do not approve of this connection</button></p>
</form>`,
  );
}

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** Where rejecting sends the browser: reject_url, else success_url with success=false, else nowhere. */
function rejectUrl(p: Params): string {
  return p.reject_url || (p.success_url ? withQuery(p.success_url, { success: 'false' }) : '');
}

/** The session token the request's cookie carries, if it is one this page made. */
function sessionOf(ctx: Koa.Context): string | null {
  const v = ctx.cookies.get(AUTHORIZE_COOKIE);
  return v && SESSION_SHAPE.test(v) ? v : null;
}

/** The request's session, or a new one sent as an HttpOnly, SameSite=Strict cookie for this page only. */
function startSession(ctx: Koa.Context, site: Site): string {
  const known = sessionOf(ctx);
  if (known) return known;
  const token = randomBytes(16).toString('hex');
  const secure = site.url.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${AUTHORIZE_COOKIE}=${token}; Path=${AUTHORIZE_PATH}; HttpOnly; SameSite=Strict${secure}`);
  return token;
}

/** Answers 400 with the list of problems when the request's parameters break a rule; whether it did. */
function refused(ctx: Koa.Context, site: Site, p: Params): boolean {
  const bad = problems(site, p);
  if (!bad.length) return false;
  ctx.status = 400;
  ctx.body = page(
    site,
    'Authorize Application',
    `<p>The Authorize Application request is not allowed.</p><ul>${bad.map((b) => `<li>${esc(b)}</li>`).join('')}</ul>`,
  );
  return true;
}

export function authorizePage(opts: { site: Site; users: UsersRepository; throttle: FailureThrottle; nonces: Nonces }) {
  const { site, users, throttle, nonces } = opts;
  return async (ctx: Koa.Context, readBody: () => Promise<Buffer>): Promise<boolean> => {
    if (ctx.path !== AUTHORIZE_PATH) return false;
    ctx.type = 'text/html; charset=UTF-8';
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'");
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const p = readParams(ctx.query);
      if (refused(ctx, site, p)) return true;
      setPolicy(ctx, site, p);
      ctx.body = form(site, p, nonces.create(AUTHORIZE_ACTION, 0, startSession(ctx, site)));
      return true;
    }
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, POST');
      ctx.body = page(site, 'Authorize Application', '<p>Method not allowed.</p>');
      return true;
    }
    const fields: Record<string, unknown> = qs.parse((await readBody()).toString('utf8'), { depth: 1, parameterLimit: 20 });
    const p = readParams(fields);
    // check_admin_referer: approving and rejecting both need the nonce of this browser's session.
    const session = sessionOf(ctx);
    if (!session || !nonces.verify(fields[NONCE_FIELD], AUTHORIZE_ACTION, 0, session)) {
      ctx.status = 403;
      ctx.body = page(
        site,
        'Authorize Application',
        `<p>The link you followed has expired.</p><p><a href="${esc(site.url + AUTHORIZE_PATH)}?${esc(qs.stringify(p))}">Please try again.</a></p>`,
      );
      return true;
    }
    if (refused(ctx, site, p)) return true;
    setPolicy(ctx, site, p);
    const nonce = nonces.create(AUTHORIZE_ACTION, 0, session);
    if (fields.action === 'reject') {
      const to = rejectUrl(p);
      if (to) ctx.redirect(to);
      else ctx.body = page(site, 'Authorize Application', '<p>The connection was not approved.</p>');
      return true;
    }
    const ip = clientIp(ctx);
    const login = typeof fields.log === 'string' ? fields.log.trim() : '';
    const pwd = typeof fields.pwd === 'string' ? fields.pwd : '';
    const user = login ? await users.credentialByLoginOrEmail(login) : null;
    const who = throttleLogin(login, user);
    const wait = throttle.blockedFor(ip, who);
    if (wait > 0) {
      ctx.status = 429;
      ctx.set('Retry-After', String(wait));
      ctx.body = form(site, p, nonce, 'Too many failed login attempts. Try again later.');
      return true;
    }
    if (!user || !(await verifyAccountPassword(pwd, user.pass_hash))) {
      throttle.fail(ip, who);
      ctx.status = 401;
      ctx.body = form(site, p, nonce, 'The username or password you entered is incorrect.');
      return true;
    }
    throttle.succeed(ip, who);
    const name = p.app_name.trim();
    if (!name) {
      ctx.status = 400;
      ctx.body = form(site, p, nonce, 'An application name is required to create an application password.');
      return true;
    }
    if (user.app_passwords.some((a) => a.name === name)) {
      ctx.status = 409;
      ctx.body = form(site, p, nonce, 'Each application name should be unique.');
      return true;
    }
    const problem = appPasswordProblem(name, user.app_passwords.length);
    if (problem) {
      ctx.status = problem.status;
      ctx.body = form(site, p, problem.message);
      return true;
    }
    const { password } = await users.addAppPassword(user.id, name, p.app_id);
    if (p.success_url) {
      ctx.redirect(withQuery(p.success_url, { site_url: site.url, user_login: user.login, password: chunkPassword(password) }));
      return true;
    }
    ctx.body = page(
      site,
      'Application password created',
      `<p>Your new password for <strong>${esc(name)}</strong> is:</p><p><code style="font-size:1.3em">${esc(chunkPassword(password))}</code></p><p>Be sure to save this in a safe location. You will not be able to retrieve it.</p>`,
    );
    return true;
  };
}
