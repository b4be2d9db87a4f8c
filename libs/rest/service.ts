/**
 * The contract between the gateway and a service. The gateway has matched the route and validated the
 * arguments; a service runs the permission check on the loaded data, then the handler, and reports
 * which methods of the route this caller may use (the `Allow` header). The same `dispatch` is called
 * in-process in all-in-one mode and behind a signed HTTP endpoint in cluster mode.
 */
import type { Config, ServiceName } from '../config/env';
import type { AuthUser } from '../auth/user';
import { logger } from '../observability/logger';
import { Args } from './args';
import { RestError, errors, unavailableFor } from './errors';
import type { Doc, ReadableCollection, Store } from '../store/types';
import type { ArgMap, Endpoint, ParamsOf } from './params';
import type { KeptPresenter, ReadCache, ReadStamp } from './read-cache';
import type { EndpointDecl, Method, RouteRegistry } from './registry';
import type { Site } from './site';

/** What every service is built from, in whichever process runs it: the route registry, the store, the site and the configuration. */
export interface ServiceOptions {
  registry: RouteRegistry;
  store: Store;
  site: Site;
  config: Config;
}

export interface ServiceRequest {
  endpoint: string;
  method: Method;
  /** The path that was requested, e.g. `/cms/v2/posts/5`. */
  path: string;
  /** Validated and coerced arguments (body over query over URL captures over defaults). */
  params: Record<string, unknown>;
  /** Which argument names the query string carried (the reference reads some only from there). */
  queryKeys: string[];
  /** Which argument names the body carried. */
  bodyKeys: string[];
  /** The raw query string parameters, for building paging links. */
  query: Record<string, unknown>;
  user: AuthUser | null;
  requestId: string;
  /** Set for batch sub-requests: stable across retries of the batch job. */
  idempotencyKey?: string;
  /** Only report which methods of the route the caller may use (OPTIONS); run no handler. */
  probe?: boolean;
  /** The HTTP caller's address and user agent (absent for batch jobs). */
  client?: { ip?: string; userAgent?: string };
  /** The uploaded file(s), only for endpoints that take uploads (see EndpointDecl.upload). */
  upload?: UploadPayload;
}

/** One file of a multipart/form-data body (the reference's $_FILES entry). */
export interface UploadedFile {
  name: string;
  type: string;
  data: Buffer;
}

/** What a request carried besides its parameters: multipart files, or a raw (non-form, non-JSON) body. */
export interface UploadPayload {
  files?: Record<string, UploadedFile>;
  raw?: Buffer;
  contentType?: string;
  disposition?: string;
  md5?: string;
}

export interface ServiceResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Methods of the matched route this caller may use. */
  allow: Method[];
  /** A serialisation other than JSON, written to HTTP as is (see RawBody). */
  raw?: RawBody;
}

/**
 * A response body that is not JSON (oEmbed's `format=xml`): the HTTP front writes `text` with
 * `contentType` instead of serialising `body`, and the global parameters (`_embed`, `_fields`,
 * `_envelope`) leave it alone. `body` still carries the data, for callers inside the pipeline.
 */
export interface RawBody {
  contentType: string;
  text: string;
}

export type Dispatch = (req: ServiceRequest) => Promise<ServiceResponse>;

/** What a handler returns. */
export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  raw?: RawBody;
}

/** The arguments of a request when nothing more is known of its endpoint. */
export type AnyParams = Readonly<Record<string, unknown>>;

/** What a handler sees of its request; `P` is the type of its validated arguments (see libs/rest/params.ts). */
export class HandlerContext<P extends AnyParams = AnyParams> {
  /** Per-request cache: records a permission check loaded are reused by the handler. */
  readonly memo = new Map<string, unknown>();
  private allowed?: Promise<Method[]>;
  private typed?: Args;
  /** What the service's caches stood at when a read began, before anything it shows was read (a write's answer is made afresh, so it takes none). */
  readonly began?: ReadStamp;

  constructor(
    readonly req: ServiceRequest,
    private readonly app: ServiceApp,
  ) {
    this.began = req.method === 'GET' ? app.cache?.begin() : undefined;
  }

  get params(): Record<string, unknown> {
    return this.req.params;
  }
  /**
   * The validated arguments, typed from the endpoint's declarations. The gateway validated and coerced
   * every declared argument against those declarations before the request reached the service, which is
   * what the type states.
   */
  get input(): P {
    return this.req.params as P;
  }
  /** The arguments, read by the type their declaration promises (see Args). */
  get args(): Args {
    this.typed ??= new Args(this.req.params);
    return this.typed;
  }
  get user(): AuthUser | null {
    return this.req.user;
  }
  /** Whether the request carried the argument at all (a JSON null counts: it resets some fields). */
  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.req.params, name) && (this.req.bodyKeys.includes(name) || this.req.queryKeys.includes(name));
  }
  /**
   * `load`'s answer, loaded once per request and key: the validation, the permission check and the
   * handler of one request (and the permission checks `Allow` runs) share what they read, such as the
   * target record. Nothing is kept past the request.
   */
  async once<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = await load();
    this.memo.set(key, v);
    return v;
  }
  /**
   * Records as a presenter presents them. A read (GET) takes the presentations the service keeps
   * under the presenter's keys and keeps the ones it makes (libs/rest/read-cache.ts); a write's answer
   * is always presented afresh.
   */
  present<D, V extends object>(docs: D[], presenter: KeptPresenter<D, V>): Promise<V[]> {
    const { cache } = this.app;
    if (!cache || !this.began || this.req.method !== 'GET') return presenter.present(docs);
    return cache.present(docs, presenter, this.began);
  }
  /**
   * A record by id as this request reads it: a read (GET) takes it from the records the service keeps
   * while their collection is unwritten (libs/store/query-cache.ts, frozen); a write reads the store.
   */
  record<T extends Doc>(source: ReadableCollection<T>, id: number): Promise<T | null> {
    const { cache } = this.app;
    if (!cache || !this.began || this.req.method !== 'GET') return source.findOne({ id });
    return cache.pages.byId(source, id);
  }
  /** Methods of this route whose permission check passes for this caller (computed once). */
  allowedMethods(): Promise<Method[]> {
    this.allowed ??= this.app.allowedMethods(this);
    return this.allowed;
  }
  /**
   * Forgets what the checks loaded and concluded. The reference asks the permission checks for `Allow`
   * after the handler ran, so a write's answer reflects the stored state it left (no check passes on
   * a record that was just deleted).
   */
  afterWrite(): void {
    this.memo.clear();
    this.allowed = undefined;
  }
}

/**
 * The arguments a permission check may see: any of them absent or null (see Handler.permission), but the
 * URL captures `C`, which every endpoint of the route declares alike (checked when the route is added).
 */
export type Probed<P, C extends PropertyKey = never> = { readonly [K in keyof P]: K extends C ? P[K] : P[K] | null | undefined };

export interface Handler<P extends AnyParams = AnyParams, C extends PropertyKey = never> {
  /**
   * Argument checks that need the caller (the reference makes them in a sanitize callback): they run
   * before the permission check and, unlike it, play no part in `Allow`.
   */
  validate?(ctx: HandlerContext<P>): Promise<true | RestError>;
  /**
   * Returns true, or the error to answer with (false means rest_forbidden). Missing means public. As in
   * the reference, it also runs for the `Allow` header of a request to another method of the route, with
   * that request's arguments: so it sees its own arguments only as possibly absent (`Probed`).
   */
  permission?(ctx: HandlerContext<Probed<P, C>>): Promise<true | false | RestError>;
  /**
   * For `Allow` only: everything the permission check's answer depends on besides the caller's
   * capabilities, as a key (the target record's status, whether the caller wrote it, whether an
   * `author` argument names someone else...). Where declared, `Allow` looks the answer up in a table
   * of this endpoint, filled once per capability set and key, instead of running the check (and
   * building its "no"); undefined runs the check. The request's own check always runs.
   */
  allowState?(ctx: HandlerContext<Probed<P, C>>): Promise<string | undefined>;
  handle(ctx: HandlerContext<P>): Promise<Reply>;
  /**
   * What of this endpoint's answers the service keeps (libs/rest/read-cache.ts): `answer` names the
   * answer a caller gets (undefined: not kept), beside the endpoint, the path and the caller (a guest,
   * or a user by id and capability set, so no answer is ever given to another user); it runs after the
   * permission check, and the answer is kept while nothing it shows is written. A request that carried
   * arguments in its body is answered afresh (they are not in the key).
   */
  keep?: { answer(ctx: HandlerContext<P>): string | undefined | Promise<string | undefined> };
}

/** Entries of a service's Allow table at most; when full it starts again (endpoints × capability sets × states stay few). */
const ALLOW_TABLE_MAX = 10_000;

/**
 * A capability set as a key: a short number, the same for every caller with the same capabilities, found
 * once per set. (The set itself as text, an administrator's 1,400 characters, made every Allow lookup
 * hash that much text again.)
 */
const capsKeys = new WeakMap<readonly string[], string>();
const capsNumbers = new Map<string, string>();
function capsKey(user: AuthUser | null): string {
  if (!user) return '';
  let key = capsKeys.get(user.caps);
  if (key === undefined) {
    const text = user.caps.join('\u0001');
    key = capsNumbers.get(text);
    if (key === undefined) capsNumbers.set(text, (key = `caps${capsNumbers.size}`));
    capsKeys.set(user.caps, key);
  }
  return key;
}

export class ServiceApp {
  private readonly handlers = new Map<string, Handler>();
  /** Allow's table: a permission check's answer by endpoint, capability set and the state its handler declares (Handler.allowState). */
  private readonly allowTable = new Map<string, boolean>();

  /**
   * @param cache what the service keeps between requests; the handlers' `keep` declarations and
   * `ctx.present` use it (without one, every answer is made afresh)
   */
  constructor(
    readonly name: ServiceName,
    private readonly registry: RouteRegistry,
    readonly cache?: ReadCache<Reply>,
  ) {}

  /** Binds a handler to an endpoint constant (libs/rest/params.ts); its `ctx.input` is typed from the constant's declarations. */
  bind<A extends ArgMap, C extends string>(ep: Endpoint<A, C>, handler: Handler<ParamsOf<A, C>, C>): this;
  bind(ep: Endpoint, handler: Handler): this {
    const endpointId = ep.id;
    this.registry.checkBinding(ep, this.name);
    if (this.handlers.has(endpointId)) throw new Error(`${this.name}: endpoint ${endpointId} bound twice`);
    this.handlers.set(endpointId, handler);
    return this;
  }

  /** Every endpoint the registry gives this service must have a handler. */
  verify(): this {
    const missing = this.registry
      .endpointsOf(this.name)
      .filter((e) => !this.handlers.has(e.id))
      .map((e) => e.id);
    if (missing.length) throw new Error(`${this.name}: no handler for ${missing.join(', ')}`);
    return this;
  }

  async allowedMethods(ctx: HandlerContext): Promise<Method[]> {
    const found = this.registry.endpoint(ctx.req.endpoint);
    if (!found) return [];
    const out: Method[] = [];
    for (const ep of found.route.endpoints) {
      if (await this.permits(ep, ctx)) out.push(...ep.methods);
    }
    return out;
  }

  private async permits(ep: EndpointDecl, ctx: HandlerContext): Promise<boolean> {
    const h = this.handlers.get(ep.id);
    if (!h) return false;
    if (!h.permission) return true;
    try {
      const state = h.allowState ? await h.allowState(ctx) : undefined;
      if (state === undefined) return (await h.permission(ctx)) === true;
      const key = `${ep.id}\u0000${capsKey(ctx.user)}\u0000${state}`;
      let ok = this.allowTable.get(key);
      if (ok === undefined) {
        ok = (await h.permission(ctx)) === true;
        if (this.allowTable.size >= ALLOW_TABLE_MAX) this.allowTable.clear();
        this.allowTable.set(key, ok);
      }
      return ok;
    } catch {
      return false;
    }
  }

  /** The handler's reply, or the caller's kept one where the binding declares it. */
  private async handled(handler: Handler, ctx: HandlerContext): Promise<Reply> {
    const { cache } = this;
    const at = ctx.began;
    if (!cache || !at || !handler.keep || ctx.req.bodyKeys.length) return handler.handle(ctx);
    const key = await handler.keep.answer(ctx);
    if (key === undefined) return handler.handle(ctx);
    const caller = ctx.user ? `${ctx.user.id}/${capsKey(ctx.user)}` : '-';
    return cache.reply(`${ctx.req.endpoint}:${ctx.req.path}:${caller}:${key}`, at, () => handler.handle(ctx));
  }

  readonly dispatch: Dispatch = async (req) => {
    const handler = this.handlers.get(req.endpoint);
    if (!handler) return errorResponse(errors.noRoute(), []);
    const ctx = new HandlerContext(req, this);
    if (req.probe) return { status: 200, body: null, headers: {}, allow: await ctx.allowedMethods().catch(() => []) };
    try {
      if (handler.validate) {
        const valid = await handler.validate(ctx);
        if (valid !== true) return errorResponse(valid, await ctx.allowedMethods());
      }
      if (handler.permission) {
        const ok = await handler.permission(ctx);
        if (ok !== true) {
          const err = ok === false ? errors.forbidden(req.user) : ok;
          return errorResponse(err, await ctx.allowedMethods());
        }
      }
      const reply = await this.handled(handler, ctx);
      if (req.method !== 'GET') ctx.afterWrite();
      const res: ServiceResponse = { status: reply.status ?? 200, body: reply.body, headers: reply.headers ?? {}, allow: await ctx.allowedMethods() };
      if (reply.raw) res.raw = reply.raw;
      return res;
    } catch (e) {
      if (e instanceof RestError) return errorResponse(e, await ctx.allowedMethods().catch(() => []));
      const down = unavailableFor(e);
      if (down) {
        logger.warn({ err: e, endpoint: req.endpoint, requestId: req.requestId }, 'a backing service is unavailable');
        return errorResponse(down, []);
      }
      logger.error({ err: e, endpoint: req.endpoint, requestId: req.requestId }, 'handler failed');
      return errorResponse(errors.internal(), []);
    }
  };
}

export function errorResponse(err: RestError, allow: Method[]): ServiceResponse {
  return { status: err.status, body: err.toJSON(), headers: {}, allow };
}
