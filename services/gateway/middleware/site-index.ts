/**
 * The site index (`GET /`) kept as JSON text. It is built from the route table, not from the caller
 * (as the reference's get_index): serialised once per context (with its headers) for guests and
 * signed-in callers alike, and built again when the site revision moves (a settings change: name,
 * time zone, ...). It differs only for context=help (each route's schema); any other context is view's.
 */
import type Koa from 'koa';
import type { Site } from '#libs/rest/site';
import { forRest, type RestCall } from './route';
import { writeRest } from './write-rest';

interface KeptIndex {
  body: Buffer;
  headers: Record<string, string>;
  revision: number | undefined;
}

/** Which index a request asks for: a plain GET or HEAD of `/` with at most a `context`; undefined for anything else. */
function indexContext(ctx: Koa.Context, call: RestCall): 'help' | 'view' | undefined {
  const { path, query } = call.input;
  const plain = path === '/' && !call.pretty && (ctx.method === 'GET' || ctx.method === 'HEAD');
  if (!plain || !Object.keys(query).every((k) => k === 'context' && typeof query.context === 'string')) return undefined;
  return query.context === 'help' ? 'help' : 'view';
}

export function siteIndex(site: Site): Koa.Middleware {
  const kept = new Map<'help' | 'view', KeptIndex>();
  return forRest(async (ctx, call, next) => {
    const context = indexContext(ctx, call);
    if (context === undefined) return next();
    const hit = kept.get(context);
    if (hit && hit.revision === site.revision) {
      ctx.state.route = '/';
      writeRest(ctx, site, { status: 200, headers: hit.headers, body: null }, { loggedIn: !!call.input.user, pretty: call.pretty, cached: hit.body });
      return;
    }
    const revision = site.revision;
    await next();
    const out = call.out;
    if (out?.status === 200) kept.set(context, { body: Buffer.from(JSON.stringify(out.body)), headers: out.headers, revision });
  });
}
