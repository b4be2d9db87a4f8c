/** What differs between venues and organizers, the two kinds of record an event links to. */
import type { CapabilityType } from '../../../libs/auth/roles';

export interface LinkedKindDef {
  /** The record's name field and the error-code prefix: `venue`, `organizer`. */
  key: 'venue' | 'organizer';
  plural: 'venues' | 'organizers';
  /** Post type of the records. */
  type: string;
  cap: CapabilityType;
  /** Write argument → meta key it is stored under. */
  metaArgs: Record<string, string>;
  /** Boolean write arguments → meta key (venues' show_map, show_map_link). */
  flagArgs: Record<string, string>;
  /** Meta keys the archive's search looks into, besides title, description and excerpt. */
  searchMeta: string[];
  /** The event index field and meta key that hold links to this kind. */
  eventField: 'venues' | 'organizers';
  /**
   * Meta the reference's save derives from a create's own values for its answer (venues fill the
   * combined state/province); the record read back later does not carry it.
   */
  derivedMeta?(input: Record<string, unknown>): Record<string, unknown>;
}
