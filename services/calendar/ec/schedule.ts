/**
 * The computed fields of an ec/v1 event (the reference's event model): its dates in every time zone it
 * is shown in, duration, how many days it spans, whether it is past or happening now, how it sits in the
 * current week (weeks start on Monday, in the site time zone), and the schedule as the reference prints
 * it (`<span class="tribe-event-date-start">June 13 @ 3:25 pm</span> - <span class="tribe-event-time">7:25 pm</span>`).
 * The times come from the event's meta through libs/calendar, as every other reader gets them.
 */
import { DateTime } from 'luxon';
import { EVENT_META, MYSQL_FORMAT, timesFromMeta, type EventTimes } from '../../../libs/calendar/meta';

/** A date as the reference's DateTime serialises: `{date: "Y-m-d H:i:s.u", timezone_type, timezone}`. */
export interface PhpDate {
  date: string;
  timezone_type: 1 | 3;
  timezone: string;
}

export function phpDate(dt: DateTime): PhpDate {
  const iana = dt.zone.type === 'iana';
  // A fixed offset of zero is UTC; any other fixed offset is named by the offset itself.
  const timezone = iana ? dt.zoneName ?? 'UTC' : dt.offset === 0 ? 'UTC' : dt.toFormat('ZZ');
  return { date: `${dt.toFormat(MYSQL_FORMAT)}.000000`, timezone_type: iana || dt.offset === 0 ? 3 : 1, timezone };
}

/** The first and last day an event occupies: an event ending at midnight does not occupy the next day. */
function dayRange(start: DateTime, end: DateTime, allDay: boolean): [DateTime, DateTime] {
  const first = start.startOf('day');
  let last = end.startOf('day');
  if (!allDay && end > start && end.equals(last)) last = last.minus({ days: 1 });
  return [first, last < first ? first : last];
}

const daysBetween = (a: DateTime, b: DateTime) => Math.round(b.startOf('day').diff(a.startOf('day'), 'days').days);

const meridiem = (dt: DateTime) => `${dt.toFormat('h:mm')} ${dt.hour < 12 ? 'am' : 'pm'}`;

function separator(meta: Record<string, unknown>, key: string, fallback: string): string {
  const v = meta[key];
  return typeof v === 'string' && v !== '' ? v : fallback;
}

/** The reference's schedule details and short schedule details. */
function schedules(t: EventTimes, multiday: boolean, meta: Record<string, unknown>, now: DateTime): { full: string; short: string } {
  const { start, end, allDay } = t;
  const at = separator(meta, EVENT_META.dateTimeSeparator, ' @ ');
  const range = separator(meta, EVENT_META.timeRangeSeparator, ' - ');
  const dateOf = (dt: DateTime, withYear: boolean) => dt.setLocale('en-US').toFormat(withYear ? 'LLLL d, yyyy' : 'LLLL d');
  const startWithYear = start.year !== now.year;
  const endWithYear = end.year !== start.year || startWithYear;
  const open = '<span class="tribe-event-date-start">';
  if (multiday) {
    const from = allDay ? dateOf(start, startWithYear) : `${dateOf(start, startWithYear)}${at}${meridiem(start)}`;
    const to = allDay ? dateOf(end, endWithYear) : `${dateOf(end, endWithYear)}${at}${meridiem(end)}`;
    const full = `${open}${from}</span>${range}<span class="tribe-event-date-end">${to}</span>`;
    return { full, short: full };
  }
  if (allDay) return { full: `${open}${dateOf(start, startWithYear)}</span>`, short: 'All day' };
  if (meridiem(start) === meridiem(end)) {
    return { full: `${open}${dateOf(start, startWithYear)}${at}${meridiem(start)}</span>`, short: `${open}${meridiem(start)}</span>` };
  }
  return {
    full: `${open}${dateOf(start, startWithYear)}${at}${meridiem(start)}</span>${range}<span class="tribe-event-time">${meridiem(end)}</span>`,
    short: `${open}${meridiem(start)}</span>${range}<span class="tribe-event-time">${meridiem(end)}</span>`,
  };
}

/** Every computed date field of an event, in the reference's order; empty values when it has no dates. */
export function eventDateFields(meta: Record<string, unknown>, siteZone: string, at: Date): { dates: Record<string, unknown>; week: Record<string, unknown>; schedule: Record<string, unknown> } {
  const t = timesFromMeta(meta, siteZone);
  if (!t) {
    return {
      dates: { start_date: '', start_date_utc: '', end_date: '', end_date_utc: '', dates: null, timezone: typeof meta[EVENT_META.timezone] === 'string' ? meta[EVENT_META.timezone] : '' },
      week: { duration: '0', multiday: false, is_past: false, is_now: false, all_day: false, starts_this_week: null, ends_this_week: null, this_week_duration: null, happens_this_week: null, displays_on: [] },
      schedule: { schedule_details: '', short_schedule_details: '' },
    };
  }
  const { start, end, allDay } = t;
  const startUtc = start.toUTC();
  const endUtc = end.toUTC();
  const dates = {
    start_date: start.toFormat(MYSQL_FORMAT),
    start_date_utc: startUtc.toFormat(MYSQL_FORMAT),
    end_date: end.toFormat(MYSQL_FORMAT),
    end_date_utc: endUtc.toFormat(MYSQL_FORMAT),
    dates: {
      start: phpDate(start),
      start_utc: phpDate(startUtc),
      start_site: phpDate(start.setZone(siteZone)),
      start_display: phpDate(start),
      end: phpDate(end),
      end_utc: phpDate(endUtc),
      end_site: phpDate(end.setZone(siteZone)),
      end_display: phpDate(end),
    },
    timezone: t.timezone,
  };

  const [firstDay, lastDay] = dayRange(start, end, allDay);
  const span = daysBetween(firstDay, lastDay) + 1;
  const multiday = span > 1 ? span : false;
  const now = DateTime.fromJSDate(at, { zone: siteZone });
  const weekStart = now.startOf('week');
  const weekEnd = now.endOf('week');
  const inWeek = (dt: DateTime) => dt >= weekStart && dt <= weekEnd;
  const happens = start <= weekEnd && end >= weekStart;
  const displaysOn: string[] = [];
  if (happens) {
    const [siteFirst, siteLast] = dayRange(start.setZone(siteZone), end.setZone(siteZone), allDay);
    for (let d = siteFirst < weekStart ? weekStart : siteFirst; d <= siteLast && d <= weekEnd; d = d.plus({ days: 1 })) displaysOn.push(d.toFormat('yyyy-LL-dd'));
  }
  const week = {
    duration: String(Math.max(0, Math.round(end.diff(start, 'seconds').seconds))),
    multiday,
    is_past: end.toMillis() < at.getTime(),
    is_now: start.toMillis() <= at.getTime() && at.getTime() <= end.toMillis(),
    all_day: allDay,
    starts_this_week: inWeek(start),
    ends_this_week: inWeek(end),
    this_week_duration: happens ? displaysOn.length : null,
    happens_this_week: happens,
    displays_on: displaysOn,
  };
  const { full, short } = schedules(t, multiday !== false, meta, now);
  return { dates, week, schedule: { schedule_details: full, short_schedule_details: short } };
}
