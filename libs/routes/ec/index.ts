/**
 * Every route of ec/v1 (the reference's tec/v1): events, organizers and venues, each a collection
 * (GET, POST) and an item (GET, PUT/PATCH, DELETE: updates never use POST here, so POST on an item is
 * rest_no_route), and the OpenAPI document. The endpoints are constants the calendar service binds to.
 */
import { endpoint, type ArgMap } from '../../rest/params';
import { DELETABLE, type RouteRegistry } from '../../rest/registry';
import { BASE, ID, NS, eventListArgs, eventWriteArgs, forceArg, idArg, linkedListArgs, organizerWriteArgs, passwordArg, venueWriteArgs } from './args';
import { ecEventSchema, ecOrganizerSchema, ecVenueSchema } from './schemas';

type Plural = 'events' | 'organizers' | 'venues';

/** A resource's five endpoints: list and create on the collection, get, update and delete on an item. */
function resourceEndpoints<L extends ArgMap, W extends ArgMap>(plural: Plural, what: string, list: L, write: W) {
  const p = `ec.${plural}`;
  const item = { id: idArg(what) };
  return {
    list: endpoint({ id: `${p}.list`, service: 'calendar', methods: ['GET'], args: list }),
    create: endpoint({ id: `${p}.create`, service: 'calendar', methods: ['POST'], args: write }),
    get: endpoint({ id: `${p}.get`, service: 'calendar', methods: ['GET'], args: { ...item, password: passwordArg() }, captures: ['id'] }),
    update: endpoint({ id: `${p}.update`, service: 'calendar', methods: ['PUT', 'PATCH'], args: { ...item, ...write }, captures: ['id'] }),
    delete: endpoint({ id: `${p}.delete`, service: 'calendar', methods: DELETABLE, args: { ...item, force: forceArg() }, captures: ['id'] }),
  };
}

export const EC_ENDPOINTS = {
  events: resourceEndpoints('events', 'event', eventListArgs(), eventWriteArgs()),
  organizers: resourceEndpoints('organizers', 'organizer', linkedListArgs('organizers'), organizerWriteArgs()),
  venues: resourceEndpoints('venues', 'venue', linkedListArgs('venues'), venueWriteArgs()),
};

export const EC_DOCS_ENDPOINT = endpoint({ id: 'ec.docs', service: 'calendar', methods: ['GET'], args: {} });

const SCHEMAS: Record<Plural, () => Record<string, unknown>> = { events: ecEventSchema, organizers: ecOrganizerSchema, venues: ecVenueSchema };

export function registerEcRoutes(registry: RouteRegistry): void {
  for (const plural of ['events', 'organizers', 'venues'] as const) {
    const eps = EC_ENDPOINTS[plural];
    registry.add({ namespace: NS, pattern: `${BASE}/${plural}`, schema: SCHEMAS[plural], endpoints: [eps.list, eps.create] });
    registry.add({ namespace: NS, pattern: `${BASE}/${plural}/${ID}`, schema: SCHEMAS[plural], endpoints: [eps.get, eps.update, eps.delete] });
  }
  registry.add({ namespace: NS, pattern: `${BASE}/docs`, endpoints: [EC_DOCS_ENDPOINT] });
}
