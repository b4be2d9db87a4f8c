/**
 * The HTML of the calendar views (the reference's Views V2 templates, in their class names): the list
 * (month separators, date tags, schedule, venue, excerpt, cost, paging links), the month grid (weeks
 * from Monday, up to three events a day then a "more" link to the day) and the day. Every value from a
 * record is escaped; the view's own state (its URL, the nonces for the next request, the links) rides in
 * JSON script blocks as the reference's front end expects, with `<` escaped so no data can end a script.
 */
import { DateTime } from 'luxon';
import { formatCost } from '../../../libs/calendar/cost';
import { EVENT_META, VENUE_META, timesFromMeta } from '../../../libs/calendar/meta';
import { permalinkOf } from '../../../libs/posts/permalink';
import { renderTitle, stripAllTags, trimWords } from '../../../libs/posts/render';
import type { PostDoc } from '../../../libs/posts/types';
import { restUrl, type Site } from '../../../libs/rest/site';
import { eventDateFields } from '../ec/schedule';
import type { Related } from '../related';
import { viewUrl, type ViewContext } from './context';
import { escapeHtml as esc } from '../../../libs/html/escape';

/** Events a month cell lists before it links to the day (the reference's monthEventAmount). */
export const MONTH_EVENTS_PER_DAY = 3;
const EXCERPT_WORDS = 30;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];


/** JSON inside a script element: `<` written as \u003c, so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The title as get_the_title prints it, without markup: texturized quotes are entities, `<`/`>` escaped. */
function titleHtml(title: string): string {
  return renderTitle(stripAllTags(title ?? '')).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The schedule markup of the shared schedule helper, with everything but its own spans escaped. */
function safeSchedule(html: string): string {
  return html
    .split(/(<span class="tribe-event-(?:date-start|date-end|time)">|<\/span>)/)
    .map((part, i) => (i % 2 === 1 ? part : esc(part)))
    .join('');
}

interface Card {
  doc: PostDoc;
  url: string;
  title: string;
  start: DateTime;
  end: DateTime;
  allDay: boolean;
  schedule: string;
  shortSchedule: string;
  /** Days (yyyy-LL-dd, site zone) the event shows on. */
  days: string[];
  /** Venue name as HTML, its plain text, and its address as HTML. */
  venue?: { name: string; plain: string; address: string };
  cost: string;
  excerpt: string;
  image?: { src: string; alt: string };
}

function occupiedDays(start: DateTime, end: DateTime, allDay: boolean): string[] {
  const first = start.startOf('day');
  let last = end.startOf('day');
  // An event that ends at midnight does not occupy the day that midnight begins.
  if (!allDay && end > start && end.equals(last)) last = last.minus({ days: 1 });
  const days: string[] = [];
  for (let d = first; d <= last && days.length < 366; d = d.plus({ days: 1 })) days.push(d.toFormat('yyyy-LL-dd'));
  return days.length ? days : [first.toFormat('yyyy-LL-dd')];
}

function venueOf(doc: PostDoc, related: Related): Card['venue'] {
  const venue = (doc.venues ?? []).map((id) => related.posts.get(id)).find((p) => p && p.status === 'publish');
  if (!venue) return undefined;
  const m = venue.meta ?? {};
  const s = (k: string) => (typeof m[k] === 'string' ? (m[k] as string).trim() : '');
  const region = s(VENUE_META.stateprovince) || s(VENUE_META.state) || s(VENUE_META.province);
  const address = [s(VENUE_META.address), s(VENUE_META.city), region, s(VENUE_META.zip), s(VENUE_META.country)].filter(Boolean).join(', ');
  return { name: titleHtml(venue.title), plain: stripAllTags(venue.title ?? ''), address: esc(address) };
}

function imageOf(doc: PostDoc, related: Related, title: string): Card['image'] {
  const media = doc.featured_media ? related.posts.get(doc.featured_media) : undefined;
  if (!media || typeof media.mime_type !== 'string' || !media.mime_type.startsWith('image/') || !/^https?:\/\//i.test(media.guid ?? '')) return undefined;
  return { src: esc(media.guid), alt: title };
}

export function cardsOf(site: Site, docs: PostDoc[], related: Related, now: Date): Card[] {
  const cards: Card[] = [];
  for (const doc of docs) {
    const meta = doc.meta ?? {};
    const t = timesFromMeta(meta, site.timezone);
    if (!t) continue;
    const { schedule } = eventDateFields(meta, site.timezone, now);
    const title = titleHtml(doc.title);
    const costMeta = { cost: meta[EVENT_META.cost], currencySymbol: meta[EVENT_META.currencySymbol], currencyCode: meta[EVENT_META.currencyCode], currencyPosition: meta[EVENT_META.currencyPosition] };
    const text = stripAllTags(doc.password ? '' : doc.excerpt || doc.content || '');
    cards.push({
      doc,
      url: permalinkOf(site, doc),
      title,
      start: t.start,
      end: t.end,
      allDay: t.allDay,
      schedule: safeSchedule(String(schedule.schedule_details ?? '')),
      shortSchedule: safeSchedule(String(schedule.short_schedule_details ?? '')),
      days: occupiedDays(t.start.setZone(site.timezone), t.end.setZone(site.timezone), t.allDay),
      venue: venueOf(doc, related),
      cost: esc(formatCost(costMeta)),
      excerpt: text ? esc(trimWords(text, EXCERPT_WORDS, '…')) : '',
      image: imageOf(doc, related, title),
    });
  }
  return cards;
}

/** The reference's JSON-LD of the listed events, which its views print for search engines. */
function jsonLd(site: Site, cards: Card[]): string {
  if (!cards.length) return '';
  const items = cards.map((c) => ({
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: stripAllTags(c.doc.title ?? ''),
    description: c.doc.password ? '' : trimWords(stripAllTags(c.doc.excerpt || c.doc.content || ''), 55, '…'),
    url: c.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: c.start.toISO({ suppressMilliseconds: true }),
    endDate: c.end.toISO({ suppressMilliseconds: true }),
    ...(c.venue ? { location: { '@type': 'Place', name: c.venue.plain } } : {}),
  }));
  return `<script type="application/ld+json">${scriptJson(items)}</script>`;
}

export interface ViewState {
  ctx: ViewContext;
  /** The view's own address and the neighbouring ones ('' when there is none). */
  url: string;
  prevUrl: string;
  nextUrl: string;
  nonces: { tvn1: string; tvn2: string };
}

function container(site: Site, state: ViewState, title: string, body: string, ld: string): string {
  const { ctx } = state;
  const viewData = { slug: ctx.view, url: state.url, prev_url: state.prevUrl, next_url: state.nextUrl, rest_url: restUrl(site, '/vendor/views/v2/html'), rest_method: 'POST', display: ctx.past ? 'past' : ctx.view, date: ctx.date.toFormat('yyyy-LL-dd'), search: ctx.search };
  return (
    `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${ctx.view}${ctx.past ? ' tribe-events-view--past' : ''}" data-js="tribe-events-view" data-view-rest-url="${esc(viewData.rest_url)}" data-view-rest-method="POST" data-view-manage-url="1">` +
    `<script data-js="tribe-events-view-nonce-data" type="application/json">${scriptJson(state.nonces)}</script>` +
    `<script data-js="tribe-events-view-data" type="application/json">${scriptJson(viewData)}</script>` +
    `<header class="tribe-events-header"><h2 class="tribe-events-header__title">${title}</h2></header>` +
    body +
    ld +
    `</div>`
  );
}

function nav(kind: string, state: ViewState, prevLabel: string, nextLabel: string): string {
  const item = (dir: 'prev' | 'next', href: string, label: string) =>
    href
      ? `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><a href="${esc(href)}" rel="${dir}" class="tribe-events-c-nav__${dir} tribe-common-b2" data-js="tribe-events-view-link">${label}</a></li>`
      : `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><button class="tribe-events-c-nav__${dir} tribe-common-b2" disabled>${label}</button></li>`;
  return `<nav class="tribe-events-${kind}-nav tribe-events-c-nav"><ul class="tribe-events-c-nav__list">${item('prev', state.prevUrl, prevLabel)}${item('next', state.nextUrl, nextLabel)}</ul></nav>`;
}

function noEvents(ctx: ViewContext, what: string): string {
  const message = ctx.search ? `There were no results found for <strong>&quot;${esc(ctx.search)}&quot;</strong>.` : `There are no ${what}.`;
  return `<div class="tribe-events-c-messages tribe-events-header__messages"><div class="tribe-events-c-messages__message tribe-events-c-messages__message--notice" role="alert"><ul class="tribe-events-c-messages__message-list"><li class="tribe-events-c-messages__message-list-item">${message}</li></ul></div></div>`;
}

function venueHtml(prefix: string, card: Card): string {
  if (!card.venue) return '';
  return `<address class="${prefix}-venue tribe-common-b2"><span class="${prefix}-venue-title tribe-common-b2--bold">${card.venue.name}</span>${card.venue.address ? ` <span class="${prefix}-venue-address">${card.venue.address}</span>` : ''}</address>`;
}

function eventArticle(prefix: string, card: Card, schedule: string): string {
  const image = card.image ? `<div class="${prefix}-featured-image-wrapper"><a href="${esc(card.url)}" class="${prefix}-featured-image-link"><img src="${card.image.src}" alt="${card.image.alt}" class="${prefix}-featured-image" /></a></div>` : '';
  return (
    `<article class="${prefix} post-${card.doc.id} vendor_events type-vendor_events status-publish${card.doc.featured ? ` ${prefix}--featured` : ''}">` +
    image +
    `<div class="${prefix}-details"><header class="${prefix}-header">` +
    `<div class="${prefix}-datetime-wrapper tribe-common-b2"><time class="${prefix}-datetime" datetime="${card.start.toFormat('yyyy-LL-dd')}">${schedule}</time></div>` +
    `<h3 class="${prefix}-title tribe-common-h6 tribe-common-h4--min-medium"><a href="${esc(card.url)}" title="${card.title}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${card.title}</a></h3>` +
    venueHtml(prefix, card) +
    `</header>` +
    (card.excerpt ? `<div class="${prefix}-description tribe-common-b2 tribe-common-a11y-hidden"><p>${card.excerpt}</p></div>` : '') +
    (card.cost ? `<div class="${prefix}-cost tribe-common-b3"><span class="tribe-events-c-small-cta__price">${card.cost}</span></div>` : '') +
    `</div></article>`
  );
}

export function renderList(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-list__event';
  let body = '';
  let month = '';
  for (const card of cards) {
    const day = card.start.setZone(site.timezone);
    const m = day.toFormat('yyyy-LL');
    if (m !== month) {
      month = m;
      body += `<h3 class="tribe-events-calendar-list__month-separator"><time class="tribe-events-calendar-list__month-separator-text tribe-common-h7 tribe-common-h6--min-medium tribe-common-h--alt" datetime="${m}">${day.setLocale('en-US').toFormat('LLLL yyyy')}</time></h3>`;
    }
    body +=
      `<div class="tribe-common-g-row tribe-events-calendar-list__event-row">` +
      `<div class="tribe-events-calendar-list__event-date-tag tribe-common-g-col"><time class="tribe-events-calendar-list__event-date-tag-datetime" datetime="${day.toFormat('yyyy-LL-dd')}" aria-hidden="true">` +
      `<span class="tribe-events-calendar-list__event-date-tag-weekday">${day.setLocale('en-US').toFormat('ccc')}</span><span class="tribe-events-calendar-list__event-date-tag-daynum tribe-common-h5 tribe-common-h4--min-medium">${day.day}</span></time></div>` +
      `<div class="tribe-events-calendar-list__event-wrapper tribe-common-g-col">${eventArticle(prefix, card, card.schedule)}</div></div>`;
  }
  const list = cards.length ? `<div class="tribe-events-calendar-list">${body}</div>` : noEvents(state.ctx, state.ctx.past ? 'past events' : 'upcoming events');
  const label = state.ctx.past ? 'Past Events' : 'Upcoming Events';
  return container(site, state, label, list + nav('calendar-list', state, 'Previous Events', 'Next Events'), jsonLd(site, cards));
}

export function renderMonth(site: Site, state: ViewState, cards: Card[], today: DateTime): string {
  const { date } = state.ctx;
  const first = date.startOf('month');
  const gridStart = first.minus({ days: first.weekday - 1 });
  const last = date.endOf('month').startOf('day');
  const gridEnd = last.plus({ days: 7 - last.weekday });
  const byDay = new Map<string, Card[]>();
  for (const card of cards) for (const d of card.days) byDay.set(d, [...(byDay.get(d) ?? []), card]);
  const prefix = 'tribe-events-calendar-month__calendar-event';
  let weeks = '';
  for (let week = gridStart; week <= gridEnd; week = week.plus({ days: 7 })) {
    let row = '';
    for (let d = week; d < week.plus({ days: 7 }); d = d.plus({ days: 1 })) {
      const key = d.toFormat('yyyy-LL-dd');
      const dayCards = byDay.get(key) ?? [];
      const classes = ['tribe-events-calendar-month__day'];
      if (d.month !== first.month) classes.push('tribe-events-calendar-month__day--other-month');
      if (key === today.toFormat('yyyy-LL-dd')) classes.push('tribe-events-calendar-month__day--current');
      else if (d < today) classes.push('tribe-events-calendar-month__day--past');
      const shown = dayCards.slice(0, MONTH_EVENTS_PER_DAY);
      const more = dayCards.length - shown.length;
      const dayUrl = viewUrl(site, { ...state.ctx, view: 'day', date: d, dateGiven: true, page: 1, past: false });
      row +=
        `<div class="${classes.join(' ')}" role="gridcell" aria-labelledby="tribe-events-calendar-day-${key}" data-js="tribe-events-month-grid-cell">` +
        `<h3 class="tribe-events-calendar-month__day-date tribe-common-h6 tribe-common-h--alt"><span class="tribe-common-a11y-visual-hide">${dayCards.length} event${dayCards.length === 1 ? '' : 's'}, </span>` +
        `<time class="tribe-events-calendar-month__day-date-daynum" datetime="${key}">${d.day}</time></h3>` +
        `<div class="tribe-events-calendar-month__events">` +
        shown
          .map(
            (c) =>
              `<article class="${prefix} post-${c.doc.id}"><div class="${prefix}-details"><div class="${prefix}-datetime"><time datetime="${c.start.toFormat('yyyy-LL-dd')}">${c.shortSchedule}</time></div>` +
              `<h3 class="${prefix}-title tribe-common-h8 tribe-common-h--alt"><a href="${esc(c.url)}" title="${c.title}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${c.title}</a></h3></div></article>`,
          )
          .join('') +
        `</div>` +
        (more > 0 ? `<div class="tribe-events-calendar-month__more-events"><a href="${esc(dayUrl)}" class="tribe-events-calendar-month__more-events-link tribe-common-h8 tribe-common-h--alt" data-js="tribe-events-view-link">+ ${more} More</a></div>` : '') +
        `</div>`;
    }
    weeks += `<div class="tribe-events-calendar-month__week" role="row" data-js="tribe-events-month-grid-row">${row}</div>`;
  }
  const header = WEEKDAYS.map((w) => `<div class="tribe-events-calendar-month__header-column" role="columnheader" aria-label="${w}"><h3 class="tribe-events-calendar-month__header-column-title tribe-common-b3"><span aria-hidden="true">${w.slice(0, 3)}</span></h3></div>`).join('');
  const grid =
    `<div class="tribe-events-calendar-month" role="grid" aria-readonly="true" data-js="tribe-events-month-grid">` +
    `<header class="tribe-events-calendar-month__header" role="rowgroup"><div role="row" class="tribe-events-calendar-month__header-row">${header}</div></header>` +
    `<div class="tribe-events-calendar-month__body" role="rowgroup">${weeks}</div></div>`;
  const messages = cards.length ? '' : noEvents(state.ctx, `upcoming events this month`);
  return container(site, state, first.setLocale('en-US').toFormat('LLLL yyyy'), messages + grid + nav('calendar-month', state, 'Previous month', 'Next month'), jsonLd(site, cards));
}

export function renderDay(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-day__event';
  const key = state.ctx.date.toFormat('yyyy-LL-dd');
  const body = cards.length
    ? `<div class="tribe-events-calendar-day">${cards.map((c) => eventArticle(prefix, c, c.allDay ? 'All day' : c.schedule)).join('')}</div>`
    : noEvents(state.ctx, `upcoming events on ${state.ctx.date.setLocale('en-US').toFormat('LLLL d, yyyy')}`);
  return container(site, state, `<time datetime="${key}">${state.ctx.date.setLocale('en-US').toFormat('LLLL d, yyyy')}</time>`, body + nav('calendar-day', state, 'Previous Day', 'Next Day'), jsonLd(site, cards));
}
