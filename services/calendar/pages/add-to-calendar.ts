/**
 * An event page's "Add to calendar" links, as the reference's single-event export links: Google
 * Calendar's event template, the event's own iCalendar file, and Outlook's compose deep link. They are
 * plain links (nothing is requested from those sites until a visitor follows one).
 */
import type { DateTime } from 'luxon';
import { escapeHtml as esc } from '#libs/html/escape';

export interface CalendarEntry {
  title: string;
  start: DateTime;
  end: DateTime;
  allDay: boolean;
  /** Plain-text description, short. */
  details: string;
  /** Plain-text place: the venue's name and address. */
  location: string;
  /** The single-event iCalendar export's address. */
  ical: string;
}

const GOOGLE = 'https://calendar.google.com/calendar/render';
const OUTLOOK = 'https://outlook.live.com/calendar/0/deeplink/compose';

/** Google's `dates`: UTC times, or whole days with the day after the last one as the end. */
function googleDates(e: CalendarEntry): string {
  if (e.allDay) return `${e.start.toFormat('yyyyLLdd')}/${e.end.startOf('day').plus({ days: 1 }).toFormat('yyyyLLdd')}`;
  const utc = (dt: DateTime) => dt.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
  return `${utc(e.start)}/${utc(e.end)}`;
}

export function googleCalendarUrl(e: CalendarEntry): string {
  const q = new URLSearchParams({ action: 'TEMPLATE', text: e.title, dates: googleDates(e), details: e.details, location: e.location, trp: 'false' });
  if (e.start.zoneName) q.set('ctz', e.start.zoneName);
  return `${GOOGLE}?${q.toString()}`;
}

export function outlookUrl(e: CalendarEntry): string {
  const iso = (dt: DateTime) => (e.allDay ? dt.toFormat('yyyy-LL-dd') : (dt.toISO({ suppressMilliseconds: true }) ?? ''));
  const q = new URLSearchParams({
    path: '/calendar/action/compose',
    rrv: 'addevent',
    startdt: iso(e.start),
    enddt: iso(e.allDay ? e.end.startOf('day').plus({ days: 1 }) : e.end),
    allday: e.allDay ? 'true' : 'false',
    subject: e.title,
    body: e.details,
    location: e.location,
  });
  return `${OUTLOOK}?${q.toString()}`;
}

export function addToCalendar(e: CalendarEntry): string {
  const link = (href: string, text: string, cls: string, extra = '') =>
    `<li><a class="calendar-single__add calendar-single__add--${cls}" href="${esc(href)}"${extra}>${text}</a></li>`;
  return (
    `<section class="calendar-single__section calendar-single__export" aria-labelledby="event-export"><h2 id="event-export">Add to calendar</h2><ul class="calendar-single__add-list">` +
    link(googleCalendarUrl(e), 'Add to Google Calendar', 'google', ' rel="external noopener" target="_blank"') +
    link(e.ical, 'Download .ics', 'ical', ' download') +
    link(outlookUrl(e), 'Add to Outlook', 'outlook', ' rel="external noopener" target="_blank"') +
    `</ul></section>`
  );
}
