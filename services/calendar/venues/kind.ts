/** Venues: where events happen. */
import { VENUE_FIELDS } from '#libs/calendar/fields';
import { VENUE_META, VENUE_TYPE } from '#libs/calendar/meta';
import type { LinkedKindDef } from '../linked/kind';

export const VENUE: LinkedKindDef = {
  key: 'venue',
  plural: 'venues',
  type: VENUE_TYPE,
  cap: 'vendor_venue',
  fields: VENUE_FIELDS,
  eventField: 'venues',
  // The reference's venue save fills the combined field when a create leaves it empty: the state for a
  // venue in the United States (or without a country), else the province. It shows in the create's
  // answer only: the venue read back has no stateprovince unless one was written.
  derivedMeta(input) {
    const given = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    if (given(input.stateprovince)) return {};
    const country = given(input.country);
    if (given(input.state) && (!country || country === 'US' || country === 'United States')) return { [VENUE_META.stateprovince]: given(input.state) };
    if (given(input.province)) return { [VENUE_META.stateprovince]: given(input.province) };
    return {};
  },
};
