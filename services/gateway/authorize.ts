/**
 * The application authorization page advertised by the site index
 * (`{base_url}/cms-admin/authorize-application.php`): a person signs in with their account password
 * and approves an application, which receives a new application password, as in the reference flow
 * (app_name, app_id, success_url, reject_url).
 */
import type Koa from 'koa';
import qs from 'qs';
import { throttleLogin, type FailureThrottle } from '../../libs/auth/authenticate';
import { chunkPassword, verifyAccountPassword } from '../../libs/auth/passwords';
import { appPasswordProblem } from '../../libs/auth/limits';
import type { UsersRepository } from '../../libs/auth/users';
import { ADMIN_PATH, type Site } from '../../libs/rest/site';
import { escapeHtml as esc } from '../../libs/html/escape';
import { clientIp } from './client-ip';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AUTHORIZE_PATH = `${ADMIN_PATH}/authorize-application.php`;

/** The reference's checks on success_url / reject_url; returns the problem or null. */
export function redirectProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'The URL must be a valid URL with a scheme and a host.';
  }
  if (!u.host) return 'The URL must be a valid URL with a scheme and a host.';
  if (['javascript:', 'data:'].includes(u.protocol)) return 'The URL contains an invalid protocol.';
  if (u.protocol === 'http:' && !['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname)) return 'The URL must be served over a secure connection.';
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

function problems(p: Params): string[] {
  const out: string[] = [];
  if (p.app_id && !UUID.test(p.app_id)) out.push('The application ID must be a UUID.');
  for (const k of ['success_url', 'reject_url'] as const) {
    if (p[k]) {
      const why = redirectProblem(p[k]);
      if (why) out.push(why);
    }
  }
  return out;
}

function page(site: Site, title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)} &lsaquo; ${esc(site.name)}</title></head><body style="font-family:sans-serif;max-width:32em;margin:2em auto"><h1>${esc(title)}</h1>${body}</body></html>`;
}

function form(site: Site, p: Params, error?: string): string {
  const hidden = (['app_id', 'success_url', 'reject_url'] as const).map((k) => `<input type="hidden" name="${k}" value="${esc(p[k])}">`).join('');
  return page(
    site,
    'Authorize Application',
    `${error ? `<p role="alert" style="color:#b00">${esc(error)}</p>` : ''}
<p>An application would like to connect to your account on ${esc(site.name)}. Sign in to approve or reject it.</p>
<form method="post" action="${esc(site.url + AUTHORIZE_PATH)}">${hidden}
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

/** Answers 400 with the list of problems when the request's parameters break a rule; whether it did. */
function refused(ctx: Koa.Context, site: Site, p: Params): boolean {
  const bad = problems(p);
  if (!bad.length) return false;
  ctx.status = 400;
  ctx.body = page(
    site,
    'Authorize Application',
    `<p>The Authorize Application request is not allowed.</p><ul>${bad.map((b) => `<li>${esc(b)}</li>`).join('')}</ul>`,
  );
  return true;
}

export function authorizePage(opts: { site: Site; users: UsersRepository; throttle: FailureThrottle }) {
  const { site, users, throttle } = opts;
  return async (ctx: Koa.Context, readBody: () => Promise<Buffer>): Promise<boolean> => {
    if (ctx.path !== AUTHORIZE_PATH) return false;
    ctx.type = 'text/html; charset=UTF-8';
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const p = readParams(ctx.query);
      if (refused(ctx, site, p)) return true;
      ctx.body = form(site, p);
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
    if (refused(ctx, site, p)) return true;
    if (fields.action === 'reject') {
      const to = p.reject_url || (p.success_url ? withQuery(p.success_url, { success: 'false' }) : '');
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
      ctx.body = form(site, p, 'Too many failed login attempts. Try again later.');
      return true;
    }
    if (!user || !(await verifyAccountPassword(pwd, user.pass_hash))) {
      throttle.fail(ip, who);
      ctx.status = 401;
      ctx.body = form(site, p, 'The username or password you entered is incorrect.');
      return true;
    }
    throttle.succeed(ip, who);
    const name = p.app_name.trim();
    if (!name) {
      ctx.status = 400;
      ctx.body = form(site, p, 'An application name is required to create an application password.');
      return true;
    }
    if (user.app_passwords.some((a) => a.name === name)) {
      ctx.status = 409;
      ctx.body = form(site, p, 'Each application name should be unique.');
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
