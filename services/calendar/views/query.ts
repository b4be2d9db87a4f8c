/**
 * The events a view shows, read through the event archive's query (services/calendar/events/archive)
 * as a visitor reads it, so a view lists what the public archive would: published, not hidden from
 * listings, with the same search and category rules, whoever asks. Password-protected events are left
 * out as well: a calendar page shows its events' details, which such an event keeps for its readers.
 * A view only chooses the window, the order and the page. In the extended edition a view may also be
 * searched near a place: the archive's geofence filter keeps the events of venues around its point, and
 * the page says how far each one is.
 */
import type { DateTime } from 'luxon';
import { mysqlOf } from '#libs/dates/format';
import type { PostDoc } from '#libs/posts/types';
import type { SortSpec } from '#libs/store/types';
import type { LatLng } from '#libs/calendar/geo';
import { ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import type { CalendarDeps } from '../deps';
import { archiveQuery, type ArchiveParams } from '../events/archive';
import type { LinkedIds } from './bar';
import type { ViewContext } from './context';

/** Events per page of the list (the reference's postsPerPage option default). */
export const LIST_PER_PAGE = 12;
/** Most events a month or day view reads: a calendar page, not an export. */
export const MAX_EVENTS_PER_VIEW = 1000;

export interface EventPage {
  items: PostDoc[];
  total: number;
  /** A filter named a category, tag, venue or organizer that does not exist (or is not public). */
  unknown?: boolean;
  /** The ids of the venue and organizer the filters name, and the point a location search resolved to. */
  linked?: LinkedIds;
  /** Searched near a place: each kept venue's distance from its point, in kilometres. */
  nearest?: Map<number, number>;
  /** The place searched near could not be located (or not now: `busy`): no events are shown. */
  placeUnknown?: boolean | 'busy';
}

/** The point a view is searched near: the one the request gave, else the geocoded place; null or `busy` when it has a place but no point. */
async function nearPoint(deps: CalendarDeps, ctx: ViewContext): Promise<LatLng | null | 'busy' | undefined> {
  if (!deps.geofenceKm || (!ctx.near && !ctx.nearPoint)) return undefined;
  if (ctx.nearPoint) return ctx.nearPoint;
  return (await deps.placeToPoint?.(ctx.near)) ?? null;
}

/** The id of the published venue or organizer a filter names, by id or slug; null when there is none. */
async function linkedId(deps: CalendarDeps, type: string, value: string): Promise<number | null> {
  const filter = /^\d+$/.test(value) ? { type, id: Number(value), status: 'publish' } : { type, slug: value, status: 'publish' };
  const [doc] = await deps.posts.find(filter, { limit: 1, fields: ['id'] });
  return doc ? doc.id : null;
}

/** A view's window: relative bounds of the archive. */
type ViewWindow = Pick<ArchiveParams, 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'>;

async function query(deps: CalendarDeps, ctx: ViewContext, window: ViewWindow, page: number, perPage: number, sort?: SortSpec): Promise<EventPage> {
  const venue = ctx.venue ? await linkedId(deps, VENUE_TYPE, ctx.venue) : undefined;
  const organizer = ctx.organizer ? await linkedId(deps, ORGANIZER_TYPE, ctx.organizer) : undefined;
  if (venue === null || organizer === null) return { items: [], total: 0, unknown: true };
  const point = await nearPoint(deps, ctx);
  if (point === null || point === 'busy') return { items: [], total: 0, placeUnknown: point ?? true };
  const params: ArchiveParams = {
    page,
    per_page: perPage,
    strict_dates: true,
    ...window,
    ...(ctx.search ? { search: ctx.search } : {}),
    ...(ctx.category ? { categories: [ctx.category] } : {}),
    ...(ctx.tag ? { tags: [ctx.tag] } : {}),
    ...(venue ? { venue: [venue] } : {}),
    ...(organizer ? { organizer: [organizer] } : {}),
    ...(point ? { geoloc_lat: point.lat, geoloc_lng: point.lng } : {}),
  };
  const given = new Set(Object.entries(params).flatMap(([name, v]) => (v === undefined ? [] : [name])));
  const q = await archiveQuery(deps, { params, given: (name) => given.has(name), user: null });
  // The only failure left is a category or tag that does not exist: it names no events.
  if ('code' in q) return { items: [], total: 0, unknown: true };
  const found = await deps.posts.list({ $and: [q.filter, { password: '' }] }, { page, perPage, sort: sort ?? q.sort });
  return {
    ...found,
    linked: { ...(venue ? { venue } : {}), ...(organizer ? { organizer } : {}), ...(point ? { point } : {}) },
    ...(q.nearest ? { nearest: q.nearest } : {}),
  };
}

/** The list view: events not over yet (or, for past events, over already), counted from now or the date asked for. */
export function listEvents(deps: CalendarDeps, ctx: ViewContext, now: DateTime): Promise<EventPage> {
  const from = ctx.dateGiven ? ctx.date : now;
  if (ctx.past) return query(deps, ctx, { ends_before: mysqlOf(from) }, ctx.page, LIST_PER_PAGE, [['event_start', -1]]);
  return query(deps, ctx, { ends_after: mysqlOf(from) }, ctx.page, LIST_PER_PAGE);
}

/** Every event that overlaps [from, to): it starts before `to` and ends after `from`. */
export function eventsBetween(deps: CalendarDeps, ctx: ViewContext, from: DateTime, to: DateTime): Promise<EventPage> {
  return query(deps, ctx, { starts_before: mysqlOf(to), ends_after: mysqlOf(from) }, 1, MAX_EVENTS_PER_VIEW);
}
