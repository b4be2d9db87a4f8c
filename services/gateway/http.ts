/**
 * The gateway's HTTP front: finds REST requests (`/index.php/cms-json/...` or `?rest_route=`), reads
 * and bounds the body, authenticates, runs the request through the REST pipeline and writes the
 * answer with the reference's headers. Also serves the site home, health, readiness and metrics, and
 * hands the site's own pages (uploads, the calendar page, the authorization page) to their modules.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import qs from 'qs';
import type { Authenticator } from '../../libs/auth/authenticate';
import { asRestError, errors, retryAfterHeader, RestError } from '../../libs/rest/errors';
import type { RestInput, RestOutput, RestServer } from '../../libs/rest/server';
import { REST_PREFIX, type Site } from '../../libs/rest/site';
import { logger } from '../../libs/observability/logger';
import { observeRequest } from '../../libs/observability/metrics';
import { opsEndpoints } from '../ops';
import type { FileStorage } from '../../libs/media/storage';
import type { UploadPayload } from '../../libs/rest/service';
import { isMultipart, parseMultipart, serveUpload } from './uploads';
import { clientIp } from './client-ip';
import { serveICalFeed } from './ical-feed';
import { escapeHtml } from '../../libs/html/escape';
import { toJson } from '../../libs/rest/presented';
import { isRecord } from '../../libs/rest/args';
import { stateNumber, stateString } from '../koa-state';

export interface GatewayOptions {
  rest: RestServer;
  auth: Authenticator;
  site: Site;
  maxBodyBytes: number;
  /** Throws when a dependency (store, queue) is not reachable. */
  ready: () => Promise<void>;
  /** Extra pages outside the REST root (the application authorization page). */
  pages?: (ctx: Koa.Context, body: () => Promise<Buffer>) => Promise<boolean>;
  /** The media library's files, served under /cms-content/uploads/. */
  files?: FileStorage;
  /** The public calendar page under /events/ and its assets under /cms-content/calendar/ (./calendar-page). */
  calendar?: (ctx: Koa.Context) => Promise<boolean>;
  /**
   * Reverse proxies in front whose X-Forwarded-For entries are trusted (TRUST_PROXY_HOPS): the client
   * address is the entry the outermost one added; 0 takes the connection's address.
   */
  trustProxyHops?: number;
}

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 2000, allowDots: false };

export function parseQuery(raw: string): Record<string, unknown> {
  return qs.parse(raw, QS_OPTIONS);
}

/** Reads the body up to the limit; rejects with 413 beyond it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(errors.bodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(errors.bodyTooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isJsonType(ct: string): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(ct);
}

/** PHP json_decode's default depth: arrays and objects nested deeper are refused. */
export const JSON_MAX_DEPTH = 512;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** How deeply arrays and objects nest in JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether every string (and key) of a parsed JSON value is well-formed UTF-16 (no lone surrogate). */
function wellFormed(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return false;
    } else if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' || typeof x === 'string') stack.push(x);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) return false;
        if (typeof x === 'object' || typeof x === 'string') stack.push(x);
      }
    }
  }
  return true;
}

/**
 * Decodes a JSON body as PHP's json_decode does for the reference: invalid UTF-8, nesting deeper than
 * 512 and unpaired surrogate escapes (`"\ud800"`) are refused with its error, never handed on.
 */
export function parseJsonBody(raw: Buffer): Pick<RestInput, 'body' | 'bodyType' | 'jsonError'> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    return { bodyType: 'none', jsonError: 'Malformed UTF-8 characters, possibly incorrectly encoded' };
  }
  if (jsonDepth(text) > JSON_MAX_DEPTH) return { bodyType: 'none', jsonError: 'Maximum stack depth exceeded' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { bodyType: 'none', jsonError: 'Syntax error' };
  }
  if (!wellFormed(body)) return { bodyType: 'none', jsonError: 'Single unpaired UTF-16 surrogate in unicode escape' };
  return { bodyType: 'json', body };
}

/** Splits a raw body into the reference's buckets: JSON (only for a JSON content type) or form fields. */
export function parseBody(raw: Buffer, contentType: string): Pick<RestInput, 'body' | 'bodyType' | 'jsonError'> {
  if (!raw.length) return { bodyType: 'none' };
  if (isJsonType(contentType)) return parseJsonBody(raw);
  const text = raw.toString('utf8');
  if (!contentType || /^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    return { bodyType: 'form', body: qs.parse(text, QS_OPTIONS) };
  }
  return { bodyType: 'none' };
}

const BASE_HEADERS: Record<string, string> = {
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, X-View-Nonce, X-TEC-Wizard-Nonce, Link, Idempotent-Replayed',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key',
};

function writeRest(ctx: Koa.Context, site: Site, out: RestOutput, opts: { loggedIn: boolean; pretty: boolean; cached?: Buffer }): void {
  ctx.status = out.status;
  const discovery = `<${site.restRoot}>; rel="https://api.w.org/"`;
  for (const [k, v] of Object.entries(BASE_HEADERS)) ctx.set(k, v);
  for (const [k, v] of Object.entries(out.headers)) ctx.set(k, v);
  for (const [k, v] of Object.entries(retryAfterHeader(out.status, out.body))) if (!out.headers[k]) ctx.set(k, v);
  // The reference sends the discovery link first and a response's own Link header (paging, an item's
  // alternate page) replaces it, as PHP's header() does: one or the other, never both.
  ctx.set('Link', out.headers.Link ?? discovery);
  const origin = ctx.get('Origin');
  if (origin) {
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    ctx.set('Access-Control-Allow-Credentials', 'true');
    ctx.vary('Origin');
  }
  // No-cache for a signed-in caller, and for a 4xx of a method overridden by X-HTTP-Method-Override (not `_method`).
  const overridden = !!ctx.get('X-HTTP-Method-Override') && !/(^|&)_method=/i.test(ctx.querystring);
  if (opts.loggedIn || (overridden && out.status >= 400 && out.status < 500)) {
    ctx.set('Expires', 'Wed, 11 Jan 1984 05:00:00 GMT');
    ctx.set('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
  }
  // A non-JSON answer with validators (an iCalendar export) answers a matching conditional GET with 304.
  if (out.raw && out.status === 200 && out.headers.ETag && ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.type = out.raw ? out.raw.contentType : 'application/json; charset=UTF-8';
  if (out.status >= 400) noteErrorCode(ctx, out.body);
  // A HEAD answer is written as the GET one would be: Koa then sends its headers (Content-Length
  // included) without the body.
  if (out.status === 204 || (out.body === undefined && !out.raw)) {
    ctx.body = null;
    ctx.status = out.status;
    return;
  }
  if (out.raw) ctx.body = out.raw.text;
  else ctx.body = opts.cached ?? (opts.pretty ? JSON.stringify(out.body, null, 4) : toJson(out.body));
  const callback = stateString(ctx, 'jsonp');
  if (callback !== undefined && !out.raw) {
    ctx.type = 'application/javascript; charset=UTF-8';
    ctx.body = `/**/${callback}(${String(ctx.body)})`;
  }
}

export function createGatewayApp(opts: GatewayOptions): Koa {
  const hops = opts.trustProxyHops ?? 0;
  // Koa reads the last `maxIpsCount` X-Forwarded-For entries (those the trusted proxies added) and takes the first of them.
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const { rest, site } = opts;
  // The site index is built from the route table, not from the caller (as the reference's get_index):
  // it is serialised once per context (with its headers) for guests and signed-in callers alike, and
  // built again when the site revision moves (a settings change: name, time zone, ...).
  const indexCache = new Map<string, { body: Buffer; headers: Record<string, string>; revision: number | undefined }>();

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = (ctx.get('X-Request-Id') || randomUUID()).slice(0, 128);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      logger.error({ err: e, requestId }, 'request failed');
      const err = asRestError(e);
      ctx.state.errorCode = err.code;
      ctx.status = err.status;
      for (const [k, v] of Object.entries(retryAfterHeader(err.status, err.toJSON()))) ctx.set(k, v);
      ctx.type = 'application/json; charset=UTF-8';
      ctx.body = JSON.stringify(err.toJSON());
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // A route pattern or a fixed name, never the raw path, so the metrics' series stay bounded.
      const route = stateString(ctx, 'route') ?? 'other';
      observeRequest(ctx.method, route, ctx.status, seconds);
      if (logger.isLevelEnabled('info')) {
        const code = stateString(ctx, 'errorCode');
        logger.info(
          {
            requestId,
            method: ctx.method,
            path: ctx.path,
            route,
            status: ctx.status,
            ...(code ? { code } : {}),
            ms: Math.round(seconds * 1e4) / 10,
            user: stateNumber(ctx, 'userId') ?? null,
          },
          'request',
        );
      }
    }
  });

  app.use(opsEndpoints(opts.ready));

  app.use(async (ctx, next) => {
    const query = parseQuery(ctx.querystring);
    let routePath: string | undefined;
    if (ctx.path === REST_PREFIX || ctx.path.startsWith(`${REST_PREFIX}/`)) routePath = safeDecode(ctx.path.slice(REST_PREFIX.length)) || '/';
    else if ((ctx.path === '/' || ctx.path === '/index.php') && typeof query.rest_route === 'string') routePath = query.rest_route || '/';
    // The iCalendar feed of the event list (/events/?ical=1) before any page under /events/.
    if (routePath === undefined && (await serveICalFeed(ctx, rest, query, (out) => writeRest(ctx, site, out, { loggedIn: false, pretty: false })))) return;
    if (routePath === undefined) {
      ctx.state.route = sitePathLabel(ctx.path);
      if (opts.files && (await serveUpload(ctx, opts.files))) return;
      if (opts.calendar && (await opts.calendar(ctx))) return;
      if (opts.pages && (await opts.pages(ctx, () => readBody(ctx.req, opts.maxBodyBytes)))) return;
      if ((ctx.path === '/' || ctx.path === '/index.php') && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
        ctx.set('Link', `<${site.restRoot}>; rel="https://api.w.org/"`);
        ctx.type = 'text/html; charset=UTF-8';
        ctx.body = homePage(site);
        return;
      }
      ctx.state.route = undefined;
      return next();
    }
    delete query.rest_route;
    // The route is known before the body is read and the caller authenticated, so an answer refused
    // there (413, 401, 429) is counted and logged under its route too.
    ctx.state.route = rest.routeOf(routePath);
    const head = ctx.method === 'HEAD';
    const pretty = query._pretty !== undefined;
    // `_jsonp=cb` answers `/**/cb(...)` as JavaScript; a callback that is not a word-and-dot name is
    // refused before anything else runs (wp_check_jsonp_callback), with the envelope's bare form.
    if (query._jsonp !== undefined) {
      if (typeof query._jsonp !== 'string' || /[^\w.]/.test(query._jsonp)) {
        writeRest(
          ctx,
          site,
          { status: 400, headers: {}, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } },
          { loggedIn: false, pretty },
        );
        return;
      }
      ctx.state.jsonp = query._jsonp;
    }

    let raw: Buffer;
    try {
      raw = await readBody(ctx.req, opts.maxBodyBytes);
    } catch (e) {
      if (e instanceof RestError) {
        writeRest(ctx, site, { status: e.status, headers: {}, body: e.toJSON() }, { loggedIn: false, pretty });
        return;
      }
      throw e;
    }
    let user;
    try {
      user = await opts.auth.authenticate(ctx.get('Authorization') || undefined, clientIp(ctx));
      ctx.state.userId = user?.id;
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      // A throttled login's Retry-After comes from its data.retry_after, as for every error.
      writeRest(ctx, site, { status: e.status, headers: {}, body: e.toJSON() }, { loggedIn: false, pretty });
      return;
    }

    // The index differs only for context=help (it adds each route's schema); any other context is view's.
    const indexContext =
      routePath === '/' && !pretty && (ctx.method === 'GET' || head) && Object.keys(query).every((k) => k === 'context' && typeof query.context === 'string')
        ? query.context === 'help'
          ? 'help'
          : 'view'
        : undefined;
    const cachedIndex = indexContext === undefined ? undefined : indexCache.get(indexContext);
    if (cachedIndex && cachedIndex.revision === site.revision) {
      ctx.state.route = '/';
      writeRest(ctx, site, { status: 200, headers: cachedIndex.headers, body: null }, { loggedIn: !!user, pretty, cached: cachedIndex.body });
      return;
    }

    const contentType = ctx.get('Content-Type');
    let parsed = parseBody(raw, contentType);
    let upload: UploadPayload | undefined;
    if (raw.length && isMultipart(contentType)) {
      // Form fields become body parameters, files travel to the endpoints that take uploads.
      const multi = await parseMultipart(raw, contentType);
      if (multi) {
        parsed = { bodyType: 'form', body: multi.fields };
        if (Object.keys(multi.files).length) upload = { files: multi.files, md5: ctx.get('Content-MD5') || undefined };
      }
    } else if (raw.length && parsed.bodyType === 'none' && parsed.jsonError === undefined) {
      upload = { raw, contentType, disposition: ctx.get('Content-Disposition') || undefined, md5: ctx.get('Content-MD5') || undefined };
    }
    const input: RestInput = {
      method: ctx.method,
      path: routePath,
      query,
      ...parsed,
      ...(upload ? { upload } : {}),
      headers: ctx.headers,
      user,
      requestId: stateString(ctx, 'requestId') ?? '',
      ip: clientIp(ctx),
    };
    const revision = site.revision;
    const out = await rest.handle(input);
    ctx.state.route = out.route ?? ctx.state.route;
    if (indexContext !== undefined && out.status === 200) {
      indexCache.set(indexContext, { body: Buffer.from(JSON.stringify(out.body)), headers: out.headers, revision });
    }
    writeRest(ctx, site, out, { loggedIn: !!user, pretty });
  });

  return app;
}

/**
 * The metrics and log label of a path outside the REST root that the site answers: a fixed name per
 * area (`/cms-content/uploads/*`, `/cms-admin/*`, `home`), never the path itself, so the number of
 * series stays bounded. A path nothing answers is labelled `other`.
 */
function sitePathLabel(path: string): string {
  if (path === '/' || path === '/index.php') return 'home';
  const parts = path.split('/').filter(Boolean);
  return `/${parts.slice(0, parts[0] === 'cms-content' ? 2 : 1).join('/')}/*`;
}

/** Keeps the `code` of an error answer (the REST envelope's) for the request's log line. */
function noteErrorCode(ctx: Koa.Context, body: unknown): void {
  const code = isRecord(body) ? body.code : undefined;
  if (typeof code === 'string' && code) ctx.state.errorCode = code;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function homePage(site: Site): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(site.name)}</title><link rel="https://api.w.org/" href="${escapeHtml(site.restRoot)}"></head><body><h1>${escapeHtml(site.name)}</h1><p>${escapeHtml(site.description)}</p><p>REST API: <a href="${escapeHtml(site.restRoot)}">${escapeHtml(site.restRoot)}</a></p></body></html>`;
}
