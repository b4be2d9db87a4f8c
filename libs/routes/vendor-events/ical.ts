/**
 * iCalendar (`text/calendar`) exports of vendor/events/v1: the event archive with the archive's own
 * filters, one event, and a venue's or an organizer's events. The reference has no such REST routes (it
 * serves iCalendar on its front-end pages), so they are left out of the site and namespace indexes and
 * of the namespace's OpenAPI document: those stay the reference's.
 */
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { BASE, ID, NS } from './args';
import { archiveArgs } from './events';

/** The archive's filters (no paging: an export holds every matching event, up to its cap). */
export function icalFilterArgs(without: string[] = []): Record<string, ArgDecl> {
  const args = archiveArgs();
  for (const name of ['page', 'per_page', ...without]) delete args[name];
  return args;
}

export function registerICalRoutes(registry: RouteRegistry): void {
  const id = (what: string): ArgDecl => ({ description: `The ${what} ID`, type: 'integer' });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/events/ical`,
    hidden: true,
    endpoints: [{ id: 'vendor.events.ical', service: 'calendar', methods: ['GET'], args: icalFilterArgs() }],
  });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/events/${ID}/ical`,
    hidden: true,
    endpoints: [
      {
        id: 'vendor.events.ical.single',
        service: 'calendar',
        methods: ['GET'],
        args: { id: id('event'), password: { description: 'The event password', type: 'string' } },
      },
    ],
  });
  for (const kind of ['venue', 'organizer'] as const) {
    registry.add({
      namespace: NS,
      pattern: `${BASE}/${kind}s/${ID}/ical`,
      hidden: true,
      endpoints: [{ id: `vendor.${kind}s.ical`, service: 'calendar', methods: ['GET'], args: { id: id(kind), ...icalFilterArgs([kind]) } }],
    });
  }
}
