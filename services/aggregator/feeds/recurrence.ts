/**
 * The occurrences of a recurring VEVENT inside a window: RRULE (through ical.js's iterator, run on
 * wall times of the event's zone), RDATE and EXDATE, capped per series. Occurrences are named by
 * occurrenceKey, the form RECURRENCE-ID overrides are matched with.
 */
import ICAL from 'ical.js';
import { readMoment, type Prop, type Vevent, occurrenceKey } from './vevent';
import { addDays, basicDate, basicUtc, type FeedZones, type Wall } from './zones';
import { errorText } from '../error-text';
import { expandRscale, isRscale } from './rscale';

export interface Occurrence {
  key: string;
  /** Start wall time in the series' source zone (a date for all-day series). */
  start: Wall;
  startMs: number;
  endMs: number;
}

export interface Window {
  fromMs: number;
  toMs: number;
}

/** Whether a span meets the window; an instant (no length) counts when it lies inside it. */
export function overlaps(startMs: number, endMs: number, w: Window): boolean {
  return startMs < w.toMs && (endMs > w.fromMs || (endMs <= startMs && startMs >= w.fromMs));
}

/** Iterator steps allowed per series before giving up (a MINUTELY rule started decades ago). */
const MAX_STEPS = 250_000;

const wallOf = (t: InstanceType<typeof ICAL.Time>): Wall => ({ year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second });

/** A floating ical.js time (no zone): the iterator then works on the wall clock of the event's zone. */
const floatingTime = (w: Wall, isDate: boolean) =>
  ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate });

/**
 * The rule's UNTIL on the same clock as the floating start: a UTC UNTIL becomes the wall time of the
 * event's zone (ical.js would otherwise compare a floating start with a UTC bound as if both were UTC).
 */
function alignUntil(rule: InstanceType<typeof ICAL.Recur>, v: Vevent): void {
  const until = rule.until;
  if (!until) return;
  const utc = until.zone === ICAL.Timezone.utcTimezone || until.zone?.tzid === 'UTC';
  if (v.allDay) {
    if (until.isDate) return;
    const wall = utc ? v.source.wallAt(until.toUnixTime() * 1000) : wallOf(until);
    rule.until = floatingTime(wall, true);
  } else if (until.isDate) {
    rule.until = floatingTime({ ...wallOf(until), hour: 23, minute: 59, second: 59 }, false);
  } else if (utc) {
    rule.until = floatingTime(v.source.wallAt(until.toUnixTime() * 1000), false);
  }
}

const tzidOf = (p: Prop) => (typeof p[1].tzid === 'string' ? p[1].tzid : undefined);

/** EXDATE keys, and for timed series the dates excluded as whole days. */
function exclusions(v: Vevent, zones: FeedZones): { keys: Set<string>; dates: Set<string> } {
  const keys = new Set<string>();
  const dates = new Set<string>();
  for (const p of v.props.get('exdate') ?? []) {
    for (const value of p.slice(3)) {
      const m = readMoment(value);
      if (!m) continue;
      if (v.allDay) keys.add(basicDate(m.wall));
      else if (m.date) dates.add(basicDate(m.wall));
      else keys.add(occurrenceKey(m, tzidOf(p), zones));
    }
  }
  return { keys, dates };
}

/** RDATE occurrences (date, date-time or period values). */
function rdates(v: Vevent, zones: FeedZones): Occurrence[] {
  const out: Occurrence[] = [];
  for (const p of v.props.get('rdate') ?? []) {
    for (const value of p.slice(3)) {
      const period = Array.isArray(value) ? value : null;
      const m = readMoment(period ? period[0] : value);
      if (!m) continue;
      if (v.allDay || m.date) {
        const start = m.wall;
        const startMs = zones.floating.millis({ ...start, hour: 0, minute: 0, second: 0 });
        const endMs = zones.floating.millis(addDays({ ...start, hour: 0, minute: 0, second: 0 }, v.days));
        if (v.allDay) out.push({ key: basicDate(start), start, startMs, endMs });
        continue;
      }
      const source = zones.source(tzidOf(p), m.utc);
      const startMs = source.millis(m.wall);
      let endMs = startMs + v.durationMs;
      const periodEnd = period ? readMoment(period[1]) : null;
      if (periodEnd) endMs = Math.max(startMs, zones.source(tzidOf(p), periodEnd.utc).millis(periodEnd.wall));
      else if (period && typeof period[1] === 'string' && /^[+-]?P/.test(period[1]))
        endMs = startMs + Math.max(0, ICAL.Duration.fromString(period[1]).toSeconds() * 1000);
      const start = source === v.source ? m.wall : v.source.wallAt(startMs);
      out.push({ key: basicUtc(startMs), start, startMs, endMs });
    }
  }
  return out;
}

const DAY_MS = 86_400_000;

/** Whether an occurrence start is past a rule's UNTIL (a date, a UTC date-time, or a wall time of the event's zone). */
function untilCheck(rule: string, v: Vevent): (w: Wall) => boolean {
  const m = /(?:^|;)UNTIL=(\d{8})(?:T(\d{6})(Z?))?/i.exec(rule);
  if (!m) return () => false;
  if (!m[2]) return (w) => basicDate(w) > m[1];
  const wall = {
    year: +m[1].slice(0, 4),
    month: +m[1].slice(4, 6),
    day: +m[1].slice(6),
    hour: +m[2].slice(0, 2),
    minute: +m[2].slice(2, 4),
    second: +m[2].slice(4),
  };
  const untilMs = m[3] ? Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) : v.source.millis(wall);
  return (w) => v.source.millis(w) > untilMs;
}

export interface Expansion {
  occurrences: Occurrence[];
  /** The cap was reached: later occurrences in the window were left out. */
  capped: boolean;
  error?: string;
}

/** The occurrences of a series that meet the window, in time order, at most `cap`. */
export function expand(v: Vevent, zones: FeedZones, window: Window, cap: number): Expansion {
  const { keys: excluded, dates: excludedDates } = exclusions(v, zones);
  const isExcluded = (o: Occurrence) => excluded.has(o.key) || (!v.allDay && excludedDates.has(basicDate(o.start)));
  const found: Occurrence[] = [];
  const seen = new Set<string>();
  let capped = false;
  let error: string | undefined;
  const make = (start: Wall): Occurrence => {
    if (v.allDay) {
      const startMs = v.source.millis(start);
      return { key: basicDate(start), start, startMs, endMs: v.source.millis(addDays(start, v.days)) };
    }
    const startMs = v.source.millis(start);
    return { key: basicUtc(startMs), start, startMs, endMs: startMs + v.durationMs };
  };
  const rrules = v.props.get('rrule') ?? [];
  {
    // DTSTART is the first occurrence (RFC 5545 3.8.5.3), whether or not the rule would produce it.
    const o = make(v.start);
    seen.add(o.key);
    if (!isExcluded(o) && overlaps(o.startMs, o.endMs, window)) found.push(o);
  }
  /** Adds one occurrence start; false once the window's end is passed. */
  const take = (wall: Wall): boolean => {
    const o = make(wall);
    if (o.startMs >= window.toMs) return false;
    if (seen.has(o.key)) return true;
    seen.add(o.key);
    if (!isExcluded(o) && overlaps(o.startMs, o.endMs, window)) found.push(o);
    return true;
  };
  for (const p of rrules) {
    if (typeof p[3] === 'string' && isRscale(p[3])) {
      const r = expandRscale(p[3], v.start, Math.floor(window.toMs / DAY_MS) + 1, untilCheck(p[3], v));
      if (r.refused) error = r.refused;
      for (const w of r.starts) if (!take(w)) break;
      continue;
    }
    try {
      const rule = typeof p[3] === 'string' ? ICAL.Recur.fromString(p[3]) : new ICAL.Property(p).getFirstValue();
      if (!(rule instanceof ICAL.Recur)) throw new Error('not a recurrence rule');
      alignUntil(rule, v);
      const it = rule.iterator(floatingTime(v.start, v.allDay));
      let inWindow = 0;
      for (let steps = 0, t = it.next(); t; t = it.next()) {
        if (++steps > MAX_STEPS) {
          error = `The recurrence was cut after ${MAX_STEPS} steps`;
          break;
        }
        const o = make(wallOf(t));
        if (o.startMs >= window.toMs) break;
        if (seen.has(o.key)) continue;
        seen.add(o.key);
        if (isExcluded(o) || !overlaps(o.startMs, o.endMs, window)) continue;
        found.push(o);
        if (++inWindow >= cap) {
          capped = true;
          break;
        }
      }
    } catch (e) {
      error = `RRULE cannot be expanded: ${errorText(e)}`;
    }
  }
  for (const o of rdates(v, zones)) {
    if (seen.has(o.key) || isExcluded(o) || !overlaps(o.startMs, o.endMs, window)) continue;
    seen.add(o.key);
    found.push(o);
  }
  found.sort((a, b) => a.startMs - b.startMs);
  if (found.length > cap) {
    found.length = cap;
    capped = true;
  }
  return { occurrences: found, capped, error };
}
