/**
 * Every route of ec/v1 (the reference's tec/v1): events, organizers and venues, each a collection
 * (GET, POST) and an item (GET, PUT/PATCH, DELETE: updates never use POST here, so POST on an item is
 * rest_no_route), and the OpenAPI document. The endpoints are constants the calendar service binds to.
 */
import { endpoint, resourceEndpoints, type ArgMap } from '../../rest/params';
import type { RouteRegistry } from '../../rest/registry';
import { BASE, ID, NS, eventListArgs, eventWriteArgs, forceArg, idArg, linkedListArgs, organizerWriteArgs, passwordArg, venueWriteArgs } from './args';
import { ecEventSchema, ecOrganizerSchema, ecVenueSchema } from './schemas';

type Plural = 'events' | 'organizers' | 'venues';

/** A resource's five endpoints: list and create on the collection, get, update and delete on an item. */
function ecEndpoints<L extends ArgMap, W extends ArgMap>(plural: Plural, what: string, list: L, write: W) {
  const item = { id: idArg(what) };
  return resourceEndpoints(
    `ec.${plural}`,
    'calendar',
    { list, create: write, get: { ...item, password: passwordArg() }, update: { ...item, ...write }, delete: { ...item, force: forceArg() } },
    ['PUT', 'PATCH'],
  );
}

export const EC_ENDPOINTS = {
  events: ecEndpoints('events', 'event', eventListArgs(), eventWriteArgs()),
  organizers: ecEndpoints('organizers', 'organizer', linkedListArgs('organizers'), organizerWriteArgs()),
  venues: ecEndpoints('venues', 'venue', linkedListArgs('venues'), venueWriteArgs()),
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
