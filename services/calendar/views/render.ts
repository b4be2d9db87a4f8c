/**
 * The HTML of the calendar views (the reference's Views V2 templates, in their class names), printed
 * inside the page shell (shell.ts: the top bar with previous/next, today, the view's title and the view
 * selector, and the view's state in JSON script blocks): the list (month separators, one date tag per
 * day, schedule, venue, excerpt, cost, paging links), the month grid (a table of weeks from Monday with
 * seven weekday columns, up to three events a day then a "more" link to the day) or the day. Every value
 * from a record is escaped when its card is made (cards.ts). The same markup is the vendor/views/v2/html
 * answer and the public calendar page.
 */
import { DateTime } from 'luxon';
import type { Site } from '../../../libs/rest/site';
import { zoneLabel, type Card } from './cards';
import { viewUrl } from './context';
import { container, jsonLd, nav, noEvents, type Labels, type ViewState } from './shell';
import { escapeHtml as esc } from '../../../libs/html/escape';

/** Events a month cell lists before it links to the day (the reference's monthEventAmount). */
export const MONTH_EVENTS_PER_DAY = 3;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function venueHtml(prefix: string, card: Card): string {
  if (!card.venue) return '';
  return `<address class="${prefix}-venue tribe-common-b2"><span class="${prefix}-venue-title tribe-common-b2--bold">${card.venue.name}</span>${card.venue.address ? ` <span class="${prefix}-venue-address">${card.venue.address}</span>` : ''}</address>`;
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
const MONTH_LABELS: Labels = { prev: 'Previous month', next: 'Next month' };
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
  const list = cards.length
    ? `<div class="tribe-events-calendar-list">${body}</div>`
    : noEvents(state.ctx, state.ctx.past ? 'past events' : 'upcoming events', state.unknown);
  const label = state.ctx.past ? 'Past Events' : 'Upcoming Events';
  return container(site, state, label, label, LIST_LABELS, list + nav('calendar-list', state, LIST_LABELS), jsonLd(cards), cards.length);
}

const timeOf = (dt: DateTime) => dt.setLocale('en-US').toFormat('h:mm a').toLowerCase();

/** What a month cell says of an event's time on one of its days. */
function monthTime(card: Card, key: string): string {
  if (!card.multiDay) return card.shortSchedule;
  const first = card.days[0] === key;
  const last = card.days[card.days.length - 1] === key;
  if (card.allDay || (!first && !last)) return 'All day';
  if (first) return `From <span class="tribe-event-date-start">${timeOf(card.start)}</span>${zoneLabel(card)}`;
  return `Until <span class="tribe-event-time">${timeOf(card.end)}</span>${zoneLabel(card)}`;
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
                  `<li class="${prefix}${kind}${multi} post-${c.doc.id}"><div class="${prefix}-details"><div class="${prefix}-datetime"><time datetime="${isoOf(c.start, c.allDay)}">${monthTime(c, key)}</time></div>` +
                  `<h3 class="${prefix}-title tribe-common-h8 tribe-common-h--alt"><a href="${esc(c.url)}" rel="bookmark" class="${prefix}-title-link tribe-common-anchor-thin">${c.title}</a></h3></div></li>`
                );
              })
              .join('') +
            `</ul>`
          : '') +
        (more > 0
          ? `<div class="tribe-events-calendar-month__more-events"><a href="${esc(dayUrl)}" class="tribe-events-calendar-month__more-events-link tribe-common-h8 tribe-common-h--alt" data-js="tribe-events-view-link">+ ${more} More<span class="tribe-common-a11y-visual-hide"> events on ${d.setLocale('en-US').toFormat('LLLL d')}</span></a></div>`
          : '') +
        `</td>`;
    }
    weeks += `<tr class="tribe-events-calendar-month__week" data-js="tribe-events-month-grid-row">${row}</tr>`;
  }
  const monthName = first.setLocale('en-US').toFormat('LLLL yyyy');
  const header = WEEKDAYS.map(
    (w) =>
      `<th class="tribe-events-calendar-month__header-column" scope="col" abbr="${w}"><span class="tribe-events-calendar-month__header-column-title">${w.slice(0, 3)}</span></th>`,
  ).join('');
  const grid =
    `<table class="tribe-events-calendar-month" data-js="tribe-events-month-grid">` +
    `<caption class="tribe-common-a11y-visual-hide">Events in ${monthName}</caption>` +
    `<thead class="tribe-events-calendar-month__header"><tr class="tribe-events-calendar-month__header-row">${header}</tr></thead>` +
    `<tbody class="tribe-events-calendar-month__body">${weeks}</tbody></table>`;
  const messages = cards.length ? '' : noEvents(state.ctx, `upcoming events this month`, state.unknown);
  return container(
    site,
    state,
    monthName,
    monthName,
    MONTH_LABELS,
    messages + grid + nav('calendar-month', state, MONTH_LABELS),
    jsonLd(cards.filter((c) => shownCards.has(c))),
    cards.length,
  );
}

export function renderDay(site: Site, state: ViewState, cards: Card[]): string {
  const prefix = 'tribe-events-calendar-day__event';
  const key = state.ctx.date.toFormat('yyyy-LL-dd');
  const longDate = state.ctx.date.setLocale('en-US').toFormat('LLLL d, yyyy');
  const body = cards.length
    ? `<div class="tribe-events-calendar-day">${cards.map((c) => eventArticle(prefix, c, c.allDay ? 'All day' : c.schedule, 'h3')).join('')}</div>`
    : noEvents(state.ctx, `upcoming events on ${longDate}`, state.unknown);
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
