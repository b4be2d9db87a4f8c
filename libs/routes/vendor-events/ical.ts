/**
 * iCalendar (`text/calendar`) exports of vendor/events/v1: the event archive with the archive's own
 * filters, one event, and a venue's or an organizer's events. The reference has no such REST routes (it
 * serves iCalendar on its front-end pages), so they are left out of the site and namespace indexes and
 * of the namespace's OpenAPI document: those stay the reference's. The endpoints are constants the
 * calendar service binds to.
 */
import { endpoint } from '../../rest/params';
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { BASE, ID, NS } from './args';
import { archiveArgs } from './events';

/** The archive's filters (no paging: an export holds every matching event, up to its cap). */
export function icalFilterArgs() {
  const { page: _page, per_page: _perPage, ...filters } = archiveArgs();
  return filters;
}

const id = (what: string) => ({ description: `The ${what} ID`, type: 'integer' }) satisfies ArgDecl;

const { venue: _venue, ...venueFilters } = icalFilterArgs();
const { organizer: _organizer, ...organizerFilters } = icalFilterArgs();

/** The exports: the archive's, one event's, and a venue's or an organizer's events (their own filter left out). */
export const VENDOR_ICAL_ENDPOINTS = {
  events: endpoint({ id: 'vendor.events.ical', service: 'calendar', methods: ['GET'], args: icalFilterArgs() }),
  event: endpoint({
    id: 'vendor.events.ical.single',
    service: 'calendar',
    methods: ['GET'],
    args: { id: id('event'), password: { description: 'The event password', type: 'string' } },
    captures: ['id'],
  }),
  venue: endpoint({ id: 'vendor.venues.ical', service: 'calendar', methods: ['GET'], args: { id: id('venue'), ...venueFilters }, captures: ['id'] }),
  organizer: endpoint({
    id: 'vendor.organizers.ical',
    service: 'calendar',
    methods: ['GET'],
    args: { id: id('organizer'), ...organizerFilters },
    captures: ['id'],
  }),
};

export function registerICalRoutes(registry: RouteRegistry): void {
  const eps = VENDOR_ICAL_ENDPOINTS;
  registry.add({ namespace: NS, pattern: `${BASE}/events/ical`, hidden: true, endpoints: [eps.events] });
  registry.add({ namespace: NS, pattern: `${BASE}/events/${ID}/ical`, hidden: true, endpoints: [eps.event] });
  for (const kind of ['venue', 'organizer'] as const) {
    registry.add({ namespace: NS, pattern: `${BASE}/${kind}s/${ID}/ical`, hidden: true, endpoints: [eps[kind]] });
  }
}
