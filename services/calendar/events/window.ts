/**
 * The event archive's default date window (the reference's Archive_Event defaults): from "yesterday
 * 23:59" to "+24 months" in the site's zone, widened to whole days unless strict.
 */
import { DateTime, Info } from 'luxon';
import { memo } from '#libs/data/memo';
import { mysqlOf } from '#libs/dates/format';
import { zoneFor, zoneOf } from '#libs/calendar/timezone';

/** A window bound: the instant to compare with and its site-local text to echo. */
export interface Bound {
  at: Date;
  text: string;
}

export const bound = (dt: DateTime): Bound => ({ at: dt.toJSDate(), text: mysqlOf(dt) });

const DAY_MS = 86_400_000;

/** The local day (days since 1970-01-01) an instant falls on in a zone. */
function localDay(zone: string, ms: number): number {
  return Math.floor((ms + Info.normalizeZone(zoneFor(zone)).offset(ms) * 60_000) / DAY_MS);
}

/**
 * The whole-day window of a local day: from 00:00:00 the day before to 23:59:59 of the day 24 months
 * on. It depends on the day alone, and working it out in a zone costs a large part of a list request,
 * so the last few are remembered (libs/data/memo); a new local day is a new argument, so the window
 * moves at local midnight, and a clock set back finds the earlier day's window again.
 */
const wholeDays = memo((zone: string, day: number): { start: Bound; end: Bound } => {
  const d = new Date(day * DAY_MS);
  const today = DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, { zone });
  return {
    start: bound(today.minus({ days: 1 }).startOf('day')),
    end: bound(today.plus({ months: 24 }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 })),
  };
}, 4);

/** The default window at `now` in the site's zone; strict keeps the reference's exact times. */
export function defaultWindow(siteZone: string, now: Date, strict: boolean): { start: Bound; end: Bound } {
  const zone = zoneOf(siteZone) ?? 'UTC';
  if (!strict) return wholeDays(zone, localDay(zone, now.getTime()));
  const today = DateTime.fromJSDate(now, { zone });
  return {
    start: bound(today.minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0, millisecond: 0 })),
    end: bound(today.plus({ months: 24 }).set({ millisecond: 0 })),
  };
}
