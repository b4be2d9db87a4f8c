/** What differs between venues and organizers, the two kinds of record an event links to. */
import type { CapabilityType } from '#libs/auth/roles';
import type { LinkedFields } from '#libs/calendar/fields';

export interface LinkedKindDef {
  /** The record's name field and the error-code prefix: `venue`, `organizer`. */
  key: 'venue' | 'organizer';
  plural: 'venues' | 'organizers';
  /** Post type of the records. */
  type: string;
  cap: CapabilityType;
  /** The kind's own fields: names, meta keys, types (libs/calendar/fields.ts). */
  fields: LinkedFields;
  /** The event index field and meta key that hold links to this kind. */
  eventField: 'venues' | 'organizers';
  /**
   * Meta the reference's save derives from a create's own values for its answer (venues fill the
   * combined state/province); the record read back later does not carry it.
   */
  derivedMeta?(input: Record<string, unknown>): Record<string, unknown>;
}
