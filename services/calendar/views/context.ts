/**
 * What a view request asks for, read as the reference's view context is: the URL `u` (its path, like
 * `/events/month/2030-01/`, `/events/list/page/2/`, `/events/category/{slug}/month/`, `/events/tag/{slug}/`,
 * and its query: `tribe-bar-date`, `eventDisplay`, `tribe-bar-search`, `tribe_eventcategory` (or
 * `vendor_events_cat`), `tag`, `tribe_venue`, `tribe_organizer`, `paged`, and the extended edition's
 * location search: `tribe-bar-geoloc`, a place, with `tribe-bar-geoloc-lat`/`-lng` when its point is
 * known), then `view_data` over the query, then `view` over everything. Unknown views read as the list,
 * unreadable dates as today, an unreadable point as none.
 */
import { DateTime } from 'luxon';
import type { LatLng } from '#libs/calendar/geo';
import { strtotime } from '#libs/calendar/strtotime';
import { isRecord } from '#libs/rest/args';
import type { Site } from '#libs/rest/site';

export const VIEW_SLUGS = ['list', 'month', 'day'] as const;
export type ViewSlug = (typeof VIEW_SLUGS)[number];

export interface ViewContext {
  view: ViewSlug;
  /** The list of past events (`eventDisplay=past`). */
  past: boolean;
  /** The day the view is about, at 00:00 in the site zone (today when none was asked for). */
  date: DateTime;
  /** Whether the request named a date (the list then starts at that day instead of now). */
  dateGiven: boolean;
  page: number;
  search: string;
  /** Slug of an event category the view is limited to. */
  category: string;
  /** Slug of a tag the view is limited to. */
  tag: string;
  /** Id or slug of a venue, and of an organizer, the view is limited to. */
  venue: string;
  organizer: string;
  /** The place the events are searched near (the "Near" field), and its point when the request gave it. */
  near: string;
  nearPoint?: LatLng;
}

/** The filters of a view, in the order its address names them. */
export const FILTERS = ['category', 'tag', 'venue', 'organizer'] as const;

const isView = (v: string): v is ViewSlug => VIEW_SLUGS.some((s) => s === v);

function first(v: unknown): string {
  if (Array.isArray(v)) return first(v[0]);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function readDate(text: string, zone: string, now: Date): DateTime | null {
  const month = /^(\d{4})-(\d{2})$/.exec(text.trim());
  if (month) {
    const dt = DateTime.fromObject({ year: Number(month[1]), month: Number(month[2]), day: 1 }, { zone });
    return dt.isValid ? dt : null;
  }
  const dt = strtotime(text, { zone, now });
  return dt && dt.isValid ? dt.setZone(zone) : null;
}

/** A coordinate of the location search, or undefined when it is not a finite number within ±range. */
function coordinate(text: string | undefined, range: number): number | undefined {
  if (!text || !/^\s*-?\d{1,3}(\.\d{1,15})?\s*$/.test(text)) return undefined;
  const v = Number(text);
  return Math.abs(v) <= range ? v : undefined;
}

/** Reads the view context of a request; never fails (a bad part falls back to its default). */
export function readViewContext(site: Site, now: Date, params: { u: unknown; view?: unknown; view_data?: unknown }): ViewContext {
  const zone = site.timezone;
  let url: URL;
  try {
    url = new URL(first(params.u) || '/events/', `${site.home}/`);
  } catch {
    url = new URL('/events/', `${site.home}/`);
  }
  const homePath = new URL(`${site.home}/`).pathname;
  const rel = url.pathname.startsWith(homePath) ? url.pathname.slice(homePath.length) : url.pathname;
  let segments: string[];
  try {
    segments = rel
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    segments = [];
  }

  let view: string | undefined;
  let past = false;
  let dateText = '';
  let page = 1;
  let category = '';
  let tag = '';
  if (segments[0] === 'events') segments.shift();
  if (segments[0] === 'category' && segments[1]) {
    category = segments[1];
    segments.splice(0, 2);
  } else if (segments[0] === 'tag' && segments[1]) {
    tag = segments[1];
    segments.splice(0, 2);
  }
  if (segments[0] && ['list', 'month', 'day', 'today', 'past'].includes(segments[0])) {
    const slug = segments.shift()!;
    if (slug === 'today') view = 'day';
    else if (slug === 'past') {
      view = 'list';
      past = true;
    } else view = slug;
  }
  if (segments[0] && /^\d{4}-\d{2}(-\d{2})?$/.test(segments[0])) {
    dateText = segments.shift()!;
    view ??= dateText.length === 7 ? 'month' : 'day';
  }
  if (segments[0] === 'page' && /^\d+$/.test(segments[1] ?? '')) page = Number(segments[1]);

  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
  const data = isRecord(params.view_data) ? params.view_data : {};
  for (const [k, v] of Object.entries(data)) query[k] = first(v);

  const display = query.eventDisplay ?? '';
  if (display === 'past') {
    view = 'list';
    past = true;
  } else if (display) view = display;
  const asked = first(params.view);
  if (asked) view = asked;
  const slug: ViewSlug = view && isView(view) ? view : 'list';
  if (slug !== 'list') past = false;

  if (query['tribe-bar-date']) dateText = query['tribe-bar-date'];
  const paged = query.paged ?? query.page;
  if (paged && /^\d+$/.test(paged) && Number(paged) > 0) page = Number(paged);
  category = query.tribe_eventcategory ?? query.vendor_events_cat ?? query.tribe_events_cat ?? category;
  tag = query.tag ?? tag;
  const slugLike = (v: string | undefined) => (v ?? '').trim().slice(0, 200);

  const parsed = dateText ? readDate(dateText, zone, now) : null;
  const lat = coordinate(query['tribe-bar-geoloc-lat'], 90);
  const lng = coordinate(query['tribe-bar-geoloc-lng'], 180);
  const date = (parsed ?? DateTime.fromJSDate(now, { zone })).startOf('day');
  return {
    view: slug,
    past,
    date,
    dateGiven: parsed !== null,
    page: Math.max(1, Math.min(page, 10000)),
    search: (query['tribe-bar-search'] ?? '').trim().slice(0, 200),
    category: slugLike(category),
    tag: slugLike(tag),
    venue: slugLike(query.tribe_venue),
    organizer: slugLike(query.tribe_organizer),
    near: slugLike(query['tribe-bar-geoloc']),
    ...(lat !== undefined && lng !== undefined ? { nearPoint: { lat, lng } } : {}),
  };
}

/** The public address of a view state, as the reference builds its view links. */
export function viewUrl(site: Site, ctx: ViewContext): string {
  let path = `${site.home}/events/`;
  if (ctx.category) path += `category/${encodeURIComponent(ctx.category)}/`;
  else if (ctx.tag) path += `tag/${encodeURIComponent(ctx.tag)}/`;
  const q = new URLSearchParams();
  if (ctx.view === 'month') path += `month/${ctx.date.toFormat('yyyy-LL')}/`;
  else if (ctx.view === 'day') path += `day/${ctx.date.toFormat('yyyy-LL-dd')}/`;
  else {
    path += 'list/';
    if (ctx.page > 1) path += `page/${ctx.page}/`;
    if (ctx.past) q.set('eventDisplay', 'past');
    if (ctx.dateGiven) q.set('tribe-bar-date', ctx.date.toFormat('yyyy-LL-dd'));
  }
  if (ctx.search) q.set('tribe-bar-search', ctx.search);
  if (ctx.category && ctx.tag) q.set('tag', ctx.tag);
  if (ctx.venue) q.set('tribe_venue', ctx.venue);
  if (ctx.organizer) q.set('tribe_organizer', ctx.organizer);
  if (ctx.near) q.set('tribe-bar-geoloc', ctx.near);
  if (ctx.nearPoint) {
    q.set('tribe-bar-geoloc-lat', String(ctx.nearPoint.lat));
    q.set('tribe-bar-geoloc-lng', String(ctx.nearPoint.lng));
  }
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
