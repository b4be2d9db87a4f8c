/**
 * Every route of ec/v1 (the reference's tec/v1): events, organizers and venues, each a collection
 * (GET, POST) and an item (GET, PUT/PATCH, DELETE: updates never use POST here, so POST on an item is
 * rest_no_route), and the OpenAPI document.
 */
import { DELETABLE, type ArgDecl, type RouteRegistry } from '../../rest/registry';
import { BASE, ID, NS, eventListArgs, eventWriteArgs, forceArg, idArg, linkedListArgs, organizerWriteArgs, passwordArg, venueWriteArgs } from './args';
import { ecEventSchema, ecOrganizerSchema, ecVenueSchema } from './schemas';

interface Resource {
  plural: 'events' | 'organizers' | 'venues';
  what: string;
  list: () => Record<string, ArgDecl>;
  write: () => Record<string, ArgDecl>;
  schema: () => Record<string, unknown>;
}

const RESOURCES: Resource[] = [
  { plural: 'events', what: 'event', list: eventListArgs, write: eventWriteArgs, schema: ecEventSchema },
  { plural: 'organizers', what: 'organizer', list: () => linkedListArgs('organizers'), write: organizerWriteArgs, schema: ecOrganizerSchema },
  { plural: 'venues', what: 'venue', list: () => linkedListArgs('venues'), write: venueWriteArgs, schema: ecVenueSchema },
];

export function registerEcRoutes(registry: RouteRegistry): void {
  for (const r of RESOURCES) {
    const p = `ec.${r.plural}`;
    registry.add({
      namespace: NS,
      pattern: `${BASE}/${r.plural}`,
      schema: r.schema,
      endpoints: [
        { id: `${p}.list`, service: 'calendar', methods: ['GET'], args: r.list() },
        { id: `${p}.create`, service: 'calendar', methods: ['POST'], args: r.write() },
      ],
    });
    registry.add({
      namespace: NS,
      pattern: `${BASE}/${r.plural}/${ID}`,
      schema: r.schema,
      endpoints: [
        { id: `${p}.get`, service: 'calendar', methods: ['GET'], args: { id: idArg(r.what), password: passwordArg() } },
        { id: `${p}.update`, service: 'calendar', methods: ['PUT', 'PATCH'], args: { id: idArg(r.what), ...r.write() } },
        { id: `${p}.delete`, service: 'calendar', methods: DELETABLE, args: { id: idArg(r.what), force: forceArg() } },
      ],
    });
  }
  registry.add({
    namespace: NS,
    pattern: `${BASE}/docs`,
    endpoints: [{ id: 'ec.docs', service: 'calendar', methods: ['GET'], args: {} }],
  });
}
