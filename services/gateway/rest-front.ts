/**
 * The REST front: a REST request (`/index.php/cms-json/...` or `?rest_route=`) from Node's request to
 * Node's response, one step after another: its id; its JSONP callback; its body within the limit; its
 * caller; the kept site index; its body's buckets; the REST pipeline (RestServer.handle); the answer with
 * the reference's headers (./middleware/write-rest); its log line and metrics. A refusal on the way (a bad
 * callback, 413, 401, 429) is answered as a guest's, and what escapes is the error envelope, never a bare
 * 500. Koa serves only the site's pages: a REST request needs none of its context, and skipping it and a
 * middleware chain saves work on every request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '#libs/auth/authenticate';
import type { AuthUser } from '#libs/auth/user';
import { headerOf } from '#libs/http/headers';
import { readBody } from '#libs/http/read-body';
import { RestError } from '#libs/rest/errors';
import type { RouteRegistry } from '#libs/rest/registry';
import type { RestInput, RestOutput, RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { isMultipart, parseMultipart } from './uploads';
import { clientAddress } from './client-ip';
import { parseBody } from './middleware/parse-body';
import { failure, requestDone, requestIdOf } from './middleware/request-log';
import { restAnswer, sendAnswer, type Answer, type Asked } from './middleware/write-rest';

export interface RestFrontOptions {
  rest: RestServer;
  auth: Authenticator;
  site: Site;
  maxBodyBytes: number;
  /** Reverse proxies in front whose X-Forwarded-For entries are trusted (TRUST_PROXY_HOPS). */
  trustProxyHops: number;
}

/** A REST request as the front found it: its URL path, query string and arguments, and its route path. */
export interface RestTarget {
  urlPath: string;
  querystring: string;
  query: Record<string, unknown>;
  /** The route path relative to the REST root. */
  routePath: string;
}

/** What the request's log line and metrics learn on the way. */
interface Progress {
  route: string | undefined;
  user: AuthUser | null;
}

/** Which site index a request asks for: a plain GET or HEAD of `/` with at most a `context`; undefined for anything else. */
function indexContext(input: RestInput, pretty: boolean): 'help' | 'view' | undefined {
  const { path, query, method } = input;
  const plain = path === '/' && !pretty && (method === 'GET' || method === 'HEAD');
  if (!plain || !Object.keys(query).every((k) => k === 'context' && typeof query.context === 'string')) return undefined;
  return query.context === 'help' ? 'help' : 'view';
}

/**
 * The site index (`GET /`) kept as JSON text. It is built from the route table (as the reference's
 * get_index), which differs between callers only by the routes that exist for some callers alone
 * (RouteDecl.shownTo: a post type shown in REST to managers): serialised once per context and audience
 * (RouteRegistry.audienceKey, with its headers), and built again when the site revision moves (a
 * settings change: name, time zone, ...). It differs by context only for context=help (each route's
 * schema); any other context is view's.
 */
class KeptIndex {
  private readonly kept = new Map<string, { body: Buffer; headers: Record<string, string>; revision: number | undefined }>();

  constructor(
    private readonly site: Site,
    private readonly registry: RouteRegistry,
  ) {}

  key(context: 'help' | 'view', user: AuthUser | null): string {
    return `${context}:${this.registry.audienceKey(user)}`;
  }

  /** The index kept under `key`, while the settings are unchanged. */
  get(key: string): { body: Buffer; headers: Record<string, string> } | undefined {
    const hit = this.kept.get(key);
    return hit && hit.revision === this.site.revision ? hit : undefined;
  }

  /** Keeps the pipeline's answer, built under the settings `revision` (read before it ran). */
  keep(key: string, revision: number | undefined, out: RestOutput): void {
    if (out.status === 200) this.kept.set(key, { body: Buffer.from(JSON.stringify(out.body)), headers: out.headers, revision });
  }
}

/** Makes the front's handler: it answers one REST request on Node's response and never rejects. */
export function restFront(opts: RestFrontOptions): (req: IncomingMessage, res: ServerResponse, target: RestTarget) => Promise<void> {
  const { rest, auth, site, maxBodyBytes, trustProxyHops } = opts;
  const index = new KeptIndex(site, rest.registry);

  /** The steps, to the answer (a refusal on the way is one); what they learn for the log line goes into `p`. */
  async function run(req: IncomingMessage, target: RestTarget, requestId: string, asked: Asked, p: Progress): Promise<Answer> {
    const { query } = target;
    const pretty = query._pretty !== undefined;
    const refuse = (status: number, body: unknown): Answer => restAnswer(asked, site, { status, headers: {}, body }, { loggedIn: false, pretty });
    // Labelled with its route before anything is read, so a refusal (400, 413, 401, 429) is counted under it too.
    const matched = rest.matchPath(target.routePath);
    p.route = matched.match?.route.pattern;
    // `_jsonp=cb` answers `/**/cb(...)` as JavaScript; a callback that is not a word-and-dot name is
    // refused before anything else runs (wp_check_jsonp_callback), with the envelope's bare form.
    const jsonp = query._jsonp;
    if (jsonp !== undefined && (typeof jsonp !== 'string' || /[^\w.]/.test(jsonp))) {
      return refuse(400, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
    }
    const ip = clientAddress(req, trustProxyHops);
    const input: RestInput = {
      method: asked.method,
      path: target.routePath,
      query,
      bodyType: 'none',
      headers: req.headers,
      user: null,
      requestId,
      ip,
      matched,
    };
    let raw: Buffer;
    try {
      raw = await readBody(req, maxBodyBytes);
      input.user = p.user = await auth.authenticate(headerOf(req.headers, 'authorization') || undefined, ip);
    } catch (e) {
      // 413 for a body beyond the limit; 401 or 429 for a refused or throttled login (Retry-After from its data.retry_after).
      if (e instanceof RestError) return refuse(e.status, e.toJSON());
      throw e;
    }
    const written = { loggedIn: !!p.user, pretty, ...(typeof jsonp === 'string' ? { jsonp } : {}) };

    const context = indexContext(input, pretty);
    const indexKey = context === undefined ? undefined : index.key(context, p.user);
    const kept = indexKey === undefined ? undefined : index.get(indexKey);
    if (kept) {
      p.route = '/';
      return restAnswer(asked, site, { status: 200, headers: kept.headers, body: null }, { ...written, cached: kept.body });
    }

    const revision = site.revision;
    await readBuckets(req, raw, input);
    const out = await rest.handle(input);
    if (indexKey !== undefined) index.keep(indexKey, revision, out);
    p.route = out.route ?? p.route;
    return restAnswer(asked, site, out, written);
  }

  return async (req, res, target) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    const method = req.method ?? 'GET';
    const asked: Asked = { method, querystring: target.querystring, headers: req.headers };
    const p: Progress = { route: undefined, user: null };
    let answer: Answer;
    try {
      answer = await run(req, target, requestId, asked, p);
    } catch (e) {
      const f = failure(e, requestId);
      answer = {
        status: f.err.status,
        headers: [...Object.entries(f.headers), ['Content-Type', 'application/json; charset=UTF-8']],
        body: f.body,
        errorCode: f.err.code,
      };
    }
    answer.headers.unshift(['X-Request-Id', requestId]);
    if (!res.headersSent) sendAnswer(req, res, answer);
    requestDone({
      requestId,
      method,
      path: target.urlPath,
      route: p.route,
      status: answer.status,
      code: answer.errorCode,
      userId: p.user?.id,
      started,
    });
  };
}

/**
 * Splits the body into the reference's buckets: JSON (only for a JSON content type, decoded as PHP's
 * json_decode does), form fields (urlencoded or multipart), multipart files, or a raw upload (any other
 * content type), which only endpoints that take uploads receive.
 */
async function readBuckets(req: IncomingMessage, raw: Buffer, input: RestInput): Promise<void> {
  const contentType = headerOf(req.headers, 'content-type');
  Object.assign(input, parseBody(raw, contentType));
  const md5 = headerOf(req.headers, 'content-md5') || undefined;
  if (raw.length && isMultipart(contentType)) {
    // Form fields become body parameters, files travel to the endpoints that take uploads.
    const multi = await parseMultipart(raw, contentType);
    if (multi) {
      input.bodyType = 'form';
      input.body = multi.fields;
      if (Object.keys(multi.files).length) input.upload = { files: multi.files, md5 };
    }
  } else if (raw.length && input.bodyType === 'none' && input.jsonError === undefined) {
    input.upload = { raw, contentType, disposition: headerOf(req.headers, 'content-disposition') || undefined, md5 };
  }
}
