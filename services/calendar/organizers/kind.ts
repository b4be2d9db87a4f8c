/** Organizers: who runs events. */
import { ORGANIZER_FIELDS } from '#libs/calendar/fields';
import { ORGANIZER_TYPE } from '#libs/calendar/meta';
import type { LinkedKindDef } from '../linked/kind';

export const ORGANIZER: LinkedKindDef = {
  key: 'organizer',
  plural: 'organizers',
  type: ORGANIZER_TYPE,
  cap: 'vendor_organizer',
  fields: ORGANIZER_FIELDS,
  eventField: 'organizers',
};
