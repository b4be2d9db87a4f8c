/**
 * Which part of the gateway answers a request: a REST request (`/index.php/cms-json/...` or
 * `?rest_route=`) goes through the REST middleware, anything else through the site's pages. The query
 * string is parsed once here; what the REST middleware learn of a request (its body, its caller, its
 * answer) travels with it as its RestCall.
 */
import type Koa from 'koa';
import qs from 'qs';
import { stateString } from '#libs/http/koa-state';
import type { RestInput, RestOutput, RestServer } from '#libs/rest/server';
import { REST_PREFIX } from '#libs/rest/site';
import { clientIp } from '../client-ip';

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 2000, allowDots: false };

export function parseQuery(raw: string): Record<string, unknown> {
  return qs.parse(raw, QS_OPTIONS);
}

/** A REST request on its way through the middleware. */
export interface RestCall {
  /** What the REST pipeline is handed: the route path and query first, the body and caller as they are read. */
  input: RestInput;
  /** `_pretty`: the JSON answer indented. */
  pretty: boolean;
  /** The body's bytes, once read. */
  raw: Buffer;
  /** The pipeline's answer, once dispatched. */
  out?: RestOutput;
}

interface Found {
  /** The query string's arguments (for a REST request, without `rest_route`). */
  query: Record<string, unknown>;
  rest?: RestCall;
}

const found = new WeakMap<Koa.Context, Found>();

function foundOf(ctx: Koa.Context): Found {
  const f = found.get(ctx);
  if (!f) throw new Error('the gateway middleware run before findRestRoute');
  return f;
}

/** The query string's arguments. */
export const queryOf = (ctx: Koa.Context): Record<string, unknown> => foundOf(ctx).query;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Tells a REST request from a site one; a REST request is labelled with its route before the body is read, so a 413, 401 or 429 is counted under it too. */
export function findRestRoute(rest: RestServer): Koa.Middleware {
  return async (ctx, next) => {
    const query = parseQuery(ctx.querystring);
    let path: string | undefined;
    if (ctx.path === REST_PREFIX || ctx.path.startsWith(`${REST_PREFIX}/`)) path = safeDecode(ctx.path.slice(REST_PREFIX.length)) || '/';
    else if ((ctx.path === '/' || ctx.path === '/index.php') && typeof query.rest_route === 'string') path = query.rest_route || '/';
    if (path === undefined) {
      found.set(ctx, { query });
      return next();
    }
    delete query.rest_route;
    const matched = rest.matchPath(path);
    ctx.state.route = matched.match?.route.pattern;
    const input: RestInput = {
      method: ctx.method,
      path,
      query,
      bodyType: 'none',
      headers: ctx.headers,
      user: null,
      requestId: stateString(ctx, 'requestId') ?? '',
      ip: clientIp(ctx),
      matched,
    };
    found.set(ctx, { query, rest: { input, pretty: query._pretty !== undefined, raw: Buffer.alloc(0) } });
    return next();
  };
}

/** A middleware of the REST requests: it sees the request's RestCall; any other request passes by. */
export function forRest(mw: (ctx: Koa.Context, call: RestCall, next: Koa.Next) => Promise<void>): Koa.Middleware {
  return (ctx, next) => {
    const call = foundOf(ctx).rest;
    return call ? mw(ctx, call, next) : next();
  };
}

/** Runs middleware in order as one: each one's `next` is the following one, the last one's the outer `next`. */
function chain(mws: Koa.Middleware[]): Koa.Middleware {
  return (ctx, next) => {
    const at = (i: number): Promise<void> => (i === mws.length ? next() : Promise.resolve(mws[i](ctx, () => at(i + 1))));
    return at(0);
  };
}

/**
 * The two ways on from findRestRoute: a REST request runs only the REST middleware, any other request
 * only the site's pages, so neither passes through the other's (as it would, each asking and passing
 * by, if all were in one line).
 */
export function siteOrRest(site: Koa.Middleware[], restMw: Koa.Middleware[]): Koa.Middleware {
  const sitePages = chain(site);
  const restPipeline = chain(restMw);
  return (ctx, next) => (foundOf(ctx).rest ? restPipeline(ctx, next) : sitePages(ctx, next));
}

/** A page that answers some requests (true) and leaves the rest to the next middleware. */
export function answering(serve: (ctx: Koa.Context) => Promise<boolean>): Koa.Middleware {
  return async (ctx, next) => {
    if (!(await serve(ctx))) await next();
  };
}
