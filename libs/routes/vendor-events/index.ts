/**
 * Every route of vendor/events/v1, in the reference's order: the OpenAPI document, events, venues,
 * organizers, categories, tags; then the iCalendar exports, which the indexes leave out. The endpoints
 * are constants the calendar service binds to (declared beside their routes).
 */
import { endpoint } from '../../rest/params';
import type { RouteRegistry } from '../../rest/registry';
import { BASE, NS } from './args';
import { registerEventRoutes } from './events';
import { registerICalRoutes } from './ical';
import { registerOrganizerRoutes, registerVenueRoutes } from './linked';
import { registerTermRoutes } from './terms';

export { VENDOR_EVENT_ENDPOINTS } from './events';
export { VENDOR_ICAL_ENDPOINTS } from './ical';
export { VENDOR_LINKED_ENDPOINTS } from './linked';
export { VENDOR_TERM_ENDPOINTS } from './terms';

export const VENDOR_DOC_ENDPOINT = endpoint({ id: 'vendor.doc', service: 'calendar', methods: ['GET'], args: {} });

export function registerVendorEventsRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: NS, pattern: `${BASE}/doc`, endpoints: [VENDOR_DOC_ENDPOINT] });
  registerEventRoutes(registry);
  registerVenueRoutes(registry);
  registerOrganizerRoutes(registry);
  registerTermRoutes(registry);
  registerICalRoutes(registry);
}
