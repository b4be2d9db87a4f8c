/**
 * What every view prints around its events: the events bar (keyword, date and the view's own filters,
 * a plain GET form the view manager enhances), the summary of what was searched, and the "Subscribe to
 * calendar" menu (a <details> element, so it opens without JavaScript) with the iCalendar feed of the
 * view's filters, its webcal: variant, Google Calendar and Outlook subscribe links and the .ics export
 * of what the view shows. Every value is escaped here.
 */
import type { LatLng } from '#libs/calendar/geo';
import { escapeHtml as esc } from '#libs/html/escape';
import type { Site } from '#libs/rest/site';
import type { ViewContext } from './context';

/** The ids the venue and organizer filters resolved to (the feed takes ids). */
export interface LinkedIds {
  venue?: number;
  organizer?: number;
  /** The point a location search resolved to (the feed takes coordinates). */
  point?: LatLng;
}

/** The front-end iCalendar feed with the view's filters (services/gateway ical-feed answers it). */
export function feedUrl(site: Site, ctx: ViewContext, linked: LinkedIds = {}, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ ical: '1' });
  if (ctx.category) q.set('categories', ctx.category);
  if (ctx.tag) q.set('tags', ctx.tag);
  if (linked.venue) q.set('venue', String(linked.venue));
  if (linked.organizer) q.set('organizer', String(linked.organizer));
  if (linked.point) {
    q.set('geoloc_lat', String(linked.point.lat));
    q.set('geoloc_lng', String(linked.point.lng));
  }
  if (ctx.search) q.set('search', ctx.search);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `${site.home}/events/?${q.toString()}`;
}

/** The export of what the view shows: its month, its day, or the list's upcoming or past events. */
function exportUrl(site: Site, ctx: ViewContext, linked: LinkedIds): string {
  if (ctx.view === 'month') {
    const first = ctx.date.startOf('month');
    return feedUrl(site, ctx, linked, { start_date: first.toFormat('yyyy-LL-dd'), end_date: first.endOf('month').toFormat('yyyy-LL-dd') });
  }
  if (ctx.view === 'day') return feedUrl(site, ctx, linked, { start_date: ctx.date.toFormat('yyyy-LL-dd'), end_date: ctx.date.toFormat('yyyy-LL-dd') });
  return feedUrl(site, ctx, linked, ctx.dateGiven ? { start_date: ctx.date.toFormat('yyyy-LL-dd') } : {});
}

/** The subscribe links of a feed: the feed itself, webcal:, Google Calendar, Outlook 365 and Outlook Live. */
export function subscribeLinks(site: Site, feed: string): Array<{ label: string; href: string; kind: string }> {
  const webcal = feed.replace(/^https?:/i, 'webcal:');
  const name = encodeURIComponent(site.name);
  const outlook = (host: string) => `https://${host}/calendar/0/addfromweb?url=${encodeURIComponent(webcal)}&name=${name}`;
  return [
    { kind: 'google', label: 'Google Calendar', href: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}` },
    { kind: 'ical', label: 'iCalendar', href: webcal },
    { kind: 'outlook-365', label: 'Outlook 365', href: outlook('outlook.office.com') },
    { kind: 'outlook-live', label: 'Outlook Live', href: outlook('outlook.live.com') },
    { kind: 'feed', label: 'iCalendar feed URL', href: feed },
  ];
}

export function subscribeMenu(site: Site, ctx: ViewContext, linked: LinkedIds): string {
  const items = subscribeLinks(site, feedUrl(site, ctx, linked))
    .map(
      (l) =>
        `<li class="tribe-events-c-subscribe-dropdown__list-item"><a href="${esc(l.href)}" class="tribe-events-c-subscribe-dropdown__list-item-link" data-subscribe="${l.kind}" rel="noopener noreferrer nofollow">${l.label}</a></li>`,
    )
    .join('');
  const download = `<li class="tribe-events-c-subscribe-dropdown__list-item"><a href="${esc(exportUrl(site, ctx, linked))}" class="tribe-events-c-subscribe-dropdown__list-item-link" data-subscribe="export" download>Export .ics file</a></li>`;
  return (
    `<div class="tribe-events-c-subscribe-dropdown__container">` +
    `<details class="tribe-events-c-subscribe-dropdown"><summary class="tribe-events-c-subscribe-dropdown__button tribe-common-c-btn-border-small">Subscribe to calendar</summary>` +
    `<ul class="tribe-events-c-subscribe-dropdown__list">${items}${download}</ul></details></div>`
  );
}

/** The address the bar's form sends to: the calendar, under its category or tag. */
function formAction(site: Site, ctx: ViewContext): string {
  let path = `${site.home}/events/`;
  if (ctx.category) path += `category/${encodeURIComponent(ctx.category)}/`;
  else if (ctx.tag) path += `tag/${encodeURIComponent(ctx.tag)}/`;
  return path;
}

/**
 * The extended edition's "Near" field: a place (geocoded by the service when a geocoder is configured),
 * and the point it stands for, which "Use my location" fills from the browser (view-manager.js) and a
 * new place typed clears.
 */
function nearField(ctx: ViewContext): string {
  const point = ctx.nearPoint;
  return (
    `<div class="tribe-events-c-events-bar__field tribe-events-c-events-bar__field--location"><label class="tribe-events-c-events-bar__label" for="tribe-events-events-bar-location">Near</label>` +
    `<div class="tribe-events-c-events-bar__location-row">` +
    `<input class="tribe-events-c-events-bar__input" type="search" id="tribe-events-events-bar-location" name="tribe-bar-geoloc" value="${esc(ctx.near)}" placeholder="In a location" maxlength="200" autocomplete="off" data-js="tribe-events-geoloc">` +
    `<input type="hidden" name="tribe-bar-geoloc-lat" value="${point ? point.lat : ''}" data-js="tribe-events-geoloc-lat">` +
    `<input type="hidden" name="tribe-bar-geoloc-lng" value="${point ? point.lng : ''}" data-js="tribe-events-geoloc-lng">` +
    `<button type="button" class="tribe-events-c-events-bar__location-button tribe-common-c-btn-border-small" data-js="tribe-events-geoloc-here" hidden>Use my location</button></div></div>`
  );
}

/** The events bar: keyword and date (and the place, in the extended edition), sent as the reference's query names, keeping the view and its filters. */
export function eventsBar(site: Site, ctx: ViewContext, opts: { near?: boolean } = {}): string {
  const hidden: Array<[string, string]> = [['eventDisplay', ctx.past ? 'past' : ctx.view]];
  if (ctx.category && ctx.tag) hidden.push(['tag', ctx.tag]);
  if (ctx.venue) hidden.push(['tribe_venue', ctx.venue]);
  if (ctx.organizer) hidden.push(['tribe_organizer', ctx.organizer]);
  const date = ctx.dateGiven || ctx.view !== 'list' ? ctx.date.toFormat('yyyy-LL-dd') : '';
  return (
    `<div class="tribe-events-c-events-bar" role="search" aria-label="Search and filter events">` +
    `<form class="tribe-events-c-events-bar__search-form" method="get" action="${esc(formAction(site, ctx))}" data-js="tribe-events-view-form">` +
    `<div class="tribe-events-c-events-bar__field tribe-events-c-events-bar__field--keyword"><label class="tribe-events-c-events-bar__label" for="tribe-events-events-bar-keyword">Keyword</label>` +
    `<input class="tribe-events-c-events-bar__input" type="search" id="tribe-events-events-bar-keyword" name="tribe-bar-search" value="${esc(ctx.search)}" placeholder="Search for events" maxlength="200" autocomplete="off"></div>` +
    `<div class="tribe-events-c-events-bar__field tribe-events-c-events-bar__field--date"><label class="tribe-events-c-events-bar__label" for="tribe-events-events-bar-date">Date</label>` +
    `<input class="tribe-events-c-events-bar__input" type="date" id="tribe-events-events-bar-date" name="tribe-bar-date" value="${date}"></div>` +
    (opts.near ? nearField(ctx) : '') +
    hidden.map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`).join('') +
    `<button class="tribe-events-c-events-bar__search-button tribe-common-c-btn" type="submit">Find Events</button>` +
    `</form></div>`
  );
}

/** What the view is limited to, in words ('' when nothing): `"jazz" in the category music`. */
export function searchedFor(ctx: ViewContext): string {
  const parts: string[] = [];
  if (ctx.category) parts.push(`the category <strong>${esc(ctx.category)}</strong>`);
  if (ctx.tag) parts.push(`the tag <strong>${esc(ctx.tag)}</strong>`);
  if (ctx.venue) parts.push(`the venue <strong>${esc(ctx.venue)}</strong>`);
  if (ctx.organizer) parts.push(`the organizer <strong>${esc(ctx.organizer)}</strong>`);
  if (ctx.near) parts.push(`the area of <strong>${esc(ctx.near)}</strong>`);
  else if (ctx.nearPoint) parts.push('the area of your location');
  const keyword = ctx.search ? `<strong>&quot;${esc(ctx.search)}&quot;</strong>` : '';
  if (!parts.length) return keyword;
  return `${keyword ? `${keyword} in ` : 'events in '}${parts.join(', ')}`;
}

/** The line over the results that says what was searched for, when anything was. */
export function searchSummary(ctx: ViewContext, count: number): string {
  const what = searchedFor(ctx);
  if (!what || !count) return '';
  return `<p class="tribe-events-c-search-summary tribe-common-b2">Showing results for ${what}.</p>`;
}
