/**
 * The one event query of the calendar. Each API maps its arguments onto EventCriteria in its own
 * dialect (vendor/events/v1's archive in events/archive.ts, with the reference's day rounding and
 * default window; ec/v1's list in ec/query.ts; the calendar views through the archive), and the store
 * filter is made here, so what a condition means, and that it lands on an indexed field, is decided in
 * one place: type, status, hide_from_listings and event_start/event_end share one compound index;
 * the simple filters (featured...) declare theirs in libs/calendar/event-filters.ts; terms, venues and organizers are array side tables; ids and parents use the id
 * and parent indexes.
 */
import type { Caller } from '#libs/auth/user';
import { eventFilterConditions, type EventFilterValues } from '#libs/calendar/event-filters';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { searchPrivacy } from '#libs/posts/search';
import type { Filter } from '#libs/store/types';
import type { CalendarDeps } from './deps';

export interface EventCriteria {
  /** The records the caller may list: statuses, narrowed to what the caller reads (services/calendar/access.ts `readableFilter`). */
  status: Filter;
  /** Leave out events hidden from listings (vendor/events/v1 and the views; ec/v1 lists them). */
  listedOnly?: boolean;
  /** Only these events. */
  ids?: number[];
  /** The date window: starting at or after `startsFrom`, ending at or before `endsBy`. */
  startsFrom?: Date;
  endsBy?: Date;
  /** The window takes every event that meets it instead: ending at or after `startsFrom`, starting at or before `endsBy`. */
  meets?: boolean;
  /** Strict bounds on either end. */
  startsBefore?: Date;
  startsAfter?: Date;
  endsBefore?: Date;
  endsAfter?: Date;
  /** Words each found in the title, content or excerpt, with the caller's search privacy. */
  search?: { text: string; user: Caller };
  /** Each group is one filter (categories, tags): the event carries one of its terms. */
  termGroups?: number[][];
  venues?: number[];
  /** The geoloc filters' venues (services/calendar/events/geoloc.ts): the event is linked to one of them; empty keeps none. */
  nearVenues?: number[];
  organizers?: number[];
  /** The simple filters' values (libs/calendar/event-filters.ts: each its condition and index). */
  filters?: EventFilterValues;
  parent?: number;
}

/** Words of a search, each to be found in the title, content or excerpt, and what the caller may find (the reference's search). */
export function searchFilter(text: unknown, user: Caller): Filter[] {
  const words: Filter[] = String(text)
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => ({ $or: [{ title: { $icontains: word } }, { content: { $icontains: word } }, { excerpt: { $icontains: word } }] }));
  const privacy = searchPrivacy(user);
  return privacy ? [...words, privacy] : words;
}

/** Every given id names a record of the type. */
export async function allOfType(deps: Pick<CalendarDeps, 'posts'>, ids: number[], type: string): Promise<boolean> {
  const found = await deps.posts.byIds(ids);
  return ids.every((id) => found.get(id)?.type === type);
}

/** The store filter of an event list. */
export function eventFilter(c: EventCriteria): Filter {
  const and: Filter[] = [{ type: EVENT_TYPE }, c.status];
  if (c.listedOnly) and.push({ hide_from_listings: false });
  if (c.ids) and.push({ id: { $in: c.ids } });
  if (c.startsFrom) and.push(c.meets ? { event_end: { $gte: c.startsFrom } } : { event_start: { $gte: c.startsFrom } });
  if (c.endsBy) and.push(c.meets ? { event_start: { $lte: c.endsBy } } : { event_end: { $lte: c.endsBy } });
  if (c.startsBefore) and.push({ event_start: { $lt: c.startsBefore } });
  if (c.startsAfter) and.push({ event_start: { $gt: c.startsAfter } });
  if (c.endsBefore) and.push({ event_end: { $lt: c.endsBefore } });
  if (c.endsAfter) and.push({ event_end: { $gt: c.endsAfter } });
  if (c.search) and.push(...searchFilter(c.search.text, c.search.user));
  for (const group of c.termGroups ?? []) if (group.length) and.push({ terms: { $in: group } });
  if (c.venues?.length) and.push({ venues: { $in: c.venues } });
  if (c.nearVenues) and.push(c.nearVenues.length ? { venues: { $in: c.nearVenues } } : { id: { $in: [] } });
  if (c.organizers?.length) and.push({ organizers: { $in: c.organizers } });
  and.push(...eventFilterConditions(c.filters));
  if (c.parent !== undefined) and.push({ parent: c.parent });
  return { $and: and };
}
