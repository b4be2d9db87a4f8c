/** vendor/events/v1 organizers. */
import type { ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { bindLinked } from '../linked/handlers';
import { ORGANIZER } from './kind';

export function bindOrganizers(app: ServiceApp, deps: CalendarDeps): void {
  bindLinked(app, deps, ORGANIZER);
}
