/**
 * `GET ec/v1/docs`: the OpenAPI 3 document of ec/v1, from the calendar's one generator. Entities and
 * request bodies are components (`Event`, `Event_Request_Body`, ...); lists answer a bare array with
 * the paging headers; deletes answer `[]`; entity failures answer `{"error": "..."}`.
 */
import type { CompiledRoute, Method } from '#libs/rest/registry';
import { EC_COMPONENTS, ecComponent } from '#libs/routes/ec/schemas';
import { BASIC_AUTH, jsonContent, schemaRef, type DocProfile } from '../doc/openapi';

type Schema = Record<string, unknown>;

const ENTITY: Record<string, string> = { events: 'Event', organizers: 'Organizer', venues: 'Venue' };

const resourceOf = (route: CompiledRoute) => ENTITY[route.pattern.split('/')[3]];

/** Operation ids as the reference names them: getEvents, createEvent, getEvent, updateEvent, deleteEvent, getOpenApiDocs. */
function operationId(route: CompiledRoute, method: Method): string {
  const entity = resourceOf(route);
  if (!entity) return 'getOpenApiDocs';
  if (route.groups.length === 0) return method === 'GET' ? `get${entity}s` : `create${entity}`;
  const names: Partial<Record<Method, string>> = { GET: `get${entity}`, DELETE: `delete${entity}` };
  return names[method] ?? `update${entity}`;
}

const described = (description: string, component?: string): Schema =>
  component ? { description, content: jsonContent(schemaRef(component)) } : { description };

const PAGING_HEADERS = {
  'X-WP-Total': { description: 'The total number of items matching the request.', schema: { type: 'integer', minimum: 0 } },
  'X-WP-TotalPages': { description: 'The total number of pages for the request.', schema: { type: 'integer', minimum: 0 } },
  Link: {
    description: 'RFC 5988 Link header for pagination: rel="next" when a next page exists, rel="prev" on pages after the first.',
    schema: { type: 'string' },
  },
};

export const EC_DOC: DocProfile = {
  namespace: 'ec/v1',
  openapi: '3.0.4',
  info: {
    title: 'The Events Calendar REST API',
    version: '1.0.0',
    description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    contact: { name: 'The Events Calendar', email: 'support@theeventscalendar.com' },
  },
  // One tag per group of operations, by priority: the calendar's entities, then the shared document.
  tags: [
    { name: 'Events', description: 'These operations are introduced by The Events Calendar.' },
    { name: 'Common', description: 'These operations are introduced by the Common library.' },
  ],
  operationTags: (route) => [resourceOf(route) ? 'Events' : 'Common'],
  operationId,
  securitySchemes: BASIC_AUTH,
  components() {
    const schemas: Record<string, unknown> = Object.fromEntries(EC_COMPONENTS.map((n) => [n, ecComponent(n)]));
    schemas.Error = {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'integer' } } } },
    };
    schemas.Entity_Error = { type: 'object', properties: { error: { type: 'string' } } };
    return schemas;
  },
  success(route, method) {
    const entity = resourceOf(route);
    if (!entity) return ['200', { description: 'The OpenAPI document', content: jsonContent({ type: 'object' }) }];
    const item = route.groups.length > 0;
    if (!item && method === 'GET')
      return [
        '200',
        { description: `A page of ${route.pattern.split('/')[3]}`, headers: PAGING_HEADERS, content: jsonContent({ type: 'array', items: schemaRef(entity) }) },
      ];
    if (!item) return ['201', described(`The ${entity.toLowerCase()} created`, entity)];
    if (method === 'DELETE') return ['200', { description: 'Deleted or moved to the trash', content: jsonContent({ type: 'array', maxItems: 0, items: {} }) }];
    return ['200', described(`The ${entity.toLowerCase()}`, entity)];
  },
  errors(route, method) {
    if (!resourceOf(route)) return {};
    const item = route.groups.length > 0;
    const out: Record<string, Schema> = { '400': described('A parameter is missing or invalid', 'Error') };
    if (!item && method === 'GET') return { ...out, '404': described('The requested page was not found') };
    out['401'] = described('Not logged in', 'Error');
    out['403'] = described('Not allowed', 'Error');
    if (item && method !== 'GET') out['404'] = described('The entity is not of this type', 'Entity_Error');
    if (method === 'DELETE') out['410'] = described('The entity has already been trashed', 'Entity_Error');
    return out;
  },
  requestBody(route: CompiledRoute, method: Method) {
    const entity = resourceOf(route);
    if (!entity || method === 'GET' || method === 'DELETE') return undefined;
    return { required: true, content: jsonContent(schemaRef(`${entity}_Request_Body`)) };
  },
};
