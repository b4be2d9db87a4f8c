/**
 * The site index (`GET /`) kept as JSON text. It is built from the route table (as the reference's
 * get_index), which differs between callers only by the routes that exist for some callers alone
 * (RouteDecl.shownTo: a post type shown in REST to managers): serialised once per context and audience
 * (RouteRegistry.audienceKey, with its headers), and built again when the site revision moves (a
 * settings change: name, time zone, ...). It differs by context only for context=help (each route's
 * schema); any other context is view's.
 */
import type Koa from 'koa';
import type { RouteRegistry } from '#libs/rest/registry';
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

export function siteIndex(site: Site, registry: RouteRegistry): Koa.Middleware {
  const kept = new Map<string, KeptIndex>();
  return forRest(async (ctx, call, next) => {
    const context = indexContext(ctx, call);
    if (context === undefined) return next();
    const key = `${context}:${registry.audienceKey(call.input.user)}`;
    const hit = kept.get(key);
    if (hit && hit.revision === site.revision) {
      ctx.state.route = '/';
      writeRest(ctx, site, { status: 200, headers: hit.headers, body: null }, { loggedIn: !!call.input.user, pretty: call.pretty, cached: hit.body });
      return;
    }
    const revision = site.revision;
    await next();
    const out = call.out;
    if (out?.status === 200) kept.set(key, { body: Buffer.from(JSON.stringify(out.body)), headers: out.headers, revision });
  });
}
