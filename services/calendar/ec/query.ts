/**
 * The ec/v1 list queries. Statuses: the requested list (default `[publish]`), forced to `publish` for a
 * caller without the type's edit capability, then narrowed in the query to what the caller may read
 * (others' drafts need edit_others, private ones read_private; a caller's own are theirs), so the
 * counts and pages only hold readable records. Every condition lands on an indexed field (type and
 * status, event_start/event_end, featured, parent, the term, venue and organizer side tables).
 */
import { DateTime } from 'luxon';
import { strtotime } from '#libs/calendar/strtotime';
import type { Caller } from '#libs/auth/user';
import { eventFilterValues } from '#libs/calendar/event-filters';
import { EVENT_TYPE } from '#libs/calendar/meta';
import type { ParamError } from '#libs/rest/errors';
import type { InputOf, Shared } from '#libs/rest/params';
import type { EC_ENDPOINTS } from '#libs/routes/ec/index';
import type { Filter, SortSpec } from '#libs/store/types';
import { readableStatuses } from '../access';
import type { CalendarDeps } from '../deps';
import { allOfType, eventFilter, searchFilter, type EventCriteria } from '../event-query';
import { INVALID, paramFailure } from '../errors';
import { idsWithEvents, idsWithUpcoming } from '../linked/handlers';
import { ORGANIZER } from '../organizers/kind';
import { VENUE } from '../venues/kind';
import type { EcKind } from './kinds';

/** The arguments of ec/v1's event list, and those of its venue and organizer lists. */
export type EventListInput = InputOf<typeof EC_ENDPOINTS.events.list>;
export type LinkedListInput = InputOf<Shared<typeof EC_ENDPOINTS.venues.list | typeof EC_ENDPOINTS.organizers.list>>;

export interface ListRequest<P> {
  params: P;
  /** Whether the request carried the argument (defaults are not "given"). */
  has(name: string): boolean;
  user: Caller;
}

/** A list query, or `null` when nothing can match (the page is empty without asking the store). */
export type ListQuery = { filter: Filter; sort: SortSpec } | null;

/** A date filter as the reference reads it (strtotime, in the site's zone when the text has no offset). */
function siteTime(value: unknown, zone: string): DateTime {
  const read = strtotime(value, { zone });
  if (read) return read.setZone(zone);
  const text = String(value)
    .trim()
    .replace(/^(\d{4}-\d{2}-\d{2})[ t]/, '$1T');
  return DateTime.fromISO(text, { zone, setZone: false }).setZone(zone);
}

const ORDER_FIELDS: Record<string, string> = { date: 'date', event_date: 'event_start', title: 'title', menu_order: 'menu_order', modified: 'modified_gmt' };

/** The event list's query; throws the reference's 400 for venue and organizer ids that name no such record. */
export async function eventListQuery(deps: CalendarDeps, kind: EcKind, req: ListRequest<EventListInput>): Promise<ListQuery> {
  const p = req.params;
  const failures: Array<[string, ParamError | string]> = [];
  const venues = (req.has('venue') && p.venue) || [];
  const organizers = (req.has('organizer') && p.organizer) || [];
  if (venues.length && !(await allOfType(deps, venues, VENUE.type))) failures.push(['venue', INVALID]);
  if (organizers.length && !(await allOfType(deps, organizers, ORGANIZER.type))) failures.push(['organizer', INVALID]);
  const failure = paramFailure(failures);
  if (failure) throw failure;

  const status = readableStatuses(req.user, kind.cap, p.status);
  // No event has tickets in this edition: asking for ticketed ones finds none.
  if (req.has('ticketed') && p.ticketed === true) return null;
  const zone = deps.site.timezone;
  const at = (arg: 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after') =>
    req.has(arg) ? siteTime(p[arg], zone) : undefined;
  const criteria: EventCriteria = {
    status,
    startsFrom: at('start_date')?.startOf('day').toJSDate(),
    endsBy: at('end_date')?.endOf('day').set({ millisecond: 0 }).toJSDate(),
    startsBefore: at('starts_before')?.toJSDate(),
    startsAfter: at('starts_after')?.toJSDate(),
    endsBefore: at('ends_before')?.toJSDate(),
    endsAfter: at('ends_after')?.toJSDate(),
    search: req.has('search') ? { text: String(p.search), user: req.user } : undefined,
    termGroups: [(req.has('categories') && p.categories) || [], (req.has('tags') && p.tags) || []],
    venues,
    organizers,
    filters: eventFilterValues('ec', p, (name) => req.has(name)),
    parent: (req.has('post_parent') && p.post_parent) || undefined,
  };
  const direction = p.order === 'DESC' ? -1 : 1;
  // One sort key, so the store walks an index; ties keep insertion (id) order.
  return { filter: eventFilter(criteria), sort: [[ORDER_FIELDS[p.orderby] ?? 'event_start', direction]] };
}

/** The organizer and venue lists' query; an `event` that names no event is the reference's 400. */
export async function linkedListQuery(deps: CalendarDeps, kind: EcKind, req: ListRequest<LinkedListInput>): Promise<ListQuery> {
  const p = req.params;
  const linked = kind.linked!;
  let ofEvent: number[] | null = null;
  if (req.has('event')) {
    const event = p.event ? await deps.posts.byId(p.event) : null;
    const failure = paramFailure(event?.type === EVENT_TYPE ? [] : [['event', INVALID]]);
    if (failure) throw failure;
    ofEvent = event![linked.eventField] ?? [];
  }
  const status = readableStatuses(req.user, kind.cap, p.status);
  const and: Filter[] = [{ type: kind.type }, status];
  if (ofEvent) and.push({ id: { $in: ofEvent } });
  if (req.has('search')) and.push(...searchFilter(p.search, req.user));
  if (req.has('has_events')) {
    const ids = await idsWithEvents(deps, linked);
    and.push({ id: p.has_events === true ? { $in: ids } : { $nin: ids } });
  }
  if (p.only_with_upcoming === true) and.push({ id: { $in: await idsWithUpcoming(deps, linked, req.user) } });
  return {
    filter: { $and: and },
    sort: [
      ['date', -1],
      ['id', -1],
    ],
  };
}
