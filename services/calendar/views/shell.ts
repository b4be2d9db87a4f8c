/**
 * The page shell every calendar view is printed in: the container, the top bar, the previous/next
 * navigation, the no-events message and the JSON-LD of the events the view prints. The view's own
 * state (its URL, the nonces for the next request, the links) rides in JSON script blocks as the
 * reference's front end expects, with `<` escaped so no data can end a script.
 */
import type { DateTime } from 'luxon';
import { stripAllTags, trimWords } from '#libs/posts/render';
import { restUrl, type Site } from '#libs/rest/site';
import { eventsBar, feedUrl, searchedFor, searchSummary, subscribeMenu, type LinkedIds } from './bar';
import type { Card } from './cards';
import { viewUrl, type ViewContext } from './context';
import { escapeHtml as esc } from '#libs/html/escape';

/** The description search engines are given: a short plain-text excerpt. */
const LD_DESCRIPTION_WORDS = 25;
const LD_DESCRIPTION_CHARS = 200;

/** JSON inside a script element: `<` written as \u003c, so no value can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A short plain-text description: whole words up to a length. */
function shortText(text: string): string {
  let out = trimWords(text, LD_DESCRIPTION_WORDS, '…');
  if (out.length > LD_DESCRIPTION_CHARS) out = `${out.slice(0, LD_DESCRIPTION_CHARS).replace(/\s+\S*$/, '')}…`;
  return out;
}

/**
 * The JSON-LD of the events a view shows, for search engines: the schema.org Event properties they
 * read (name, dates, status, attendance mode, location, organizer, image, a short description, url,
 * offers), nothing else, and only for the events the view prints (search engines ignore data about
 * what a page does not show; a busy month links to its days for the rest).
 */
export function jsonLd(cards: Card[]): string {
  if (!cards.length) return '';
  const items = cards.map((c) => {
    const item: Record<string, unknown> = {
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: stripAllTags(c.doc.title ?? ''),
      startDate: c.start.toISO({ suppressMilliseconds: true }),
      endDate: c.end.toISO({ suppressMilliseconds: true }),
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      url: c.url,
    };
    if (c.venue) {
      const address = Object.fromEntries(Object.entries(c.venue.parts).filter(([, v]) => v));
      item.location = { '@type': 'Place', name: c.venue.plain, ...(Object.keys(address).length ? { address: { '@type': 'PostalAddress', ...address } } : {}) };
    }
    if (c.organizers.length) {
      const orgs = c.organizers.map((o) => ({ '@type': 'Organization', name: o.name, url: o.url }));
      item.organizer = orgs.length === 1 ? orgs[0] : orgs;
    }
    if (c.image) item.image = c.image.url;
    const description = c.doc.password ? '' : shortText(c.text);
    if (description) item.description = description;
    if (c.price) item.offers = { '@type': 'Offer', price: c.price.value, ...(c.price.currency ? { priceCurrency: c.price.currency } : {}), url: c.url };
    return item;
  });
  return `<script type="application/ld+json">${scriptJson(items)}</script>`;
}

export interface ViewState {
  ctx: ViewContext;
  /** The view's own address and the neighbouring ones ('' when there is none). */
  url: string;
  prevUrl: string;
  nextUrl: string;
  nonces: { tvn1: string; tvn2: string };
  /** Today, at 00:00 in the site zone. */
  today: DateTime;
  /** The ids the venue and organizer filters resolved to. */
  linked?: LinkedIds;
  /** A filter named something that does not exist. */
  unknown?: boolean;
  /** The extended edition: the events bar has the "Near" field. */
  near?: boolean;
  /** The place searched near could not be located (`busy`: not now). */
  placeUnknown?: boolean | 'busy';
}

/**
 * What every calendar page puts in its head besides its title: the iCalendar feed as an alternate
 * (calendar programs and browsers find the subscription there) and the canonical address. The views
 * hand it to the page in their view data; the single pages print it themselves.
 */
export function headLinks(site: Site, opts: { feed?: string; canonical?: string } = {}): string {
  const feed = opts.feed ?? `${site.home}/events/?ical=1`;
  return (
    `<link rel="alternate" type="text/calendar" title="${esc(`${site.name} » iCal Feed`)}" href="${esc(feed)}">` +
    (opts.canonical ? `<link rel="canonical" href="${esc(opts.canonical)}">` : '')
  );
}

export interface Labels {
  prev: string;
  next: string;
}

const VIEW_LABELS: Record<ViewContext['view'], string> = { list: 'List', month: 'Month', day: 'Day' };

/** The top bar: previous/next arrows, today, the view's title, and the view selector. */
function topBar(site: Site, state: ViewState, title: string, labels: Labels): string {
  const { ctx } = state;
  const link = (view: ViewContext['view'], over: Partial<ViewContext>) => viewUrl(site, { ...ctx, view, page: 1, past: false, ...over });
  const arrow = (dir: 'prev' | 'next', href: string, label: string) => {
    const glyph = `<span class="tribe-events-c-top-bar__nav-icon" aria-hidden="true">${dir === 'prev' ? '‹' : '›'}</span><span class="tribe-common-a11y-visual-hide">${label}</span>`;
    return href
      ? `<a href="${esc(href)}" class="tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--${dir}" data-js="tribe-events-view-link">${glyph}</a>`
      : `<span class="tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--${dir} tribe-events-c-top-bar__nav-link--disabled" aria-disabled="true">${glyph}</span>`;
  };
  const todayUrl = link(ctx.view, { date: state.today, dateGiven: false });
  const selector = (['list', 'month', 'day'] as const)
    .map((v) => {
      const href = link(v, { date: ctx.date, dateGiven: ctx.dateGiven });
      const current = v === ctx.view ? ' aria-current="page"' : '';
      return `<li class="tribe-events-c-view-selector__list-item${v === ctx.view ? ' tribe-events-c-view-selector__list-item--active' : ''}"><a href="${esc(href)}" class="tribe-events-c-view-selector__list-item-link" data-js="tribe-events-view-link"${current}>${VIEW_LABELS[v]}</a></li>`;
    })
    .join('');
  return (
    `<header class="tribe-events-header">` +
    `<div class="tribe-events-c-top-bar">` +
    `<nav class="tribe-events-c-top-bar__nav" aria-label="${labels.prev} and ${labels.next.toLowerCase()}">${arrow('prev', state.prevUrl, labels.prev)}${arrow('next', state.nextUrl, labels.next)}</nav>` +
    `<a href="${esc(todayUrl)}" class="tribe-events-c-top-bar__today-button tribe-common-c-btn-border-small" data-js="tribe-events-view-link">Today</a>` +
    `<h2 class="tribe-events-header__title">${title}</h2>` +
    `</div>` +
    `<nav class="tribe-events-c-view-selector" aria-label="Calendar views"><ul class="tribe-events-c-view-selector__list">${selector}</ul></nav>` +
    `</header>`
  );
}

export function container(site: Site, state: ViewState, title: string, plainTitle: string, labels: Labels, body: string, ld: string, count = 0): string {
  const { ctx } = state;
  const feed = feedUrl(site, ctx, state.linked);
  const viewData = {
    slug: ctx.view,
    title: plainTitle,
    url: state.url,
    prev_url: state.prevUrl,
    next_url: state.nextUrl,
    rest_url: restUrl(site, '/vendor/views/v2/html'),
    rest_method: 'POST',
    display: ctx.past ? 'past' : ctx.view,
    date: ctx.date.toFormat('yyyy-LL-dd'),
    search: ctx.search,
    ical_url: feed,
    head: headLinks(site, { feed }),
  };
  return (
    `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${ctx.view}${ctx.past ? ' tribe-events-view--past' : ''}" data-js="tribe-events-view" data-view-rest-url="${esc(viewData.rest_url)}" data-view-rest-method="POST" data-view-manage-url="1">` +
    `<script data-js="tribe-events-view-nonce-data" type="application/json">${scriptJson(state.nonces)}</script>` +
    `<script data-js="tribe-events-view-data" type="application/json">${scriptJson(viewData)}</script>` +
    eventsBar(site, ctx, { near: !!state.near }) +
    topBar(site, state, title, labels) +
    searchSummary(ctx, count) +
    body +
    subscribeMenu(site, ctx, state.linked ?? {}) +
    ld +
    `</div>`
  );
}

export function nav(kind: string, state: ViewState, labels: Labels): string {
  const item = (dir: 'prev' | 'next', href: string, label: string) =>
    href
      ? `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><a href="${esc(href)}" rel="${dir}" class="tribe-events-c-nav__${dir} tribe-common-b2" data-js="tribe-events-view-link">${label}</a></li>`
      : `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><button class="tribe-events-c-nav__${dir} tribe-common-b2" disabled>${label}</button></li>`;
  return `<nav class="tribe-events-${kind}-nav tribe-events-c-nav" aria-label="${labels.prev} and ${labels.next.toLowerCase()}"><ul class="tribe-events-c-nav__list">${item('prev', state.prevUrl, labels.prev)}${item('next', state.nextUrl, labels.next)}</ul></nav>`;
}

export function noEvents(state: ViewState, what: string): string {
  const { ctx } = state;
  const searched = searchedFor(ctx);
  const message = state.unknown
    ? `Nothing was found for ${searched}: it does not exist.`
    : state.placeUnknown === 'busy'
      ? `The place <strong>${esc(ctx.near)}</strong> cannot be looked up right now. Try again in a moment, or use your location.`
      : state.placeUnknown
        ? `The place <strong>${esc(ctx.near)}</strong> could not be found. Try a town or an address.`
        : searched
          ? `There were no results found for ${searched}.`
          : `There are no ${what}.`;
  return `<div class="tribe-events-c-messages tribe-events-header__messages"><div class="tribe-events-c-messages__message tribe-events-c-messages__message--notice" role="status"><ul class="tribe-events-c-messages__message-list"><li class="tribe-events-c-messages__message-list-item">${message}</li></ul></div></div>`;
}
