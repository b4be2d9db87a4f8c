/**
 * The site index (`GET /`), namespace indexes and route entries, built from the route registry in the
 * reference system's shape. Argument declarations are published with the reference's allowed keywords
 * only; the serialised index is built once per context and reused.
 */
import type { Caller } from '../auth/user';
import { PLAIN_CONSTRAINTS, type ArgDecl, type CompiledRoute, type RouteRegistry } from './registry';
import { gmtOffset, restUrl, type Site } from './site';

const PUBLISHED_KEYWORDS = [
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  ...PLAIN_CONSTRAINTS,
  'anyOf',
  'oneOf',
] as const;

export function publishArg(decl: ArgDecl): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of PUBLISHED_KEYWORDS) if (decl[k] !== undefined) out[k] = decl[k];
  out.required = decl.required === true;
  return out;
}

export function routeData(route: CompiledRoute, site: Site, context: string): Record<string, unknown> {
  const data: Record<string, unknown> = {
    namespace: route.namespace,
    methods: route.endpoints.flatMap((e) => e.methods),
    endpoints: route.endpoints.map((e) => {
      const args: Record<string, unknown> = {};
      for (const [name, decl] of Object.entries(e.args)) if (!decl.hidden) args[name] = publishArg(decl);
      return { methods: e.methods, ...(e.allowBatch ? { allow_batch: { v1: true } } : {}), args };
    }),
  };
  if (context === 'help' && route.schema) {
    const schema = route.schema();
    const links = route.schemaLinks?.(site);
    data.schema = links?.length ? { ...schema, links } : schema;
  }
  if (!route.hasParams) data._links = { self: [{ href: restUrl(site, route.pattern) }] };
  return data;
}

/** The routes the index lists for a caller: those not hidden that exist for it (RouteDecl.shownTo). */
export function routesOf(registry: RouteRegistry, site: Site, context: string, user: Caller, namespace?: string): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const route of registry.all()) {
    if (route.hidden || !registry.shows(route, user)) continue;
    if (namespace !== undefined && route.namespace !== namespace) continue;
    routes[route.pattern] = routeData(route, site, context);
  }
  return routes;
}

export function siteIndex(registry: RouteRegistry, site: Site, context: string, user: Caller): Record<string, unknown> {
  return {
    name: site.name,
    description: site.description,
    url: site.url,
    home: site.home,
    gmt_offset: String(gmtOffset(site)),
    timezone_string: site.timezone === 'UTC' ? '' : site.timezone,
    page_for_posts: site.pageForPosts ?? 0,
    page_on_front: site.pageOnFront ?? 0,
    show_on_front: site.showOnFront ?? 'posts',
    namespaces: [...registry.namespaces()],
    authentication: { 'application-passwords': { endpoints: { authorization: site.authorizeUrl } } },
    routes: routesOf(registry, site, context, user),
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

export function namespaceIndex(registry: RouteRegistry, site: Site, namespace: string, context: string, user: Caller): Record<string, unknown> {
  return {
    namespace,
    routes: routesOf(registry, site, context, user, namespace),
    _links: { up: [{ href: site.restRoot }] },
  };
}
