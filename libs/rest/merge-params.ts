/**
 * A request's arguments as one map: body, query and URL captures merged in the reference's order, the
 * endpoint's defaults filled in.
 */
import type { EndpointDecl } from './registry';

/** Query parameters that steer the server itself and are never an endpoint's argument. */
const GLOBAL_PARAMS = new Set(['_method', '_envelope', '_fields', '_embed', '_pretty', '_jsonp', '_wpnonce', 'rest_route']);

/** What merging reads of a request. */
export interface MergeInput {
  method: string;
  query: Record<string, unknown>;
  body?: unknown;
  bodyType: 'json' | 'form' | 'none';
}

/** A default as a fresh value: an array or object is copied (a handler may change its own), a string or number is itself (structuredClone of a scalar costs a serialisation per argument per request). */
export function defaultOf<T>(value: T): T {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Each endpoint's arguments that have a default, with it, in declaration order (read once per endpoint, not per request). */
const DEFAULTS = new WeakMap<EndpointDecl, ReadonlyArray<readonly [string, unknown]>>();

function defaultsOf(endpoint: EndpointDecl): ReadonlyArray<readonly [string, unknown]> {
  let found = DEFAULTS.get(endpoint);
  if (!found) {
    found = Object.entries(endpoint.args).flatMap(([name, decl]) => (decl.default !== undefined ? [[name, decl.default] as const] : []));
    DEFAULTS.set(endpoint, found);
  }
  return found;
}

/**
 * The parameter sources merged as the reference does (JSON or form body, query, URL captures: the
 * first that has a value wins), with the endpoint's defaults for what is unset; `order` is the order
 * arguments are validated in.
 */
export function mergeParams(endpoint: EndpointDecl, input: MergeInput, urlParams: Record<string, string>) {
  const body: Record<string, unknown> = input.bodyType !== 'none' && input.method !== 'GET' && input.method !== 'HEAD' && isObj(input.body) ? input.body : {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input.query)) if (!GLOBAL_PARAMS.has(k)) query[k] = v;
  const merged: Record<string, unknown> = {};
  const order: string[] = [];
  const buckets: Array<Record<string, unknown>> = [body, query, urlParams];
  for (const bucket of buckets) {
    for (const [k, v] of Object.entries(bucket)) {
      if (!(k in merged)) {
        merged[k] = v;
        order.push(k);
      } else if (merged[k] === null && v !== null && v !== undefined) {
        // A null reads as unset (the reference's isset): the next source that has a value gives it,
        // so a JSON `"id": null` does not hide the URL's id. `has` still sees the null was sent.
        merged[k] = v;
      }
    }
  }
  for (const [name, value] of defaultsOf(endpoint)) {
    // A JSON null reads as "not set", so the default applies to it too.
    if (merged[name] === undefined || merged[name] === null) {
      merged[name] = defaultOf(value);
      if (!order.includes(name)) order.push(name);
    }
  }
  return { merged, order, query, body };
}
