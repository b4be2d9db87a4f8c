/**
 * The event archive's query (the reference's Archive_Event): the date window and its day rounding,
 * the filters, and the arguments echoed back in `rest_url`. Every condition lands on an indexed field:
 * type, status, hide_from_listings and event_start/event_end share one compound index; the simple
 * filters (libs/calendar/event-filters.ts) declare theirs; categories, tags, venues and organizers are array side tables; include and post_parent use the
 * id and parent indexes.
 */
import { DateTime } from 'luxon';
import type { Caller } from '#libs/auth/user';
import { eventFilterEcho, eventFilterValues } from '#libs/calendar/event-filters';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from '#libs/calendar/meta';
import { mysqlOf } from '#libs/dates/format';
import { strtotime } from '#libs/calendar/strtotime';
import { invalidParams, ParamError, type RestError } from '#libs/rest/errors';
import type { Filter, SortSpec } from '#libs/store/types';
import type { InputOf } from '#libs/rest/params';
import { MAX_PER_PAGE } from '#libs/routes/vendor-events/args';
import type { VENDOR_EVENT_ENDPOINTS } from '#libs/routes/vendor-events/events';
import { listStatuses } from '../access';
import { allOfType, eventFilter, type EventCriteria } from '../event-query';
import type { CalendarDeps } from '../deps';
import { INVALID, paramFailure } from '../errors';
import { geolocFilter } from './geoloc';
import { bound, defaultWindow, type Bound } from './window';

export interface ArchiveQuery {
  filter: Filter;
  sort: SortSpec;
  page: number;
  perPage: number;
  /** Arguments echoed in `rest_url`, in the reference's order. */
  echo: Record<string, unknown>;
  /** geoloc_lat/geoloc_lng (extended edition): the kept venues' distances; the list goes nearest first (./geoloc.ts). */
  nearest?: Map<number, number>;
}

/**
 * What the archive query reads, typed as vendor/events/v1's archive declares it: that endpoint passes its
 * validated arguments, the views and the iCalendar exports the part of them they set.
 */
export type ArchiveParams = Partial<InputOf<typeof VENDOR_EVENT_ENDPOINTS.list>>;

interface ArchiveRequest {
  params: ArchiveParams;
  /** Names the query string carried (defaults are not "given"). */
  given: (name: string) => boolean;
  user: Caller;
  /** start_date and end_date take every event that meets the window (the iCalendar exports), not only those inside it. */
  meets?: boolean;
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** Ids or slugs of a taxonomy's terms, all of which must exist. */
async function termFilter(deps: CalendarDeps, taxonomy: string, values: unknown[]): Promise<number[] | null> {
  // The same few filters repeat, and terms change rarely: the answer is kept in the read cache.
  return deps.cache.termFilters.get(`${taxonomy}:${JSON.stringify(values)}`, async () => {
    const ids = values.filter((v) => typeof v === 'number' || /^\d+$/.test(String(v))).map(Number);
    const slugs = values.filter((v) => !(typeof v === 'number' || /^\d+$/.test(String(v)))).map(String);
    const [byId, bySlug] = await Promise.all([deps.terms.byIds(ids), deps.terms.bySlugs(taxonomy, slugs)]);
    if (ids.some((id) => byId.get(id)?.taxonomy !== taxonomy)) return null;
    if (slugs.some((s) => !bySlug.some((t) => t.slug === s))) return null;
    return [...new Set([...ids, ...bySlug.map((t) => t.id)])];
  });
}

/**
 * The window bounds made from a date, by side and strictness. strtotime hands out the same DateTime for
 * the same absolute date text (it remembers those), and a DateTime never changes, so its bounds are
 * worked out once (luxon's day rounding and formatting cost a large part of a category window's
 * request); a relative date is a new DateTime each time and simply is not found again. Bounds are
 * shared, as defaultWindow's are: nobody may change one.
 */
const bounds = new WeakMap<DateTime, Map<string, Bound>>();
function windowBound(dt: DateTime, key: string, make: () => Bound): Bound {
  let byKey = bounds.get(dt);
  if (!byKey) bounds.set(dt, (byKey = new Map()));
  let b = byKey.get(key);
  if (!b) byKey.set(key, (b = make()));
  return b;
}

/** Builds the archive query, or the rest_invalid_param error of the arguments that need stored data. */
export async function archiveQuery(deps: CalendarDeps, req: ArchiveRequest): Promise<ArchiveQuery | RestError> {
  const p = req.params;
  const failures: Array<[string, ParamError | string]> = [];

  const status = listStatuses(req.user, 'vendor_event', req.given('status') ? (p.status ?? []) : undefined);
  if (typeof status === 'string') failures.push(['status', status]);

  let categories: number[] | null = null;
  let tags: number[] | null = null;
  if (req.given('categories') && p.categories?.length) {
    categories = await termFilter(deps, CATEGORY_TAXONOMY, p.categories);
    if (!categories) failures.push(['categories', INVALID]);
  }
  if (req.given('tags') && p.tags?.length) {
    tags = await termFilter(deps, TAG_TAXONOMY, p.tags);
    if (!tags) failures.push(['tags', INVALID]);
  }
  const venues = (req.given('venue') && p.venue) || [];
  const organizers = (req.given('organizer') && p.organizer) || [];
  if (venues.length && !(await allOfType(deps, venues, VENUE_TYPE))) failures.push(['venue', INVALID]);
  if (organizers.length && !(await allOfType(deps, organizers, ORGANIZER_TYPE))) failures.push(['organizer', INVALID]);
  // The reference's validator only answers yes or no, so the parameter is reported without a detail code.
  if (req.given('post_parent') && !(await allOfType(deps, [Number(p.post_parent)], EVENT_TYPE))) failures.push(['post_parent', INVALID]);
  const failure = paramFailure(failures);
  if (failure) return failure;
  const geo = await geolocFilter(deps, p, req.given);
  if (geo && 'code' in geo) return geo;
  // A refused status is among the failures, so from here the statuses are the ones to show.
  if (typeof status === 'string') return invalidParams([['status', status]]);

  const zone = deps.site.timezone;
  const now = deps.now();
  const strict = p.strict_dates === true;
  const include = (req.given('include') && p.include) || [];
  // Without a per_page the archive shows the site's posts-per-page setting (clamped like a given one).
  const perPage = req.given('per_page') || !deps.postsPerPage ? Number(p.per_page) : Math.min(deps.postsPerPage(), MAX_PER_PAGE);
  const echo: Record<string, unknown> = { page: p.page, per_page: perPage };
  const criteria: EventCriteria = {
    status: status.filter,
    listedOnly: true,
    meets: req.meets,
    termGroups: [categories ?? [], tags ?? []],
    venues,
    organizers,
    filters: eventFilterValues('v1', p, (name) => req.given(name)),
    ...(geo ? { nearVenues: geo.venues } : {}),
  };

  if (include.length) {
    criteria.ids = include;
  } else {
    const relative = RELATIVE.some((k) => req.given(k));
    // Non-strict dates widen to whole days: the start to 00:00:00, every other bound to 23:59:59.
    const dayStart = (dt: DateTime) => (strict ? dt : dt.startOf('day'));
    const dayEnd = (dt: DateTime) => (strict ? dt : dt.set({ hour: 23, minute: 59, second: 59, millisecond: 0 }));
    const boundAt = (dt: DateTime, side: 'start' | 'end') => windowBound(dt, `${side}:${strict}`, () => bound(side === 'start' ? dayStart(dt) : dayEnd(dt)));
    const read = (name: 'start_date' | 'end_date' | (typeof RELATIVE)[number]) => strtotime(p[name], { zone, now })!;
    let start: Bound | null = null;
    let end: Bound | null = null;
    const defaults = relative ? null : defaultWindow(zone, now, strict);
    if (req.given('start_date')) start = boundAt(read('start_date'), 'start');
    else if (!relative) start = defaults!.start;
    if (req.given('end_date')) end = boundAt(read('end_date'), 'end');
    else if (!relative) end = defaults!.end;
    if (start) {
      criteria.startsFrom = start.at;
      echo.start_date = start.text;
    }
    if (end) {
      criteria.endsBy = end.at;
      echo.end_date = end.text;
    }
    const fields = { starts_before: 'startsBefore', starts_after: 'startsAfter', ends_before: 'endsBefore', ends_after: 'endsAfter' } as const;
    for (const k of RELATIVE) {
      if (!req.given(k)) continue;
      const dt = dayEnd(read(k));
      criteria[fields[k]] = dt.toJSDate();
      echo[k] = mysqlOf(dt);
    }
  }

  if (req.given('search')) {
    criteria.search = { text: String(p.search), user: req.user };
    echo.search = p.search;
  }
  if (req.given('post_parent')) criteria.parent = Number(p.post_parent);

  echo.status = status.echo;
  if (include.length) echo.include = include.join(',');
  if (req.given('post_parent')) echo.post_parent = p.post_parent;
  if (venues.length) echo.venue = venues.join(',');
  if (organizers.length) echo.organizer = organizers.join(',');
  Object.assign(echo, eventFilterEcho(criteria.filters!));

  // Start date first; the store breaks ties by insertion order, which is id order.
  const sort: SortSpec = include.length
    ? [
        ['date', 1],
        ['id', 1],
      ]
    : [['event_start', 1]];
  return { filter: eventFilter(criteria), sort, page: Number(p.page), perPage, echo, ...(geo?.nearest ? { nearest: geo.nearest } : {}) };
}
