/** Writes a REST answer to HTTP with the reference's headers: discovery link, CORS, no-cache, JSONP, and 304 for an unchanged export. */
import type Koa from 'koa';
import { stateString } from '#libs/http/koa-state';
import { isRecord } from '#libs/rest/args';
import { retryAfterHeader } from '#libs/rest/errors';
import { toJson } from '#libs/rest/presented';
import type { RestOutput } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import type { RestCall } from './route';

const BASE_HEADERS = Object.entries({
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, X-View-Nonce, X-TEC-Wizard-Nonce, Link, Idempotent-Replayed',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key',
});

export interface WriteOptions {
  loggedIn: boolean;
  pretty: boolean;
  /** The body's JSON text, already made (the site index). */
  cached?: Buffer;
}

export function writeRest(ctx: Koa.Context, site: Site, out: RestOutput, opts: WriteOptions): void {
  ctx.status = out.status;
  // Every value here is a string and nothing is sent yet: straight to Node's response, as ctx.set would.
  const res = ctx.res;
  for (const [k, v] of BASE_HEADERS) res.setHeader(k, v);
  for (const k in out.headers) res.setHeader(k, out.headers[k]);
  for (const [k, v] of Object.entries(retryAfterHeader(out.status, out.body))) if (!out.headers[k]) res.setHeader(k, v);
  // The reference sends the discovery link first and a response's own Link header (paging, an item's
  // alternate page) replaces it, as PHP's header() does: one or the other, never both.
  res.setHeader('Link', out.headers.Link ?? `<${site.restRoot}>; rel="https://api.w.org/"`);
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
    res.setHeader('Expires', 'Wed, 11 Jan 1984 05:00:00 GMT');
    res.setHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
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

/** Answers with an error raised before the request reached the pipeline (413, 401, 429, a bad JSONP callback), as a guest's. */
export function writeRefusal(ctx: Koa.Context, site: Site, call: RestCall, status: number, body: unknown): void {
  writeRest(ctx, site, { status, headers: {}, body }, { loggedIn: false, pretty: call.pretty });
}

/** Keeps the `code` of an error answer (the REST envelope's) for the request's log line. */
function noteErrorCode(ctx: Koa.Context, body: unknown): void {
  const code = isRecord(body) ? body.code : undefined;
  if (typeof code === 'string' && code) ctx.state.errorCode = code;
}
