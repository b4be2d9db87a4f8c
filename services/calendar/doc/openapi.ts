/**
 * The calendar's OpenAPI 3 documents (`GET vendor/events/v1/doc`, `GET ec/v1/docs`), generated from the
 * route registry (paths, methods, parameters, request bodies) and each namespace's record schemas
 * (components), so a document never disagrees with what the gateway validates. One generator serves
 * both namespaces; a profile says what differs (version and info, components, how a success, an error
 * and a request body are described). Built once per process.
 */
import { isRecord } from '#libs/rest/args';
import { publishArg } from '#libs/rest/index-doc';
import type { ArgDecl, CompiledRoute, Method, RouteRegistry } from '#libs/rest/registry';
import { restUrl, type Site } from '#libs/rest/site';
import { COMPONENT_NAMES, component, type ComponentName } from '#libs/routes/vendor-events/schemas';

type Schema = Record<string, unknown>;

/** OpenAPI 3.0 has no type lists: `["a","b"]` becomes `anyOf`, with the list's keywords on the branch they belong to. */
export function toOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi);
  if (!isRecord(schema)) return schema;
  return schemaToOpenApi(schema);
}

/** toOpenApi of one schema object. */
function schemaToOpenApi(s: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties')
      out[k] = Object.fromEntries(Object.entries(typeof v === 'object' && v !== null ? v : {}).map(([p, ps]) => [p, toOpenApi(ps)]));
    else if (k === 'required' && !Array.isArray(v)) continue;
    else if (k === 'context' || k === 'readonly') continue;
    else out[k] = typeof v === 'object' ? toOpenApi(v) : v;
  }
  if (Array.isArray(out.type)) {
    const declared: unknown[] = out.type;
    const types = declared.filter((t) => t !== 'null').map(String);
    const nullable = types.length !== declared.length;
    const byType: Record<string, string[]> = {
      array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
      object: ['properties', 'additionalProperties', 'patternProperties'],
      string: ['format', 'pattern', 'minLength', 'maxLength', 'enum'],
    };
    const branches = types.map((t) => {
      const b: Schema = { type: t };
      for (const key of byType[t] ?? []) if (out[key] !== undefined) b[key] = out[key];
      return b;
    });
    for (const keys of Object.values(byType)) for (const key of keys) delete out[key];
    delete out.type;
    if (branches.length === 1) Object.assign(out, branches[0]);
    else out.anyOf = branches;
    if (nullable) out.nullable = true;
  }
  return out;
}

/** What differs between the documents of two namespaces. */
export interface DocProfile {
  namespace: string;
  openapi: string;
  info: Schema;
  /** Component schemas by name (JSON Schema; made OpenAPI 3.0 by the generator). */
  components(): Record<string, unknown>;
  /** The success status and response of an operation. */
  success(route: CompiledRoute, method: Method): [status: string, response: Schema];
  /** The error responses of an operation, by status. */
  errors(route: CompiledRoute, method: Method): Record<string, Schema>;
  /** A request body naming a component, instead of one listing the arguments. */
  requestBody?(route: CompiledRoute, method: Method): Schema | undefined;
  /** The document's tags (one per group of operations), and the tag names of an operation. */
  tags?: Array<{ name: string; description: string }>;
  operationTags?(route: CompiledRoute): string[];
  /** An operation's id, where the namespace names its operations itself. */
  operationId?(route: CompiledRoute, method: Method): string | undefined;
  /** `components.securitySchemes`, where the namespace documents how to authenticate. */
  securitySchemes?: Record<string, unknown>;
  /** The server URL, where it is not the namespace's REST URL. */
  serverUrl?(site: Site): string;
}

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** How a caller signs in: HTTP Basic with a user's login and one of that user's application passwords. */
export const BASIC_AUTH: Record<string, unknown> = {
  BasicAuth: {
    type: 'http',
    scheme: 'basic',
    description:
      "An application password: the user login as the user name and an application password of that user (created with POST cms/v2/users/{id}/application-passwords or on the site's authorize-application page) as the password.",
  },
};

/**
 * An operation's `security`: writes need a signed-in caller; reads answer anonymous callers (public
 * records) and signed-in ones (who may also see drafts and private records), so both are listed.
 */
function securityOf(profile: DocProfile, method: Method): Schema[] | undefined {
  const schemes = Object.keys(profile.securitySchemes ?? {}).map((name) => ({ [name]: [] }));
  if (!schemes.length) return undefined;
  return method === 'GET' ? [{}, ...schemes] : schemes;
}
export const jsonContent = (schema: Schema): Schema => ({ 'application/json': { schema } });

function argSchema(decl: ArgDecl): Schema {
  const published = publishArg(decl);
  delete published.required;
  // Arguments the reference validates by callback only have no type; their items say what they hold.
  if (published.type === undefined && published.items !== undefined) published.type = ['array', 'integer', 'string', 'object'];
  return schemaToOpenApi(published);
}

function operation(profile: DocProfile, route: CompiledRoute, method: Method, args: Record<string, ArgDecl>, id: string): Schema {
  const parameters: Schema[] = route.groups.map((g) => ({ name: g, in: 'path', required: true, schema: args[g] ? argSchema(args[g]) : { type: 'string' } }));
  const rest = Object.entries(args).filter(([name, decl]) => !route.groups.includes(name) && !decl.hidden);
  const op: Schema = {
    operationId: profile.operationId?.(route, method) ?? `${id}.${method.toLowerCase()}`,
    summary: id.replace(/^[a-z]+\./, '').replace(/\./g, ' '),
    ...(profile.operationTags ? { tags: profile.operationTags(route) } : {}),
  };
  if (method === 'GET' || method === 'DELETE') {
    for (const [name, decl] of rest)
      parameters.push({ name, in: 'query', required: decl.required === true, description: decl.description ?? '', schema: argSchema(decl) });
  } else {
    const named = profile.requestBody?.(route, method);
    if (named) op.requestBody = named;
    else if (rest.length) {
      const required = rest.filter(([, d]) => d.required === true).map(([n]) => n);
      const body = {
        type: 'object',
        properties: Object.fromEntries(rest.map(([n, d]) => [n, { description: d.description ?? '', ...argSchema(d) }])),
        ...(required.length ? { required } : {}),
      };
      op.requestBody = {
        required: required.length > 0,
        content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } },
      };
    }
  }
  if (parameters.length) op.parameters = parameters;
  const security = securityOf(profile, method);
  if (security) op.security = security;
  const [status, response] = profile.success(route, method);
  op.responses = { [status]: response, ...profile.errors(route, method) };
  return op;
}

/** OpenAPI paths are relative to the namespace root and name their parameters `{id}`. */
function openApiPath(route: CompiledRoute, namespace: string): string {
  return route.pattern.slice(namespace.length + 1).replace(/\(\?P<([A-Za-z_]+)>[^)]*\)/g, '{$1}') || '/';
}

export function openApiDocument(registry: RouteRegistry, site: Site, profile: DocProfile): Schema {
  const { namespace } = profile;
  const paths: Record<string, Schema> = {};
  for (const route of registry.all()) {
    if (route.hidden || route.namespace !== namespace || route.pattern === `/${namespace}`) continue;
    const item: Schema = {};
    for (const ep of route.endpoints) {
      for (const m of ep.methods) item[m.toLowerCase()] = operation(profile, route, m, ep.args, ep.id);
    }
    paths[openApiPath(route, namespace)] = item;
  }
  const schemas: Record<string, unknown> = Object.fromEntries(Object.entries(profile.components()).map(([n, c]) => [n, toOpenApi(c)]));
  const servers = [{ url: profile.serverUrl?.(site) ?? restUrl(site, `/${namespace}`) }];
  // Keys in the reference's order.
  return {
    openapi: profile.openapi,
    info: profile.info,
    ...(profile.tags ? { tags: profile.tags } : {}),
    components: { schemas, ...(profile.securitySchemes ? { securitySchemes: profile.securitySchemes } : {}) },
    servers,
    paths,
  };
}

// ---------------------------------------------------------------------------------------------
// vendor/events/v1

const COLLECTION_OF: Record<string, { component: ComponentName; key: string }> = {
  events: { component: 'Event', key: 'events' },
  venues: { component: 'Venue', key: 'venues' },
  organizers: { component: 'Organizer', key: 'organizers' },
  categories: { component: 'Term', key: 'categories' },
  tags: { component: 'Term', key: 'tags' },
};

const errorResponse = (description: string) => ({ description, content: jsonContent(schemaRef('Error')) });

export const VENDOR_EVENTS_DOC: DocProfile = {
  namespace: 'vendor/events/v1',
  openapi: '3.0.0',
  info: {
    version: '1.0.0',
    title: 'The Events Calendar REST API',
    description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
  },
  // The reference names the server by host and path, without the scheme, with the namespace's trailing slash.
  securitySchemes: BASIC_AUTH,
  serverUrl: (site) => `${new URL(site.home).hostname}${restUrl(site, '/vendor/events/v1/').split(site.home).join('')}`,
  components() {
    const schemas: Record<string, unknown> = Object.fromEntries(COMPONENT_NAMES.map((n) => [n, component(n)]));
    schemas.Error = {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'integer' } } } },
    };
    return schemas;
  },
  success(route, method) {
    const status = method === 'POST' && route.groups.length === 0 ? '201' : '200';
    const info = COLLECTION_OF[route.pattern.split('/')[4]];
    if (!info) return [status, { description: 'The OpenAPI document', content: jsonContent({ type: 'object' }) }];
    const record = schemaRef(info.component);
    if (route.groups.length === 0 && method === 'GET') {
      const envelope = {
        type: 'object',
        properties: {
          [info.key]: { type: 'array', items: record },
          rest_url: { type: 'string', format: 'uri' },
          next_rest_url: { type: 'string', format: 'uri' },
          previous_rest_url: { type: 'string', format: 'uri' },
          total: { type: 'integer' },
          total_pages: { type: 'integer' },
        },
      };
      return [status, { description: `A page of ${info.key}`, content: jsonContent(envelope) }];
    }
    return [
      status,
      { description: method === 'DELETE' ? 'The record after the deletion' : `The ${info.component.toLowerCase()}`, content: jsonContent(record) },
    ];
  },
  errors(route, method) {
    return {
      '400': errorResponse('Invalid or missing parameters'),
      ...(method !== 'GET' ? { '401': errorResponse('Authentication required'), '403': errorResponse('Not allowed') } : {}),
      ...(route.groups.length ? { '404': errorResponse('Not found') } : {}),
      ...(method === 'DELETE' ? { '410': errorResponse('Already in the trash') } : {}),
    };
  },
};
