/**
 * How the records of a batch are named: an event's, venue's or organizer's global id, its lineage and
 * the origin's unique id, as the keys a stored record answers to. Pure.
 */
import { UNIQUE_FIELDS, UNIQUE_LINKED_FIELDS, text, type EaEvent, type EaOrganizer, type EaVenue } from './items';

/** How a feed names a record: every key it answers to, and the one it is stored under (null: none). */
export interface Identity {
  keys: string[];
  primary: string | null;
}

/** An identity from a global id, its lineage and the origin's unique key (`u:<meta key>:<value>`), if any. */
export function identity(globalId: unknown, lineage: unknown, unique: string | null): Identity {
  const keys: string[] = [];
  const g = text(globalId);
  if (g) keys.push(`g:${g}`);
  if (Array.isArray(lineage)) for (const l of lineage) if (text(l) && !keys.includes(`g:${text(l)}`)) keys.push(`g:${text(l)}`);
  if (unique) keys.push(unique);
  return { keys, primary: g ? `g:${g}` : unique };
}

/** The origin's unique id of an event, as its meta key (`_uid`) and value, or null. */
export function uniqueIdOf(item: EaEvent, origin: string): { key: string; value: string } | null {
  const f = UNIQUE_FIELDS[origin];
  if (!f) return null;
  const v = text(item[f.source]);
  return v ? { key: `_${f.target}`, value: v } : null;
}

export function eventIdentity(item: EaEvent, origin: string): Identity {
  const u = uniqueIdOf(item, origin);
  return identity(item.global_id, item.global_id_lineage, u ? `u:${u.key}:${u.value}` : null);
}

/** The origin's unique id of a venue or organizer, as its meta key (`_VenueMeetupID`) and value, or null. */
export function linkedUniqueIdOf(entry: EaVenue | EaOrganizer, kind: 'Venue' | 'Organizer', origin: string): { key: string; value: string } | null {
  const f = UNIQUE_LINKED_FIELDS[origin];
  if (!f) return null;
  const v = text(entry[f.source]);
  return v ? { key: `_${kind}${f.target}`, value: v } : null;
}
