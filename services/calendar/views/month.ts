/**
 * The month grid (the reference's month view): a table of weeks from Monday with seven weekday
 * columns. Multi-day and all-day events are one bar across the days they span in a week: the bar sits
 * in the cell of its first day that week, as wide as its days (a width class per span, no inline
 * style), in the same row ("slot") in every cell it crosses; the cells it crosses hold a copy that keeps
 * that row free on wide screens and is the day's entry in the phone agenda. A cell shows up to
 * MONTH_EVENTS_PER_DAY rows then "+N more", linking to the day; the rest are printed too, hidden on wide
 * screens, so the phone agenda lists every event. Every event link carries a tooltip (its time, venue
 * and excerpt) in its title.
 */
import type { DateTime } from 'luxon';
import { trimWords } from '#libs/posts/render';
import type { Site } from '#libs/rest/site';
import { zoneLabel, type Card } from './cards';
import { viewUrl } from './context';
import { container, jsonLd, nav, noEvents, type Labels, type ViewState } from './shell';
import { escapeHtml as esc } from '#libs/html/escape';

/** Events a month cell lists before it links to the day (the reference's monthEventAmount). */
export const MONTH_EVENTS_PER_DAY = 3;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_LABELS: Labels = { prev: 'Previous month', next: 'Next month' };
const PREFIX = 'tribe-events-calendar-month__calendar-event';
const TOOLTIP_WORDS = 25;

const isoOf = (dt: DateTime, allDay: boolean) => (allDay ? dt.toFormat('yyyy-LL-dd') : (dt.toISO({ suppressMilliseconds: true, suppressSeconds: true }) ?? ''));
const timeOf = (dt: DateTime) => dt.setLocale('en-US').toFormat('h:mm a').toLowerCase();
const keyOf = (d: DateTime) => d.toFormat('yyyy-LL-dd');
const isBar = (c: Card) => c.multiDay || c.allDay;

/** Markup as plain text: tags dropped, the few entities the schedule carries read back. */
function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The tooltip of an event: its schedule, venue and a short excerpt, as plain text. */
export function tooltip(card: Card): string {
  const parts = [plain(card.schedule)];
  if (card.venue) parts.push(card.venue.plain);
  if (card.text) parts.push(trimWords(card.text, TOOLTIP_WORDS, '…'));
  return parts.filter(Boolean).join(' · ');
}

/** What a cell says of an event's time on one of its days. */
function monthTime(card: Card, key: string): string {
  if (!card.multiDay) return card.shortSchedule;
  const first = card.days[0] === key;
  const last = card.days[card.days.length - 1] === key;
  if (card.allDay || (!first && !last)) return 'All day';
  if (first) return `From <span class="tribe-event-date-start">${timeOf(card.start)}</span>${zoneLabel(card)}`;
  return `Until <span class="tribe-event-time">${timeOf(card.end)}</span>${zoneLabel(card)}`;
}

/** One event entry of a cell; `extra` classes say whether it is a bar, a bar's copy or beyond the cell's rows. */
function entry(card: Card, key: string, extra: string[]): string {
  const kind = card.allDay || (card.multiDay && card.days[0] !== key && card.days[card.days.length - 1] !== key) ? ` ${PREFIX}--all-day` : '';
  const multi = card.multiDay ? ` ${PREFIX}--multiday` : '';
  const more = extra.map((c) => ` ${PREFIX}--${c}`).join('');
  return (
    `<li class="${PREFIX}${kind}${multi}${more} post-${card.doc.id}"><div class="${PREFIX}-details"><div class="${PREFIX}-datetime"><time datetime="${isoOf(card.start, card.allDay)}">${monthTime(card, key)}</time></div>` +
    `<h3 class="${PREFIX}-title tribe-common-h8 tribe-common-h--alt"><a href="${esc(card.url)}" rel="bookmark" class="${PREFIX}-title-link tribe-common-anchor-thin" title="${esc(tooltip(card))}">${card.title}</a></h3></div></li>`
  );
}

/** Rows of a week's bars: each bar in the lowest row free on all the week's days it crosses. */
function weekSlots(bars: Card[], weekKeys: string[]): Map<Card, number> {
  const taken = weekKeys.map(() => new Set<number>());
  const slots = new Map<Card, number>();
  for (const card of bars) {
    const cols = weekKeys.flatMap((k, i) => (card.days.includes(k) ? [i] : []));
    let slot = 0;
    while (cols.some((i) => taken[i].has(slot))) slot++;
    for (const i of cols) taken[i].add(slot);
    slots.set(card, slot);
  }
  return slots;
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
  const todayKey = keyOf(today);
  let weeks = '';
  for (let week = gridStart; week <= gridEnd; week = week.plus({ days: 7 })) {
    const days = Array.from({ length: 7 }, (_, i) => week.plus({ days: i }));
    const weekKeys = days.map(keyOf);
    // Bars first, the longest first among those starting the same day.
    const weekBars = [...new Set(weekKeys.flatMap((k) => (byDay.get(k) ?? []).filter(isBar)))].sort(
      (a, b) =>
        weekKeys.indexOf(a.days.find((d) => weekKeys.includes(d))!) - weekKeys.indexOf(b.days.find((d) => weekKeys.includes(d))!) ||
        b.days.length - a.days.length,
    );
    const slots = weekSlots(weekBars, weekKeys);
    let row = '';
    days.forEach((d, col) => {
      const key = weekKeys[col];
      const dayCards = byDay.get(key) ?? [];
      const classes = ['tribe-events-calendar-month__day'];
      if (d.month !== first.month) classes.push('tribe-events-calendar-month__day--other-month');
      if (key === todayKey) classes.push('tribe-events-calendar-month__day--current');
      else if (d < today) classes.push('tribe-events-calendar-month__day--past');
      classes.push(dayCards.length ? 'tribe-events-calendar-month__day--has-events' : 'tribe-events-calendar-month__day--empty');
      // The cell's rows: its bars in their slots (a gap where a slot is free), then its other events.
      const rows: Array<Card | null> = [];
      for (const card of dayCards.filter(isBar)) rows[slots.get(card)!] = card;
      for (let i = 0; i < rows.length; i++) rows[i] ??= null;
      for (const card of dayCards.filter((c) => !isBar(c))) {
        const free = rows.indexOf(null);
        if (free >= 0) rows[free] = card;
        else rows.push(card);
      }
      let items = '';
      let hidden = 0;
      rows.forEach((card, i) => {
        const over = i >= MONTH_EVENTS_PER_DAY ? ['overflow'] : [];
        if (!card) {
          if (!over.length) items += `<li class="${PREFIX}-spacer" aria-hidden="true"></li>`;
          return;
        }
        if (over.length) hidden++;
        if (!isBar(card)) {
          items += entry(card, key, over);
          return;
        }
        const startsHere = col === 0 || !card.days.includes(weekKeys[col - 1]);
        const span = weekKeys.slice(col).findIndex((k) => !card.days.includes(k));
        const width = span === -1 ? 7 - col : span;
        items += entry(card, key, startsHere ? ['bar', `width-${width}`, ...over] : ['continued', ...over]);
      });
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
        (items ? `<ul class="tribe-events-calendar-month__events">${items}</ul>` : '') +
        (hidden > 0
          ? `<div class="tribe-events-calendar-month__more-events"><a href="${esc(dayUrl)}" class="tribe-events-calendar-month__more-events-link tribe-common-h8 tribe-common-h--alt" data-js="tribe-events-view-link">+ ${hidden} More<span class="tribe-common-a11y-visual-hide"> events on ${d.setLocale('en-US').toFormat('LLLL d')}</span></a></div>`
          : '') +
        `</td>`;
    });
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
  const messages = cards.length ? '' : noEvents(state, `upcoming events this month`);
  return container(site, state, monthName, monthName, MONTH_LABELS, messages + grid + nav('calendar-month', state, MONTH_LABELS), jsonLd(cards), cards.length);
}
