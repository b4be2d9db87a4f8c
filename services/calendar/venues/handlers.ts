/** vendor/events/v1 venues. */
import type { ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { bindLinked } from '../linked/handlers';
import { VENUE } from './kind';

export function bindVenues(app: ServiceApp, deps: CalendarDeps): void {
  bindLinked(app, deps, VENUE);
}
