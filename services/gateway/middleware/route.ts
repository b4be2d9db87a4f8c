/**
 * Which part of the gateway answers a request: a REST request (`/index.php/cms-json/...` or
 * `?rest_route=`) goes to the REST front (../rest-front), anything else to the site's pages (Koa
 * middleware). The query string is parsed once, where the request is told apart.
 */
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import qs from 'qs';
import { REST_PREFIX } from '#libs/rest/site';

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 2000, allowDots: false };

export function parseQuery(raw: string): Record<string, unknown> {
  return qs.parse(raw, QS_OPTIONS);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The route path (relative to the REST root) a request asks for, or undefined for a site request: the
 * path under `/index.php/cms-json`, or `rest_route` on `/` or `/index.php`, which is then taken out of
 * the query arguments.
 */
export function restRoutePath(urlPath: string, query: Record<string, unknown>): string | undefined {
  if (urlPath === REST_PREFIX || urlPath.startsWith(`${REST_PREFIX}/`)) return safeDecode(urlPath.slice(REST_PREFIX.length)) || '/';
  if ((urlPath === '/' || urlPath === '/index.php') && typeof query.rest_route === 'string') {
    const path = query.rest_route || '/';
    delete query.rest_route;
    return path;
  }
  return undefined;
}

/**
 * A request target's path and query string, split as Koa splits it (its parseurl), for an origin-form
 * target without the characters that make parseurl parse it fully (a fragment, white space); undefined
 * for any other, which is left to Koa.
 */
export function splitTarget(url: string): { path: string; querystring: string } | undefined {
  if (url.charCodeAt(0) !== 0x2f) return undefined;
  if (/[\t\n\f\r #\u00a0\ufeff]/.test(url)) return undefined;
  const q = url.indexOf('?');
  return q < 0 ? { path: url, querystring: '' } : { path: url.slice(0, q), querystring: url.slice(q + 1) };
}

/** A request's query arguments, parsed where the request was told apart. */
const queries = new WeakMap<IncomingMessage, Record<string, unknown>>();

/** Keeps a site request's parsed query arguments for its pages (queryOf). */
export function keepQuery(req: IncomingMessage, query: Record<string, unknown>): void {
  queries.set(req, query);
}

/** Whether a request was already told to be a site request (its query arguments kept). */
export function isSiteRequest(req: IncomingMessage): boolean {
  return queries.has(req);
}

/** The query string's arguments of a site request. */
export function queryOf(ctx: Koa.Context): Record<string, unknown> {
  let query = queries.get(ctx.req);
  if (!query) {
    query = parseQuery(ctx.querystring);
    queries.set(ctx.req, query);
  }
  return query;
}

/** A page that answers some requests (true) and leaves the rest to the next middleware. */
export function answering(serve: (ctx: Koa.Context) => Promise<boolean>): Koa.Middleware {
  return async (ctx, next) => {
    if (!(await serve(ctx))) await next();
  };
}
