/**
 * The HTML of the calendar views (the reference's Views V2 templates, in their class names): a top bar
 * (previous/next, today, the view's title and the view selector), then the list (month separators, one
 * date tag per day, schedule, venue, excerpt, cost, paging links), the month grid (a table of weeks from
 * Monday with seven weekday columns, up to three events a day then a "more" link to the day) or the day.
 * Every value from a record is escaped; the view's own state (its URL, the nonces for the next request,
 * the links) rides in JSON script blocks as the reference's front end expects, with `<` escaped so no
 * data can end a script. The same markup is the vendor/views/v2/html answer and the public calendar page.
 */
import { DateTime } from 'luxon';
import { costDetails, formatCost } from '../../../libs/calendar/cost';
import { EVENT_META, ORGANIZER_META, VENUE_META, timesFromMeta } from '../../../libs/calendar/meta';
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
/** The description search engines are given: a short plain-text excerpt. */
const LD_DESCRIPTION_WORDS = 25;
const LD_DESCRIPTION_CHARS = 200;
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
  /** Whether the event spans more than one day. */
  multiDay: boolean;
  schedule: string;
  shortSchedule: string;
  /** Days (yyyy-LL-dd, site zone) the event shows on. */
  days: string[];
  /** Venue name as HTML, its plain text, its address as HTML and its address parts (plain text). */
  venue?: { name: string; plain: string; address: string; parts: Record<string, string> };
  organizers: Array<{ name: string; url: string }>;
  cost: string;
  /** The cost's lowest value and currency code, for search engines. */
  price?: { value: string; currency: string };
  excerpt: string;
  /** The plain-text description, untrimmed ('' for a protected event). */
  text: string;
  image?: { src: string; alt: string; url: string };
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

const metaText = (m: Record<string, unknown>, k: string) => (typeof m[k] === 'string' ? (m[k] as string).trim() : '');

function venueOf(doc: PostDoc, related: Related): Card['venue'] {
  const venue = (doc.venues ?? []).map((id) => related.posts.get(id)).find((p) => p && p.status === 'publish');
  if (!venue) return undefined;
  const m = venue.meta ?? {};
  const s = (k: string) => metaText(m, k);
  const region = s(VENUE_META.stateprovince) || s(VENUE_META.state) || s(VENUE_META.province);
  const parts = { streetAddress: s(VENUE_META.address), addressLocality: s(VENUE_META.city), addressRegion: region, postalCode: s(VENUE_META.zip), addressCountry: s(VENUE_META.country) };
  const address = [parts.streetAddress, parts.addressLocality, region, parts.postalCode, parts.addressCountry].filter(Boolean).join(', ');
  return { name: titleHtml(venue.title), plain: stripAllTags(venue.title ?? ''), address: esc(address), parts };
}

function organizersOf(site: Site, doc: PostDoc, related: Related): Card['organizers'] {
  const out: Card['organizers'] = [];
  for (const id of doc.organizers ?? []) {
    const o = related.posts.get(id);
    if (!o || o.status !== 'publish') continue;
    const website = metaText(o.meta ?? {}, ORGANIZER_META.website);
    out.push({ name: stripAllTags(o.title ?? ''), url: /^https?:\/\//i.test(website) ? website : permalinkOf(site, o) });
  }
  return out;
}

function imageOf(doc: PostDoc, related: Related, title: string): Card['image'] {
  const media = doc.featured_media ? related.posts.get(doc.featured_media) : undefined;
  if (!media || typeof media.mime_type !== 'string' || !media.mime_type.startsWith('image/') || !/^https?:\/\//i.test(media.guid ?? '')) return undefined;
  return { src: esc(media.guid), alt: title, url: media.guid };
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
    const details = costDetails(costMeta);
    const text = stripAllTags(doc.password ? '' : doc.excerpt || doc.content || '');
    const days = occupiedDays(t.start.setZone(site.timezone), t.end.setZone(site.timezone), t.allDay);
    cards.push({
      doc,
      url: permalinkOf(site, doc),
      title,
      start: t.start,
      end: t.end,
      allDay: t.allDay,
      multiDay: days.length > 1,
      schedule: safeSchedule(String(schedule.schedule_details ?? '')),
      shortSchedule: safeSchedule(String(schedule.short_schedule_details ?? '')),
      days,
      venue: venueOf(doc, related),
      organizers: organizersOf(site, doc, related),
      cost: esc(formatCost(costMeta, details)),
      ...(details.values.length ? { price: { value: details.values[0], currency: details.currency_code || metaText(meta, EVENT_META.currencyCode) } } : {}),
      excerpt: text ? esc(trimWords(text, EXCERPT_WORDS, '…')) : '',
      text,
      image: imageOf(doc, related, title),
    });
  }
  return cards;
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
function jsonLd(cards: Card[]): string {
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
}

interface Labels {
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

function container(site: Site, state: ViewState, title: string, plainTitle: string, labels: Labels, body: string, ld: string): string {
  const { ctx } = state;
  const viewData = { slug: ctx.view, title: plainTitle, url: state.url, prev_url: state.prevUrl, next_url: state.nextUrl, rest_url: restUrl(site, '/vendor/views/v2/html'), rest_method: 'POST', display: ctx.past ? 'past' : ctx.view, date: ctx.date.toFormat('yyyy-LL-dd'), search: ctx.search };
  return (
    `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${ctx.view}${ctx.past ? ' tribe-events-view--past' : ''}" data-js="tribe-events-view" data-view-rest-url="${esc(viewData.rest_url)}" data-view-rest-method="POST" data-view-manage-url="1">` +
    `<script data-js="tribe-events-view-nonce-data" type="application/json">${scriptJson(state.nonces)}</script>` +
    `<script data-js="tribe-events-view-data" type="application/json">${scriptJson(viewData)}</script>` +
    topBar(site, state, title, labels) +
    body +
    ld +
    `</div>`
  );
}

function nav(kind: string, state: ViewState, labels: Labels): string {
  const item = (dir: 'prev' | 'next', href: string, label: string) =>
    href
      ? `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><a href="${esc(href)}" rel="${dir}" class="tribe-events-c-nav__${dir} tribe-common-b2" data-js="tribe-events-view-link">${label}</a></li>`
      : `<li class="tribe-events-c-nav__list-item tribe-events-c-nav__list-item--${dir}"><button class="tribe-events-c-nav__${dir} tribe-common-b2" disabled>${label}</button></li>`;
  return `<nav class="tribe-events-${kind}-nav tribe-events-c-nav" aria-label="${labels.prev} and ${labels.next.toLowerCase()}"><ul class="tribe-events-c-nav__list">${item('prev', state.prevUrl, labels.prev)}${item('next', state.nextUrl, labels.next)}</ul></nav>`;
}

function noEvents(ctx: ViewContext, what: string): string {
  const message = ctx.search ? `There were no results found for <strong>&quot;${esc(ctx.search)}&quot;</strong>.` : `There are no ${what}.`;
  return `<div class="tribe-events-c-messages tribe-events-header__messages"><div class="tribe-events-c-messages__message tribe-events-c-messages__message--notice" role="status"><ul class="tribe-events-c-messages__message-list"><li class="tribe-events-c-messages__message-list-item">${message}</li></ul></div></div>`;
}

function venueHtml(prefix: string, card: Card): string {
  if (!card.venue) return '';
  return `<address class="${prefix}-venue tribe-common-b2"><span class="${prefix}-venue-title tribe-common-b2--bold">${card.venue.name}</span>${card.venue.address ? ` <span class="${prefix}-venue-address">${card.venue.address}</span>` : ''}</address>`;
}

const isoOf = (dt: DateTime, allDay: boolean) => (allDay ? dt.toFormat('yyyy-LL-dd') : dt.toISO({ suppressMilliseconds: true, suppressSeconds: true }) ?? '');

function eventArticle(prefix: string, card: Card, schedule: string, heading: 'h3' | 'h4'): string {
  const image = card.image ? `<div class="${prefix}-featured-image-wrapper"><a href="${esc(card.url)}" class="${prefix}-featured-image-link" tabindex="-1" aria-hidden="true"><img src="${card.image.src}" alt="" loading="lazy" class="${prefix}-featured-image" /></a></div>` : '';
  return (
    `<article class="${prefix} post-${card.doc.id} vendor_events type-vendor_events status-publish${card.doc.featured ? ` ${prefix}--featured` : ''}${card.allDay ? ` ${prefix}--all-day` : ''}${card.multiDay ? ` ${prefix}--multiday` : ''}">` +
    image +
    `<div class="${prefix}-details"><header class="${prefix}-header">` +
    `<div class="${prefix}-datetime-wrapper tribe-common-b2"><time class="${prefix}-datetime" datetime="${isoOf(card.start, card.allDay)}">${schedule}</time></div>` +
    `<${heading} class="${prefix}-title tribe-common-h6 tribe-common-h4--min-medium"><a href="${esc(card.url)}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${card.title}</a></${heading}>` +
    venueHtml(prefix, card) +
    `</header>` +
    (card.excerpt ? `<div class="${prefix}-description tribe-common-b2"><p>${card.excerpt}</p></div>` : '') +
    (card.cost ? `<div class="${prefix}-cost tribe-common-b3"><span class="tribe-common-a11y-visual-hide">Cost: </span><span class="tribe-events-c-small-cta__price">${card.cost}</span></div>` : '') +
    `</div></article>`
  );
}

const LIST_LABELS: Labels = { prev: 'Previous Events', next: 'Next Events' };
const MONTH_LABELS: Labels = { prev: 'Previous month', next: 'Next month' };
const DAY_LABELS: Labels = { prev: 'Previous Day', next: 'Next Day' };

export function renderList(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-list__event';
  const todayKey = state.today.toFormat('yyyy-LL-dd');
  let body = '';
  let month = '';
  // One row per day: the date tag, then that day's events.
  const days: Array<{ day: DateTime; cards: Card[] }> = [];
  for (const card of cards) {
    const day = card.start.setZone(site.timezone);
    const last = days[days.length - 1];
    if (last && last.day.hasSame(day, 'day')) last.cards.push(card);
    else days.push({ day, cards: [card] });
  }
  for (const { day, cards: dayCards } of days) {
    const m = day.toFormat('yyyy-LL');
    if (m !== month) {
      month = m;
      body += `<h3 class="tribe-events-calendar-list__month-separator"><time class="tribe-events-calendar-list__month-separator-text tribe-common-h7 tribe-common-h6--min-medium tribe-common-h--alt" datetime="${m}">${day.setLocale('en-US').toFormat('LLLL yyyy')}</time></h3>`;
    }
    const key = day.toFormat('yyyy-LL-dd');
    body +=
      `<div class="tribe-common-g-row tribe-events-calendar-list__event-row${key === todayKey ? ' tribe-events-calendar-list__event-row--today' : ''}">` +
      `<div class="tribe-events-calendar-list__event-date-tag tribe-common-g-col"><time class="tribe-events-calendar-list__event-date-tag-datetime" datetime="${key}" aria-hidden="true">` +
      `<span class="tribe-events-calendar-list__event-date-tag-weekday">${day.setLocale('en-US').toFormat('ccc')}</span><span class="tribe-events-calendar-list__event-date-tag-daynum tribe-common-h5 tribe-common-h4--min-medium">${day.day}</span></time></div>` +
      `<div class="tribe-events-calendar-list__event-wrapper tribe-common-g-col">${dayCards.map((card) => eventArticle(prefix, card, card.schedule, 'h4')).join('')}</div></div>`;
  }
  const list = cards.length ? `<div class="tribe-events-calendar-list">${body}</div>` : noEvents(state.ctx, state.ctx.past ? 'past events' : 'upcoming events');
  const label = state.ctx.past ? 'Past Events' : 'Upcoming Events';
  return container(site, state, label, label, LIST_LABELS, list + nav('calendar-list', state, LIST_LABELS), jsonLd(cards));
}

const timeOf = (dt: DateTime) => dt.setLocale('en-US').toFormat('h:mm a').toLowerCase();

/** What a month cell says of an event's time on one of its days. */
function monthTime(site: Site, card: Card, key: string): string {
  if (!card.multiDay) return card.shortSchedule;
  const first = card.days[0] === key;
  const last = card.days[card.days.length - 1] === key;
  if (card.allDay || (!first && !last)) return 'All day';
  if (first) return `From <span class="tribe-event-date-start">${timeOf(card.start.setZone(site.timezone))}</span>`;
  return `Until <span class="tribe-event-time">${timeOf(card.end.setZone(site.timezone))}</span>`;
}

export function renderMonth(site: Site, state: ViewState, cards: Card[], today: DateTime): string {
  const { date } = state.ctx;
  const first = date.startOf('month');
  const gridStart = first.minus({ days: first.weekday - 1 });
  const last = date.endOf('month').startOf('day');
  const gridEnd = last.plus({ days: 7 - last.weekday });
  const byDay = new Map<string, Card[]>();
  for (const card of cards) {
    for (const d of card.days) {
      const list = byDay.get(d);
      if (list) list.push(card);
      else byDay.set(d, [card]);
    }
  }
  const prefix = 'tribe-events-calendar-month__calendar-event';
  const shownCards = new Set<Card>();
  const todayKey = today.toFormat('yyyy-LL-dd');
  let weeks = '';
  for (let week = gridStart; week <= gridEnd; week = week.plus({ days: 7 })) {
    let row = '';
    for (let d = week; d < week.plus({ days: 7 }); d = d.plus({ days: 1 })) {
      const key = d.toFormat('yyyy-LL-dd');
      const dayCards = byDay.get(key) ?? [];
      const classes = ['tribe-events-calendar-month__day'];
      if (d.month !== first.month) classes.push('tribe-events-calendar-month__day--other-month');
      if (key === todayKey) classes.push('tribe-events-calendar-month__day--current');
      else if (d < today) classes.push('tribe-events-calendar-month__day--past');
      classes.push(dayCards.length ? 'tribe-events-calendar-month__day--has-events' : 'tribe-events-calendar-month__day--empty');
      const shown = dayCards.slice(0, MONTH_EVENTS_PER_DAY);
      for (const c of shown) shownCards.add(c);
      const more = dayCards.length - shown.length;
      const dayUrl = viewUrl(site, { ...state.ctx, view: 'day', date: d, dateGiven: true, page: 1, past: false });
      const count = `<span class="tribe-common-a11y-visual-hide">${d.setLocale('en-US').toFormat('cccc, LLLL d')}, ${dayCards.length} event${dayCards.length === 1 ? '' : 's'}</span>`;
      const num = `<span class="tribe-events-calendar-month__day-date-weekday">${d.setLocale('en-US').toFormat('ccc')} </span><time class="tribe-events-calendar-month__day-date-daynum" datetime="${key}">${d.day}</time>`;
      row +=
        `<td class="${classes.join(' ')}"${key === todayKey ? ' aria-current="date"' : ''} data-js="tribe-events-month-grid-cell">` +
        `<div class="tribe-events-calendar-month__day-date tribe-common-h6 tribe-common-h--alt">` +
        (dayCards.length
          ? `<a href="${esc(dayUrl)}" class="tribe-events-calendar-month__day-date-link" data-js="tribe-events-view-link"><span aria-hidden="true">${num}</span>${count}</a>`
          : `<span aria-hidden="true">${num}</span>${count}`) +
        `</div>` +
        (shown.length
          ? `<ul class="tribe-events-calendar-month__events">` +
            shown
              .map((c) => {
                const kind = c.allDay || (c.multiDay && c.days[0] !== key && c.days[c.days.length - 1] !== key) ? ` ${prefix}--all-day` : '';
                const multi = c.multiDay ? ` ${prefix}--multiday` : '';
                return (
                  `<li class="${prefix}${kind}${multi} post-${c.doc.id}"><div class="${prefix}-details"><div class="${prefix}-datetime"><time datetime="${isoOf(c.start, c.allDay)}">${monthTime(site, c, key)}</time></div>` +
                  `<h3 class="${prefix}-title tribe-common-h8 tribe-common-h--alt"><a href="${esc(c.url)}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${c.title}</a></h3></div></li>`
                );
              })
              .join('') +
            `</ul>`
          : '') +
        (more > 0 ? `<div class="tribe-events-calendar-month__more-events"><a href="${esc(dayUrl)}" class="tribe-events-calendar-month__more-events-link tribe-common-h8 tribe-common-h--alt" data-js="tribe-events-view-link">+ ${more} More<span class="tribe-common-a11y-visual-hide"> events on ${d.setLocale('en-US').toFormat('LLLL d')}</span></a></div>` : '') +
        `</td>`;
    }
    weeks += `<tr class="tribe-events-calendar-month__week" data-js="tribe-events-month-grid-row">${row}</tr>`;
  }
  const monthName = first.setLocale('en-US').toFormat('LLLL yyyy');
  const header = WEEKDAYS.map((w) => `<th class="tribe-events-calendar-month__header-column" scope="col" abbr="${w}"><span class="tribe-events-calendar-month__header-column-title">${w.slice(0, 3)}</span></th>`).join('');
  const grid =
    `<table class="tribe-events-calendar-month" data-js="tribe-events-month-grid">` +
    `<caption class="tribe-common-a11y-visual-hide">Events in ${monthName}</caption>` +
    `<thead class="tribe-events-calendar-month__header"><tr class="tribe-events-calendar-month__header-row">${header}</tr></thead>` +
    `<tbody class="tribe-events-calendar-month__body">${weeks}</tbody></table>`;
  const messages = cards.length ? '' : noEvents(state.ctx, `upcoming events this month`);
  return container(site, state, monthName, monthName, MONTH_LABELS, messages + grid + nav('calendar-month', state, MONTH_LABELS), jsonLd(cards.filter((c) => shownCards.has(c))));
}

export function renderDay(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-day__event';
  const key = state.ctx.date.toFormat('yyyy-LL-dd');
  const longDate = state.ctx.date.setLocale('en-US').toFormat('LLLL d, yyyy');
  const body = cards.length
    ? `<div class="tribe-events-calendar-day">${cards.map((c) => eventArticle(prefix, c, c.allDay ? 'All day' : c.schedule, 'h3')).join('')}</div>`
    : noEvents(state.ctx, `upcoming events on ${longDate}`);
  const current = key === state.today.toFormat('yyyy-LL-dd') ? ' aria-current="date"' : '';
  const weekday = state.ctx.date.setLocale('en-US').toFormat('cccc');
  return container(site, state, `<time datetime="${key}"${current}>${longDate}</time>`, `${weekday}, ${longDate}`, DAY_LABELS, body + nav('calendar-day', state, DAY_LABELS), jsonLd(cards));
}
