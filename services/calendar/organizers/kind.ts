/** Organizers: who runs events. */
import { ORGANIZER_META, ORGANIZER_TYPE } from '../../../libs/calendar/meta';
import type { LinkedKindDef } from '../linked/kind';

export const ORGANIZER: LinkedKindDef = {
  key: 'organizer',
  plural: 'organizers',
  type: ORGANIZER_TYPE,
  cap: 'vendor_organizer',
  metaArgs: { phone: ORGANIZER_META.phone, website: ORGANIZER_META.website, email: ORGANIZER_META.email },
  flagArgs: {},
  searchMeta: [ORGANIZER_META.phone, ORGANIZER_META.email, ORGANIZER_META.website],
  eventField: 'organizers',
};
