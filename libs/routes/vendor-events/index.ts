/** Every route of vendor/events/v1, in the reference's order: the OpenAPI document, events, venues, organizers, categories, tags; then the iCalendar exports, which the indexes leave out. */
import type { RouteRegistry } from '../../rest/registry';
import { BASE, NS } from './args';
import { registerEventRoutes } from './events';
import { registerICalRoutes } from './ical';
import { registerOrganizerRoutes, registerVenueRoutes } from './linked';
import { registerTermRoutes } from './terms';

export function registerVendorEventsRoutes(registry: RouteRegistry): void {
  registry.add({
    namespace: NS,
    pattern: `${BASE}/doc`,
    endpoints: [{ id: 'vendor.doc', service: 'calendar', methods: ['GET'], args: {} }],
  });
  registerEventRoutes(registry);
  registerVenueRoutes(registry);
  registerOrganizerRoutes(registry);
  registerTermRoutes(registry);
  registerICalRoutes(registry);
}
