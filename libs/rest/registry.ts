/**
 * The route registry: the one place a route is declared (namespace, pattern in the reference form
 * `(?P<id>[\d]+)`, methods, argument schemas, batching, owning service). The gateway builds its
 * validators, the site index, OPTIONS answers and the OpenAPI documents from it; services bind their
 * handlers to its endpoint ids.
 */
import type { Caller } from '../auth/user';
import type { ServiceName } from '../config/env';
import type { ParamError } from './errors';
import type { Site } from './site';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The id prefix of the namespace index endpoints the registry declares itself, one per namespace (`index.namespace:cms/v2`). */
export const NAMESPACE_INDEX = 'index.namespace';
export const READABLE: Method[] = ['GET'];
export const CREATABLE: Method[] = ['POST'];
export const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];
export const DELETABLE: Method[] = ['DELETE'];
export const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** An argument or property schema in the reference system's dialect (draft-04 style exclusive bounds). */
export interface ArgSchema {
  type?: JsonType | readonly JsonType[];
  title?: string;
  description?: string;
  default?: unknown;
  /** On an argument: whether the request must carry it. On an object property: draft-03 style required. */
  required?: boolean | readonly string[];
  enum?: readonly unknown[];
  format?: 'date-time' | 'email' | 'uri' | 'uuid' | 'hex-color' | 'ip' | 'text-field' | 'textarea-field' | 'tel' | string;
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: readonly ArgSchema[];
  oneOf?: readonly ArgSchema[];
  /** Schema contexts (view, edit, embed) a record property appears in; not published in arg lists. */
  context?: readonly string[];
  readonly?: boolean;
}

/**
 * The dialect's constraints on numbers, strings and arrays that standard JSON Schema spells and reads the
 * same way: the site index publishes them as declared and the validator hands them to AJV unchanged.
 */
export const PLAIN_CONSTRAINTS = ['multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems'] as const;

export interface ArgDecl extends ArgSchema {
  /**
   * Extra validation after the schema passed (the reference's validate_callback), run in the gateway.
   * Returns true, or the failure. It must be pure: it sees only the value and the other params.
   */
  validate?: (value: unknown, params: Record<string, unknown>) => true | ParamError | string;
  /**
   * The argument's own type check where the reference validates an argument by itself before any schema
   * keyword (ec/v1's parameter types): it sees the value as sent, and its failure is the one reported.
   */
  precheck?: (value: unknown, params: Record<string, unknown>) => true | ParamError | string;
  /** Keywords published in the index but not enforced, because the precheck replaces them. */
  unchecked?: ReadonlyArray<'format' | 'pattern' | 'enum'>;
  /** Turns the validated value into what the handler receives (the reference's sanitize_callback). */
  sanitize?: (value: unknown, params: Record<string, unknown>) => unknown;
  /** Leave out of the published index (the argument still works). */
  hidden?: boolean;
  /**
   * Only in the extended edition (EDITION=extended): a registry of another edition leaves the argument
   * out of its endpoint, so it is neither published nor read, as the reference without its extension.
   */
  edition?: 'extended';
}

/** Which edition of the service a registry declares (config EDITION). */
export type Edition = 'free' | 'extended';

export interface EndpointDecl {
  /** Unique id the owning service binds its handler to, e.g. `cms.posts.list`. */
  id: string;
  methods: Method[];
  args: Record<string, ArgDecl>;
  allowBatch?: boolean;
  /** The endpoint takes a file: the request's multipart files or raw body travel to its service. */
  upload?: boolean;
  /** Who answers: a service, or the gateway itself (index, namespace index, batch). */
  service: ServiceName | 'gateway';
  /** URL captures of the route the endpoint's handler relies on (checked against the pattern when added). */
  captures?: readonly string[];
}

export interface RouteDecl {
  namespace: string;
  /** Full route regex in the reference form, starting with '/': `/cms/v2/posts/(?P<id>[\d]+)`. */
  pattern: string;
  endpoints: EndpointDecl[];
  /** The record schema shown with context=help and in OpenAPI documents. */
  schema?: () => Record<string, unknown>;
  /**
   * Link Description Objects the reference adds to the public record schema as `links` (the actions a
   * client may be allowed on a record), shown with the schema by OPTIONS and context=help.
   */
  schemaLinks?: (site: Site) => Array<Record<string, unknown>>;
  /** Hide from the index (the route still answers). */
  hidden?: boolean;
  /**
   * Who the route exists for (the reference registers a post type's routes only for callers its
   * `show_in_rest` holds for): for anyone else it is not matched (404 `rest_no_route`) and not listed
   * in the indexes. Absent: everyone.
   */
  shownTo?: (user: Caller) => boolean;
}

export interface CompiledRoute extends RouteDecl {
  regex: RegExp;
  /** Names of the named groups, in order. */
  groups: string[];
  hasParams: boolean;
}

/** Turns `(?P<name>...)` into a JS named group and anchors the whole pattern, case-insensitively. */
export function compilePattern(pattern: string): { regex: RegExp; groups: string[] } {
  const groups: string[] = [];
  const source = pattern.replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, (_m, name: string) => {
    groups.push(name);
    return `(?<${name}>`;
  });
  return { regex: new RegExp(`^${source}$`, 'i'), groups };
}

export class RouteRegistry {
  private readonly routes: CompiledRoute[] = [];
  /** Each endpoint as this registry serves it, and the constant that declared it (what a service binds). */
  private readonly byEndpoint = new Map<string, { route: CompiledRoute; endpoint: EndpointDecl; declared: EndpointDecl }>();

  constructor(readonly edition: Edition = 'free') {}

  /** The endpoint as this edition serves it: without the arguments of an edition it is not. */
  private offered(ep: EndpointDecl): EndpointDecl {
    if (this.edition === 'extended' || !Object.values(ep.args).some((a) => a.edition === 'extended')) return ep;
    return { ...ep, args: Object.fromEntries(Object.entries(ep.args).filter(([, a]) => a.edition !== 'extended')) };
  }
  private readonly namespaceList: string[] = [];
  /** Each namespace's routes in the order they were added, so a request tries only those of its namespace. */
  private readonly routesOf = new Map<string, CompiledRoute[]>();
  /**
   * The routes whose regex may match a path that no namespace prefixes, even ignoring case: those of no
   * namespace, of a namespace with a regex metacharacter (`oembed/1.0`), or whose pattern does not begin
   * with `/<namespace>` then `/` or its end. Any other route's regex (case-insensitive, anchored) needs
   * its namespace at the start of the path, so a path no namespace prefixes (a 404) tries only these.
   */
  private readonly unprefixed: CompiledRoute[] = [];

  /** Declares namespaces the index lists even when they have no routes of their own yet. */
  namespace(ns: string): this {
    if (!this.namespaceList.includes(ns)) this.namespaceList.push(ns);
    return this;
  }

  add(route: RouteDecl): this {
    // As the reference does, a namespace's index route is registered just before its first route.
    const ns = route.namespace;
    if (ns && route.pattern !== `/${ns}` && !this.routes.some((r) => r.namespace === ns)) {
      this.add({
        namespace: ns,
        pattern: `/${ns}`,
        endpoints: [
          {
            id: `${NAMESPACE_INDEX}:${ns}`,
            service: 'gateway',
            methods: ['GET'],
            args: { namespace: { default: ns }, context: { default: 'view' } },
          },
        ],
      });
    }
    if (this.routes.some((r) => r.pattern === route.pattern)) throw new Error(`route ${route.pattern} declared twice`);
    for (const ep of route.endpoints) {
      if (this.byEndpoint.has(ep.id)) throw new Error(`endpoint id ${ep.id} declared twice`);
    }
    const { regex, groups } = compilePattern(route.pattern);
    for (const ep of route.endpoints) {
      const stray = ep.captures?.filter((c) => !groups.includes(c)) ?? [];
      if (stray.length) throw new Error(`endpoint ${ep.id} relies on captures ${stray.join(', ')} that ${route.pattern} does not have`);
      // A permission check also runs for the Allow header of a request to another endpoint of the route,
      // with that request's arguments: a capture it relies on must be declared alike by every endpoint.
      for (const c of ep.captures ?? []) {
        const unlike = route.endpoints.find((other) => JSON.stringify(other.args[c]?.type) !== JSON.stringify(ep.args[c]?.type));
        if (unlike) throw new Error(`endpoint ${ep.id} relies on capture ${c}, which ${unlike.id} declares otherwise`);
      }
    }
    const served = route.endpoints.map((ep) => this.offered(ep));
    const compiled: CompiledRoute = { ...route, endpoints: served, regex, groups, hasParams: groups.length > 0 };
    this.routes.push(compiled);
    if (!prefixedByNamespace(route)) this.unprefixed.push(compiled);
    if (route.namespace) {
      const own = this.routesOf.get(route.namespace) ?? [];
      own.push(compiled);
      this.routesOf.set(route.namespace, own);
    }
    route.endpoints.forEach((ep, i) => this.byEndpoint.set(ep.id, { route: compiled, endpoint: served[i], declared: ep }));
    if (route.namespace) this.namespace(route.namespace);
    return this;
  }

  all(): readonly CompiledRoute[] {
    return this.routes;
  }

  namespaces(): readonly string[] {
    return this.namespaceList;
  }

  endpoint(id: string): { route: CompiledRoute; endpoint: EndpointDecl } | undefined {
    return this.byEndpoint.get(id);
  }

  /**
   * Checks, when a handler is bound, that `ep` is the very constant a route lists and that `owner`
   * answers it; throws otherwise, so a wrong binding fails at start-up.
   */
  checkBinding(ep: EndpointDecl, owner: ServiceName | 'gateway'): void {
    const found = this.byEndpoint.get(ep.id);
    if (!found) throw new Error(`${owner}: no endpoint ${ep.id} in the route registry`);
    if (found.declared !== ep) throw new Error(`${owner}: endpoint ${ep.id} is not the constant the route declares`);
    if (ep.service !== owner) throw new Error(`${owner}: endpoint ${ep.id} belongs to ${ep.service}`);
  }

  endpointsOf(service: ServiceName | 'gateway'): EndpointDecl[] {
    return [...this.byEndpoint.values()].filter((e) => e.endpoint.service === service).map((e) => e.endpoint);
  }

  /** Whether a route exists for this caller (RouteDecl.shownTo). */
  shows(route: RouteDecl, user: Caller): boolean {
    return !route.shownTo || route.shownTo(user);
  }

  /**
   * Which of the routes with an audience a caller has, as a key: callers with the same key see the same
   * index (the gateway keeps one serialised index per key).
   */
  audienceKey(user: Caller): string {
    let key = '';
    for (const r of this.routes) if (r.shownTo) key += r.shownTo(user) ? '1' : '0';
    return key;
  }

  /**
   * Finds the route for a path as the reference server does, among the routes that exist for the caller
   * (RouteDecl.shownTo): only routes of namespaces that prefix the path are tried (all routes when none
   * does), each regex must match the whole path. `'anyone'` matches a route whoever it is shown to (what
   * the build has: a metrics label, a link target checked again per caller with `shows`).
   */
  match(path: string, user: Caller | 'anyone'): { route: CompiledRoute; params: Record<string, string> } | null {
    const prefixing: string[] = [];
    for (const ns of this.routesOf.keys()) {
      if (path.startsWith(ns, 1) && path.charCodeAt(0) === 47 && (path.length === ns.length + 1 || path.charCodeAt(ns.length + 1) === 47)) prefixing.push(ns);
    }
    // Usually one namespace prefixes the path; where several do (one namespace inside another's
    // prefix), their routes are tried in the order they were added, as when all are scanned.
    const pool =
      prefixing.length === 0
        ? this.prefixedIgnoringCase(path)
          ? this.routes
          : this.unprefixed
        : prefixing.length === 1
          ? (this.routesOf.get(prefixing[0]) ?? [])
          : this.routes.filter((r) => prefixing.includes(r.namespace));
    for (const route of pool) {
      if (user !== 'anyone' && !this.shows(route, user)) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      for (const g of route.groups) if (m.groups?.[g] !== undefined) params[g] = m.groups[g];
      return { route, params };
    }
    return null;
  }

  /**
   * Whether some namespace prefixes the path ignoring case (the routes' regexes ignore it). ASCII
   * namespaces: a path character matches one of theirs only if it is ASCII too, and ASCII letters
   * match ignoring case exactly when their lower cases are equal; a false "yes" only means a full scan.
   */
  private prefixedIgnoringCase(path: string): boolean {
    const lower = path.toLowerCase();
    for (const ns of this.routesOf.keys()) {
      const n = ns.toLowerCase();
      if (lower.startsWith(n, 1) && (lower.length === n.length + 1 || lower.charCodeAt(n.length + 1) === 47)) return true;
    }
    return false;
  }
}

const REGEX_META = /[.*+?^${}()|[\]\\]/;

/** Whether a route's regex can only match paths that begin with `/<its namespace>` followed by `/` or the end. */
function prefixedByNamespace(route: RouteDecl): boolean {
  const ns = route.namespace;
  if (!ns || REGEX_META.test(ns)) return false;
  return route.pattern === `/${ns}` || route.pattern.startsWith(`/${ns}/`);
}

/** The method an endpoint is looked up by (HEAD is served as GET), or undefined for a method no endpoint serves. */
export function routeMethod(method: string): Method | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return ALL_METHODS.find((x) => x === m);
}

/** The endpoint of a route that serves a method; HEAD falls back to GET. */
export function endpointFor(route: RouteDecl, method: string): EndpointDecl | undefined {
  const m = routeMethod(method);
  return m && route.endpoints.find((e) => e.methods.includes(m));
}
