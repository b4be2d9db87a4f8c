/**
 * The HTML of the calendar views (the reference's Views V2 templates, in their class names), printed
 * inside the page shell (shell.ts: the top bar with previous/next, today, the view's title and the view
 * selector, and the view's state in JSON script blocks): the list (month separators, one date tag per
 * day, schedule, venue, excerpt, cost, paging links) or the day; the month grid is month.ts. Every value
 * from a record is escaped when its card is made (cards.ts). The same markup is the vendor/views/v2/html
 * answer and the public calendar page.
 */
import { DateTime } from 'luxon';
import type { Site } from '#libs/rest/site';
import type { Card } from './cards';
import { container, jsonLd, nav, noEvents, type Labels, type ViewState } from './shell';
import { escapeHtml as esc } from '#libs/html/escape';

function venueHtml(prefix: string, card: Card): string {
  if (!card.venue) return '';
  const distance = card.distance ? ` <span class="${prefix}-distance tribe-common-b3">· ${esc(card.distance)} away</span>` : '';
  return `<address class="${prefix}-venue tribe-common-b2"><span class="${prefix}-venue-title tribe-common-b2--bold">${card.venue.name}</span>${card.venue.address ? ` <span class="${prefix}-venue-address">${card.venue.address}</span>` : ''}${distance}</address>`;
}

const isoOf = (dt: DateTime, allDay: boolean) => (allDay ? dt.toFormat('yyyy-LL-dd') : (dt.toISO({ suppressMilliseconds: true, suppressSeconds: true }) ?? ''));

function eventArticle(prefix: string, card: Card, schedule: string, heading: 'h3' | 'h4'): string {
  const image = card.image
    ? `<div class="${prefix}-featured-image-wrapper"><a href="${esc(card.url)}" class="${prefix}-featured-image-link" tabindex="-1" aria-hidden="true"><img src="${card.image.src}" alt="" loading="lazy" class="${prefix}-featured-image" /></a></div>`
    : '';
  return (
    `<article class="${prefix} post-${card.doc.id} vendor_events type-vendor_events status-publish${card.doc.featured ? ` ${prefix}--featured` : ''}${card.allDay ? ` ${prefix}--all-day` : ''}${card.multiDay ? ` ${prefix}--multiday` : ''}">` +
    image +
    `<div class="${prefix}-details"><header class="${prefix}-header">` +
    `<div class="${prefix}-datetime-wrapper tribe-common-b2"><time class="${prefix}-datetime" datetime="${isoOf(card.start, card.allDay)}">${schedule}</time></div>` +
    `<${heading} class="${prefix}-title tribe-common-h6 tribe-common-h4--min-medium"><a href="${esc(card.url)}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${card.title}</a></${heading}>` +
    venueHtml(prefix, card) +
    `</header>` +
    (card.excerpt ? `<div class="${prefix}-description tribe-common-b2"><p>${card.excerpt}</p></div>` : '') +
    (card.cost
      ? `<div class="${prefix}-cost tribe-common-b3"><span class="tribe-common-a11y-visual-hide">Cost: </span><span class="tribe-events-c-small-cta__price">${card.cost}</span></div>`
      : '') +
    `</div></article>`
  );
}

/** Cards by the wall-clock start they are shown at (stable: equal starts keep the store's order). */
export function byShownStart(cards: Card[]): Card[] {
  const key = (c: Card) => c.start.toFormat('yyyy-LL-dd HH:mm:ss');
  return [...cards].sort((a, b) => (key(a) === key(b) ? 0 : key(a) < key(b) ? -1 : 1));
}

const LIST_LABELS: Labels = { prev: 'Previous Events', next: 'Next Events' };
const DAY_LABELS: Labels = { prev: 'Previous Day', next: 'Next Day' };

export function renderList(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-list__event';
  const todayKey = state.today.toFormat('yyyy-LL-dd');
  let body = '';
  let month = '';
  // One row per day: the date tag, then that day's events.
  const days: Array<{ day: DateTime; cards: Card[] }> = [];
  // By the day and time each event is shown at (in its own zone, it may differ from the order of the instants).
  const ordered = byShownStart(cards);
  for (const card of ordered) {
    const day = card.start;
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
  const list = cards.length ? `<div class="tribe-events-calendar-list">${body}</div>` : noEvents(state, state.ctx.past ? 'past events' : 'upcoming events');
  const label = state.ctx.past ? 'Past Events' : 'Upcoming Events';
  return container(site, state, label, label, LIST_LABELS, list + nav('calendar-list', state, LIST_LABELS), jsonLd(cards), cards.length);
}

export function renderDay(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-day__event';
  const key = state.ctx.date.toFormat('yyyy-LL-dd');
  const longDate = state.ctx.date.setLocale('en-US').toFormat('LLLL d, yyyy');
  const body = cards.length
    ? `<div class="tribe-events-calendar-day">${cards.map((c) => eventArticle(prefix, c, c.allDay ? 'All day' : c.schedule, 'h3')).join('')}</div>`
    : noEvents(state, `upcoming events on ${longDate}`);
  const current = key === state.today.toFormat('yyyy-LL-dd') ? ' aria-current="date"' : '';
  const weekday = state.ctx.date.setLocale('en-US').toFormat('cccc');
  return container(
    site,
    state,
    `<time datetime="${key}"${current}>${longDate}</time>`,
    `${weekday}, ${longDate}`,
    DAY_LABELS,
    body + nav('calendar-day', state, DAY_LABELS),
    jsonLd(cards),
    cards.length,
  );
}
