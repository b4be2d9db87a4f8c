/** The three entity types of ec/v1 and what they are in the store: post type, capability type, linked-record kind. */
import type { CapabilityType } from '#libs/auth/roles';
import { EVENT_TYPE } from '#libs/calendar/meta';
import type { LinkedKindDef } from '../linked/kind';
import { ORGANIZER } from '../organizers/kind';
import { VENUE } from '../venues/kind';

export interface EcKind {
  /** The route segment and endpoint id part: `ec.events.list`. */
  plural: 'events' | 'organizers' | 'venues';
  /** Post type of the records. */
  type: string;
  cap: CapabilityType;
  /** Venues and organizers: their vendor/events/v1 definition (meta keys, event links), shared with it. */
  linked?: LinkedKindDef;
}

export const EC_EVENT: EcKind = { plural: 'events', type: EVENT_TYPE, cap: 'vendor_event' };
export const EC_ORGANIZER: EcKind = { plural: 'organizers', type: ORGANIZER.type, cap: ORGANIZER.cap, linked: ORGANIZER };
export const EC_VENUE: EcKind = { plural: 'venues', type: VENUE.type, cap: VENUE.cap, linked: VENUE };

export const EC_KINDS: EcKind[] = [EC_EVENT, EC_ORGANIZER, EC_VENUE];

/** The capability type a record of any post type is checked with (edit_post and delete_post map to it). */
export function capTypeOf(type: string): CapabilityType {
  const kind = EC_KINDS.find((k) => k.type === type);
  if (kind) return kind.cap;
  return type === 'page' ? 'page' : 'post';
}
