/**
 * The request pipeline of the reference server, independent of HTTP: method override, route match,
 * argument merge and validation, dispatch to the owning service, then the global parameters
 * (`_embed`, `_fields`, `_envelope`) and the `Allow` header. The gateway's HTTP front and the batch
 * worker both run requests through it, so a batch sub-request is handled exactly like a direct one.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceName } from '../config/env';
import type { AuthUser } from '../auth/user';
import { headerOf } from '../http/headers';
import { logger } from '../observability/logger';
import { RestError, errors, invalidParams, type JsonErrorMessage, type ParamError } from './errors';
import { filterFields } from './fields';
import { routeData } from './index-doc';
import {
  NAMESPACE_INDEX,
  endpointFor,
  routeMethod,
  type ArgDecl,
  type CompiledRoute,
  type EndpointDecl,
  type Method,
  type RouteDecl,
  type RouteRegistry,
} from './registry';
import type { ArgMap, Endpoint, ParamsOf } from './params';
import type { AnyParams, Dispatch, RawBody, ServiceRequest, ServiceResponse, UploadPayload } from './service';
import type { Site } from './site';
import { defaultOf, isObj, mergeParams } from './merge-params';
import { precompile, validateArg } from './validate';

export interface RestInput {
  method: string;
  /** Route path relative to the REST root, starting with '/', without the query. */
  path: string;
  query: Record<string, unknown>;
  /** Parsed body: a JSON value (bodyType json) or the form fields (bodyType form). */
  body?: unknown;
  bodyType: 'json' | 'form' | 'none';
  /** Set when a JSON body did not parse (PHP's json_last_error_msg wording). */
  jsonError?: JsonErrorMessage;
  headers: Record<string, string | string[] | undefined>;
  user: AuthUser | null;
  requestId?: string;
  idempotencyKey?: string;
  /** The caller's address, when the request came over HTTP (comments record it). */
  ip?: string;
  /** Multipart files or a raw body, handed only to endpoints that take uploads. */
  upload?: UploadPayload;
  /** The route already found for `path` (RestServer.matchPath), so that the pipeline does not look again. */
  matched?: PathMatch;
}

/** A route path (normalised) and the route it matches, or null. */
export interface PathMatch {
  path: string;
  match: ReturnType<RouteRegistry['match']>;
}

export interface RestOutput {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The route pattern that matched (for metrics), or undefined. */
  route?: string;
  /** A non-JSON serialisation to write as is; the global parameters leave such an answer alone. */
  raw?: RawBody;
}

/** Handlers the gateway itself answers (index, namespace index, batch). */
/** What a gateway builtin receives; `P` is its arguments' type, derived from its endpoint constant. */
export interface BuiltinArgs<P = AnyParams> {
  input: RestInput;
  params: P;
  server: RestServer;
  route: CompiledRoute;
}
export type BuiltinHandler = (args: BuiltinArgs) => Promise<RestOutput>;

/**
 * Whether the arguments were validated against this endpoint's declarations: the matched route lists
 * this very constant, and `dispatch` validated the arguments against the endpoint it answers.
 */
function validatedFor<A extends ArgMap, C extends string>(ep: Endpoint<A, C>, route: CompiledRoute, _params: AnyParams): _params is ParamsOf<A, C> {
  return route.endpoints.includes(ep);
}

/** The caller's address and user agent for the service, when known (an IPv4-mapped address reads as IPv4). */
function clientOf(input: RestInput): Pick<ServiceRequest, 'client'> {
  const ua = input.headers['user-agent'];
  const client: NonNullable<ServiceRequest['client']> = {};
  if (input.ip) client.ip = input.ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  if (typeof ua === 'string' && ua) client.userAgent = ua;
  return Object.keys(client).length ? { client } : {};
}

/** The names of an endpoint's required arguments, found once per endpoint. */
const required = new WeakMap<EndpointDecl, string[]>();
function requiredArgs(endpoint: EndpointDecl): string[] {
  let names = required.get(endpoint);
  if (!names) {
    names = Object.entries(endpoint.args)
      .filter(([, decl]) => decl.required === true)
      .map(([name]) => name);
    required.set(endpoint, names);
  }
  return names;
}

export class RestServer {
  private readonly builtins = new Map<string, BuiltinHandler>();

  constructor(
    readonly registry: RouteRegistry,
    readonly site: Site,
    private readonly services: Partial<Record<ServiceName, Dispatch>>,
  ) {
    for (const route of registry.all()) for (const ep of route.endpoints) for (const a of Object.values(ep.args)) precompile(a);
  }

  /**
   * Answers an endpoint constant's requests in the gateway, as ServiceApp.bind does in a service: the
   * handler's `params` are typed from the constant's declarations, and a constant that is not the one
   * its route lists fails at start-up.
   */
  builtin<A extends ArgMap, C extends string>(ep: Endpoint<A, C>, handler: (args: BuiltinArgs<ParamsOf<A, C>>) => Promise<RestOutput>): this {
    this.registry.checkBinding(ep, 'gateway');
    this.builtins.set(ep.id, async (args) => {
      const { params } = args;
      // Builtins are found by endpoint id, which names one endpoint of one route: this always holds.
      if (!validatedFor(ep, args.route, params)) throw new Error(`gateway: ${ep.id} answered for a route that does not declare it`);
      return handler({ ...args, params });
    });
    return this;
  }

  /** Answers the namespace indexes, the endpoints the registry declares itself (NAMESPACE_INDEX). */
  namespaceIndex(handler: BuiltinHandler): this {
    this.builtins.set(NAMESPACE_INDEX, handler);
    return this;
  }

  /** The pattern of the route a path (relative to the REST root) matches, whatever the method and caller (a label, read before authentication). */
  routeOf(path: string): string | undefined {
    return this.matchPath(path).match?.route.pattern;
  }

  /**
   * The route a path (relative to the REST root) matches, whatever the method and caller; a RestInput may
   * carry it as `matched`. It is the caller's too unless it is shown to some callers only (then dispatch
   * matches again for the caller: a route before it may be hidden from them).
   */
  matchPath(path: string): PathMatch {
    const normal = normalisePath(path);
    return { path: normal, match: this.registry.match(normal, 'anyone') };
  }

  /** The whole pipeline, including the global parameters; what an HTTP request gets. */
  async handle(input: RestInput): Promise<RestOutput> {
    const method = effectiveMethod(input);
    const req = { ...input, method, requestId: input.requestId ?? randomUUID() };
    let out = await this.dispatch(req);
    if (out.raw) return out;
    if (req.method !== 'OPTIONS' && out.status < 400 && out.body !== undefined) {
      const embed = req.query._embed;
      if (embed !== undefined && embed !== 'false' && embed !== '0') out = { ...out, body: await this.embed(out.body, embed, req) };
      const fields = req.query._fields;
      if (typeof fields === 'string' || Array.isArray(fields)) out = { ...out, body: filterFields(out.body, fields) };
    }
    if (req.query._envelope !== undefined) {
      out = { status: 200, headers: {}, body: { body: out.body, status: out.status, headers: out.headers }, route: out.route };
    }
    return out;
  }

  /** Route, validate and run one request (no global parameters); used directly by batch and _embed. */
  async dispatch(input: RestInput & { requestId: string }): Promise<RestOutput> {
    const path = normalisePath(input.path);
    const carried = input.matched?.path === path ? input.matched.match : undefined;
    const match = carried !== undefined && !carried?.route.shownTo ? carried : this.registry.match(path, input.user);
    if (input.method === 'OPTIONS') return this.options(match, input);
    if (!match) return noRoute();
    const { route } = match;
    const method = routeMethod(input.method);
    const endpoint = endpointFor(route, input.method);
    if (!method || !endpoint) return noRoute(route.pattern);
    // Errors found before the handler still carry the route's Allow, as the reference computes it for
    // every matched route.
    if (input.jsonError !== undefined) return this.failOnRoute(errors.invalidJson(input.jsonError), route, input, match.params);

    const checked = this.validate(endpoint, input, match.params);
    if (checked instanceof RestError) return this.failOnRoute(checked, route, input, match.params);

    if (endpoint.service === 'gateway') {
      const builtin = this.builtins.get(endpoint.id) ?? this.builtins.get(endpoint.id.split(':')[0]);
      if (!builtin) return noRoute(route.pattern);
      const out = await builtin({ input, params: checked.params, server: this, route });
      return { ...out, headers: { Allow: gatewayAllow(route).join(', '), ...out.headers }, route: route.pattern };
    }
    const svc = this.services[endpoint.service];
    if (!svc) return fail(errors.unavailable(`The ${endpoint.service} service`), route.pattern);
    const sreq: ServiceRequest = {
      endpoint: endpoint.id,
      method,
      path,
      params: checked.params,
      queryKeys: checked.queryKeys,
      bodyKeys: checked.bodyKeys,
      query: input.query,
      user: input.user,
      requestId: input.requestId,
      ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
      ...clientOf(input),
      ...(endpoint.upload && input.upload ? { upload: input.upload } : {}),
    };
    let res: ServiceResponse;
    try {
      res = await svc(sreq);
    } catch (e) {
      if (e instanceof RestError) return fail(e, route.pattern);
      logger.error({ err: e, service: endpoint.service, requestId: input.requestId }, 'service call failed');
      return fail(errors.unavailable(`The ${endpoint.service} service`), route.pattern);
    }
    const headers = { ...res.headers };
    if (res.allow.length) headers.Allow = [...new Set(res.allow)].join(', ');
    return { status: res.status, headers, body: res.body, route: route.pattern, ...(res.raw ? { raw: res.raw } : {}) };
  }

  /**
   * Merges the parameter sources (JSON or form body, query, URL captures, defaults: the first that has
   * a value wins), reports missing required arguments, then validates every declared argument.
   */
  validate(
    endpoint: EndpointDecl,
    input: RestInput,
    urlParams: Record<string, string>,
  ): { params: Record<string, unknown>; queryKeys: string[]; bodyKeys: string[] } | RestError {
    const { merged, order, query, body } = mergeParams(endpoint, input, urlParams);
    const missing = requiredArgs(endpoint).filter((name) => merged[name] === undefined || merged[name] === null);
    if (missing.length) return errors.missingParams(missing);

    const failures: Array<[string, ParamError | string]> = [];
    for (const name of order) {
      const decl: ArgDecl | undefined = endpoint.args[name];
      const value = merged[name];
      if (!decl || value === null || value === undefined) continue;
      const r = validateArg(name, value, decl, merged);
      if ('error' in r) failures.push([name, r.error]);
      else merged[name] = r.value;
    }
    if (failures.length) return invalidParams(failures);
    return { params: merged, queryKeys: Object.keys(query), bodyKeys: Object.keys(body) };
  }

  private async failOnRoute(
    err: RestError,
    route: CompiledRoute,
    input: RestInput & { requestId: string },
    urlParams: Record<string, string>,
  ): Promise<RestOutput> {
    const out = fail(err, route.pattern);
    const allow = await this.probeAllow(route, input, urlParams);
    if (allow.length) out.headers.Allow = allow.join(', ');
    return out;
  }

  /** OPTIONS: the route's data with its schema; Allow as for any request. 200 `[]` when nothing matches. */
  private async options(match: ReturnType<RouteRegistry['match']>, input: RestInput & { requestId: string }): Promise<RestOutput> {
    if (!match) return { status: 200, headers: {}, body: [] };
    const { route } = match;
    const headers: Record<string, string> = {};
    const allow = await this.probeAllow(route, input, match.params);
    if (allow.length) headers.Allow = allow.join(', ');
    return { status: 200, headers, body: routeData(route, this.site, 'help'), route: route.pattern };
  }

  /** Asks the owning service which methods of a route this caller may use. */
  private async probeAllow(route: CompiledRoute, input: RestInput & { requestId: string }, urlParams: Record<string, string>): Promise<Method[]> {
    const first = route.endpoints[0];
    if (first.service === 'gateway') return gatewayAllow(route);
    const svc = this.services[first.service];
    if (!svc) return [];
    // The checks see the request's own parameters, merged as for validation with the first endpoint's
    // defaults; the request may be invalid, so a value that does not validate reads as its default.
    const { merged, query, body } = mergeParams(first, input, urlParams);
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(merged)) {
      const decl = first.args[name];
      if (!decl || value === null || value === undefined) {
        params[name] = value;
        continue;
      }
      const r = validateArg(name, value, decl, merged);
      if (!('error' in r)) params[name] = r.value;
      else if (decl.default !== undefined) {
        const d = validateArg(name, defaultOf(decl.default), decl, merged);
        if (!('error' in d)) params[name] = d.value;
      }
    }
    for (const g of route.groups) if (/^\d+$/.test(String(params[g]))) params[g] = Number(params[g]);
    try {
      const res = await svc({
        endpoint: first.id,
        method: first.methods[0],
        path: input.path,
        params,
        queryKeys: Object.keys(query),
        bodyKeys: Object.keys(body),
        query: input.query,
        user: input.user,
        requestId: input.requestId,
        probe: true,
      });
      return [...new Set(res.allow)];
    } catch {
      return [];
    }
  }

  /** `_embed`: follows embeddable links with internal GETs in embed context, cached per href. */
  private async embed(body: unknown, embedParam: unknown, input: RestInput & { requestId: string }): Promise<unknown> {
    const wanted =
      embedParam === '' || embedParam === '1' || embedParam === 'true' || embedParam === true
        ? null
        : new Set(
            String(embedParam)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          );
    const cache = new Map<string, Promise<unknown>>();
    const one = async (item: unknown): Promise<unknown> => {
      if (!isObj(item) || !isObj(item._links)) return item;
      const embedded: Record<string, unknown[]> = {};
      for (const [rel, links] of Object.entries(item._links)) {
        if (!Array.isArray(links) || (wanted && !wanted.has(rel))) continue;
        const results: unknown[] = [];
        let any = false;
        for (const link of links) {
          if (!isObj(link) || link.embeddable !== true || typeof link.href !== 'string') {
            results.push({});
            continue;
          }
          let p = cache.get(link.href);
          if (!p) {
            p = this.embedOne(link.href, input);
            cache.set(link.href, p);
          }
          const r = await p;
          if (r !== undefined) {
            results.push(r);
            any = true;
          } else results.push({});
        }
        if (any) embedded[rel] = results;
      }
      return Object.keys(embedded).length ? { ...item, _embedded: embedded } : item;
    };
    return Array.isArray(body) ? Promise.all(body.map(one)) : one(body);
  }

  private async embedOne(href: string, input: RestInput & { requestId: string }): Promise<unknown> {
    if (!href.startsWith(this.site.restRoot)) return undefined;
    const url = new URL(href);
    const path = '/' + href.slice(this.site.restRoot.length).split('?')[0];
    const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (query.context === undefined) query.context = 'embed';
    const match = this.registry.match(normalisePath(path), input.user);
    const ep = match && endpointFor(match.route, 'GET');
    if (ep?.args.per_page?.maximum !== undefined && query.per_page === undefined) query.per_page = ep.args.per_page.maximum;
    const out = await this.dispatch({ method: 'GET', path, query, bodyType: 'none', headers: {}, user: input.user, requestId: input.requestId });
    return out.body;
  }
}

/** The gateway's own routes (indexes, batch) have no permission checks: every method is allowed. */
function gatewayAllow(route: RouteDecl): Method[] {
  return [...new Set(route.endpoints.flatMap((e) => e.methods))];
}

function fail(err: RestError, route?: string): RestOutput {
  return { status: err.status, headers: {}, body: err.toJSON(), route };
}

/** The one `rest_no_route` error; each answer gets its own copy of its body (toJSON), without building an error per request. */
const NO_ROUTE = errors.noRoute();

function noRoute(route?: string): RestOutput {
  return fail(NO_ROUTE, route);
}

export function effectiveMethod(input: Pick<RestInput, 'method' | 'query' | 'headers'>): string {
  const q = input.query._method;
  if (typeof q === 'string' && q) return q.toUpperCase();
  const hv = headerOf(input.headers, 'x-http-method-override');
  if (hv) return hv.toUpperCase();
  return input.method.toUpperCase();
}

/** The reference removes a trailing slash and reads an empty route as '/'. */
export function normalisePath(path: string): string {
  let p = path.replace(/\/+$/, '');
  if (!p.startsWith('/')) p = '/' + p;
  return p === '' ? '/' : p;
}
