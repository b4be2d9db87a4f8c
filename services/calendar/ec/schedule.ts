/**
 * The computed fields of an ec/v1 event (the reference's event model): its dates in every time zone it
 * is shown in, duration, how many days it spans, whether it is past or happening now, how it sits in the
 * current week (weeks start on Monday, in the site time zone), and the schedule as the reference prints
 * it (`<span class="tribe-event-date-start">June 13 @ 3:25 pm</span> - <span class="tribe-event-time">7:25 pm</span>`).
 *
 * The times are the event meta's local and UTC strings as libs/calendar/times `eventTimes` reads them
 * for ec/v1 (`stored: 'dates'`: used when each reads as a date, otherwise all four derived again). Lists
 * present many events per request, so the rest is plain arithmetic on those strings: only the site
 * time zone's offset at an instant is asked of the time-zone database (cached per zone).
 */
import { DateTime, Info, type Zone } from 'luxon';
import { EVENT_META } from '#libs/calendar/meta';
import { eventTimes, storedTimezone, type DatedTimes } from '#libs/calendar/times';
import { mysqlOf } from '#libs/dates/format';
import { zoneOf } from '#libs/calendar/timezone';
import { storedWall as wall, storedWallAt as wallAt, type StoredWall as Wall } from '#libs/dates/wall';

/** A date as the reference's DateTime serialises: `{date: "Y-m-d H:i:s.u", timezone_type, timezone}`. */
export interface PhpDate {
  date: string;
  timezone_type: 1 | 3;
  timezone: string;
}

const DAY_MS = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const zones = new Map<string, Zone>();
/** Minutes east of UTC of a zone at an instant. */
function offsetAt(zone: string, instant: number): number {
  let z = zones.get(zone);
  if (!z) {
    z = Info.normalizeZone(zoneOf(zone) ?? 'UTC');
    zones.set(zone, z);
  }
  return z.offset(instant);
}

/** How the reference names a zone in a DateTime: identifiers are type 3, fixed offsets type 1 (`+02:00`); an offset of zero is UTC. */
function zoneName(zone: string, offsetMinutes: number): Pick<PhpDate, 'timezone_type' | 'timezone'> {
  const z = zoneOf(zone) ?? 'UTC';
  if (!z.startsWith('UTC')) return { timezone_type: 3, timezone: z };
  if (offsetMinutes === 0) return { timezone_type: 3, timezone: 'UTC' };
  const abs = Math.abs(offsetMinutes);
  return {
    timezone_type: 1,
    timezone: `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`,
  };
}

const php = (w: Wall, name: Pick<PhpDate, 'timezone_type' | 'timezone'>): PhpDate => ({ date: `${w.text}.000000`, ...name });

export function phpDate(dt: DateTime): PhpDate {
  return php(wall(mysqlOf(dt))!, dt.zone.type === 'iana' ? { timezone_type: 3, timezone: dt.zoneName ?? 'UTC' } : zoneName(dt.zoneName ?? 'UTC', dt.offset));
}

const dayNumber = (w: Wall) => Math.floor(w.ms / DAY_MS);

/** The first and last day an event occupies: an event ending at midnight does not occupy the next day. */
function dayRange(start: Wall, end: Wall, allDay: boolean): [number, number] {
  const first = dayNumber(start);
  let last = dayNumber(end);
  if (!allDay && end.ms > start.ms && end.hour === 0 && end.minute === 0 && end.second === 0) last -= 1;
  return [first, Math.max(first, last)];
}

const meridiem = (w: Wall) => `${w.hour % 12 === 0 ? 12 : w.hour % 12}:${String(w.minute).padStart(2, '0')} ${w.hour < 12 ? 'am' : 'pm'}`;
const dateOf = (w: Wall, withYear: boolean) => `${MONTHS[w.month - 1]} ${w.day}${withYear ? `, ${w.year}` : ''}`;

function separator(meta: Record<string, unknown>, key: string, fallback: string): string {
  const v = meta[key];
  return typeof v === 'string' && v !== '' ? v : fallback;
}

/** The reference's schedule details and short schedule details. */
function schedules(
  start: Wall,
  end: Wall,
  allDay: boolean,
  multiday: boolean,
  meta: Record<string, unknown>,
  thisYear: number,
): { full: string; short: string } {
  const at = separator(meta, EVENT_META.dateTimeSeparator, ' @ ');
  const range = separator(meta, EVENT_META.timeRangeSeparator, ' - ');
  const startWithYear = start.year !== thisYear;
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

/**
 * The schedule details of an event whose start and end are given as wall times in the zone it is shown
 * in (the calendar views show an event in its own zone or the site's, following the time-zone mode).
 */
export function scheduleAt(
  meta: Record<string, unknown>,
  start: Wall,
  end: Wall,
  allDay: boolean,
  siteZone: string,
  at: Date,
): { full: string; short: string } {
  const [firstDay, lastDay] = dayRange(start, end, allDay);
  const now = at.getTime();
  const thisYear = new Date(now + offsetAt(siteZone, now) * 60000).getUTCFullYear();
  return schedules(start, end, allDay, lastDay > firstDay, meta, thisYear);
}

/** Every computed date field of an event, in the reference's order; empty values when it has no dates. */
export function eventDateFields(
  meta: Record<string, unknown>,
  siteZone: string,
  at: Date,
  /** The event's times when the caller has worked them out already (the views). */
  t: DatedTimes | null = eventTimes(meta, siteZone, { stored: 'dates' }),
): { dates: Record<string, unknown>; week: Record<string, unknown>; schedule: Record<string, unknown> } {
  if (!t) {
    return {
      dates: {
        start_date: '',
        start_date_utc: '',
        end_date: '',
        end_date_utc: '',
        dates: null,
        timezone: storedTimezone(meta),
      },
      week: {
        duration: '0',
        multiday: false,
        is_past: false,
        is_now: false,
        all_day: false,
        starts_this_week: null,
        ends_this_week: null,
        this_week_duration: null,
        happens_this_week: null,
        displays_on: [],
      },
      schedule: { schedule_details: '', short_schedule_details: '' },
    };
  }
  const { start, end, startUtc, endUtc, allDay } = t;
  const startMs = startUtc.ms;
  const endMs = endUtc.ms;
  const eventZone = zoneName(t.timezone, (start.ms - startMs) / 60000);
  const utc = { timezone_type: 3, timezone: 'UTC' } as const;
  const startSite = wallAt(startMs + offsetAt(siteZone, startMs) * 60000);
  const endSite = wallAt(endMs + offsetAt(siteZone, endMs) * 60000);
  const dates = {
    start_date: start.text,
    start_date_utc: startUtc.text,
    end_date: end.text,
    end_date_utc: endUtc.text,
    dates: {
      start: php(start, eventZone),
      start_utc: php(startUtc, utc),
      start_site: php(startSite, zoneName(siteZone, (startSite.ms - startMs) / 60000)),
      start_display: php(start, eventZone),
      end: php(end, zoneName(t.timezone, (end.ms - endMs) / 60000)),
      end_utc: php(endUtc, utc),
      end_site: php(endSite, zoneName(siteZone, (endSite.ms - endMs) / 60000)),
      end_display: php(end, zoneName(t.timezone, (end.ms - endMs) / 60000)),
    },
    timezone: t.timezone,
  };

  const [firstDay, lastDay] = dayRange(start, end, allDay);
  const span = lastDay - firstDay + 1;
  const multiday = span > 1 ? span : false;
  const now = at.getTime();
  const today = Math.floor((now + offsetAt(siteZone, now) * 60000) / DAY_MS);
  // Day 0 (1970-01-01) was a Thursday; weeks start on Monday.
  const weekStart = today - ((today + 3) % 7);
  const weekEnd = weekStart + 6;
  const [siteFirst, siteLast] = dayRange(startSite, endSite, allDay);
  const startDay = dayNumber(startSite);
  const endDay = dayNumber(endSite);
  const happens = startDay <= weekEnd && endDay >= weekStart;
  const displaysOn: string[] = [];
  if (happens)
    for (let d = Math.max(siteFirst, weekStart); d <= Math.min(siteLast, weekEnd); d++) displaysOn.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
  const week = {
    duration: String(Math.max(0, Math.round((endMs - startMs) / 1000))),
    multiday,
    is_past: endMs < now,
    is_now: startMs <= now && now <= endMs,
    all_day: allDay,
    starts_this_week: startDay >= weekStart && startDay <= weekEnd,
    ends_this_week: endDay >= weekStart && endDay <= weekEnd,
    this_week_duration: happens ? Math.max(1, displaysOn.length) : null,
    happens_this_week: happens,
    displays_on: displaysOn,
  };
  const thisYear = new Date(now + offsetAt(siteZone, now) * 60000).getUTCFullYear();
  const { full, short } = schedules(start, end, allDay, multiday !== false, meta, thisYear);
  return { dates, week, schedule: { schedule_details: full, short_schedule_details: short } };
}
