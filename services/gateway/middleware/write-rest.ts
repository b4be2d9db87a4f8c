/**
 * Writes a REST answer to HTTP with the reference's headers: discovery link, CORS, no-cache, JSONP, and
 * 304 for an unchanged export. The REST front (../rest-front) and the site pages that answer with a
 * REST result (the iCalendar feed, a single event's export) write through here, straight to Node's
 * response: the headers in one block, the body in one write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type Koa from 'koa';
import { headerOf } from '#libs/http/headers';
import { isRecord } from '#libs/rest/args';
import { retryAfterHeader } from '#libs/rest/errors';
import { jsonBytes } from '#libs/rest/presented';
import type { RestOutput } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';

const BASE_HEADERS = Object.entries({
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, X-View-Nonce, X-TEC-Wizard-Nonce, Link, Idempotent-Replayed',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key',
});

/** Statuses whose answers carry no body (nor its type and length), as Koa and PHP send them. */
const EMPTY_STATUSES = new Set([204, 205, 304]);

export interface WriteOptions {
  loggedIn: boolean;
  pretty: boolean;
  /** The body's JSON text, already made (the site index). */
  cached?: Buffer;
  /** `_jsonp`: the callback a JSON answer is wrapped in. */
  jsonp?: string;
}

/** What a request's answer depends on besides the REST result. */
export interface Asked {
  method: string;
  /** The raw query string (without `?`). */
  querystring: string;
  headers: IncomingMessage['headers'];
}

/** An answer ready to send: the status, its headers in order, and the body (null: none, with a length of 0). */
export interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: string | Buffer | null;
  /** The `code` of an error answer (the REST envelope's), for the request's log line. */
  errorCode?: string;
}

/** The HTTP answer of a REST result: the reference's headers, its body as JSON (or JSONP, or a raw text), and 304 for an unchanged export. */
export function restAnswer(asked: Asked, site: Site, out: RestOutput, opts: WriteOptions): Answer {
  const headers: Array<[string, string]> = [...BASE_HEADERS];
  for (const k in out.headers) headers.push([k, out.headers[k]]);
  for (const [k, v] of Object.entries(retryAfterHeader(out.status, out.body))) if (!out.headers[k]) headers.push([k, v]);
  // The reference sends the discovery link first and a response's own Link header (paging, an item's
  // alternate page) replaces it, as PHP's header() does: one or the other, never both.
  if (out.headers.Link === undefined) headers.push(['Link', `<${site.restRoot}>; rel="https://api.w.org/"`]);
  const origin = headerOf(asked.headers, 'origin');
  if (origin) {
    headers.push(
      ['Access-Control-Allow-Origin', origin],
      ['Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE'],
      ['Access-Control-Allow-Credentials', 'true'],
    );
    const vary = headers.find(([k]) => k.toLowerCase() === 'vary');
    if (!vary) headers.push(['Vary', 'Origin']);
    else if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary[1])) vary[1] = `${vary[1]}, Origin`;
  }
  // No-cache for a signed-in caller, and for a 4xx of a method overridden by X-HTTP-Method-Override (not `_method`).
  const overridden = !!headerOf(asked.headers, 'x-http-method-override') && !/(^|&)_method=/i.test(asked.querystring);
  if (opts.loggedIn || (overridden && out.status >= 400 && out.status < 500)) {
    headers.push(['Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'], ['Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private']);
  }
  const errorCode = out.status >= 400 ? errorCodeOf(out.body) : undefined;
  const answer = (status: number, body: string | Buffer | null, contentType?: string): Answer => {
    if (contentType) headers.push(['Content-Type', contentType]);
    return { status, headers, body, ...(errorCode ? { errorCode } : {}) };
  };
  // A non-JSON answer with validators (an iCalendar export) answers a matching conditional GET with 304.
  if (out.raw && out.status === 200 && out.headers.ETag && (asked.method === 'GET' || asked.method === 'HEAD')) {
    const validators = { etag: out.headers.ETag, 'last-modified': out.headers['Last-Modified'] };
    if (fresh(asked.headers, validators)) return answer(304, null);
  }
  if (out.status === 204 || (out.body === undefined && !out.raw)) return answer(out.status, null);
  if (out.raw) return answer(out.status, out.raw.text, out.raw.contentType);
  const json = opts.cached ?? (opts.pretty ? Buffer.from(JSON.stringify(out.body, null, 4)) : jsonBytes(out.body));
  if (opts.jsonp !== undefined) {
    return answer(out.status, Buffer.concat([Buffer.from(`/**/${opts.jsonp}(`), json, Buffer.from(')')]), 'application/javascript; charset=UTF-8');
  }
  return answer(out.status, json, 'application/json; charset=UTF-8');
}

/**
 * Sends an answer on Node's response, as Koa would have: a body's length in Content-Length; a HEAD
 * answer with the GET one's headers and no body; no body, type or length for 204, 205 and 304; and an
 * empty body otherwise as `Content-Length: 0`. Headers set on the response before (a request id) stay.
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, a: Answer): void {
  res.statusCode = a.status;
  const empty = EMPTY_STATUSES.has(a.status);
  for (const [k, v] of a.headers) {
    if (empty && (k === 'Content-Type' || k === 'Content-Length')) continue;
    res.setHeader(k, v);
  }
  if (empty) {
    res.end();
    return;
  }
  if (a.body === null) {
    if (req.method !== 'HEAD') res.setHeader('Content-Length', '0');
    res.end();
    return;
  }
  res.setHeader('Content-Length', String(typeof a.body === 'string' ? Buffer.byteLength(a.body) : a.body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(a.body);
}

/** Writes a REST result as a site page's answer (the iCalendar feed, an event's export): Koa leaves the response to it. */
export function writeRest(ctx: Koa.Context, site: Site, out: RestOutput, opts: Omit<WriteOptions, 'jsonp'>): void {
  const a = restAnswer({ method: ctx.method, querystring: ctx.querystring, headers: ctx.headers }, site, out, opts);
  if (a.errorCode) ctx.state.errorCode = a.errorCode;
  ctx.status = a.status;
  ctx.respond = false;
  sendAnswer(ctx.req, ctx.res, a);
}

/** The `code` of an error answer's body (the REST envelope's), if any. */
function errorCodeOf(body: unknown): string | undefined {
  const code = isRecord(body) ? body.code : undefined;
  return typeof code === 'string' && code ? code : undefined;
}
