/**
 * Wall clocks: a local date and clock time with no zone attached, the wall clock of UTC milliseconds,
 * the days of a month, and the two readers of wall-clock text (an imported event's date fields, and the
 * stored `Y-m-d H:i:s` meta strings of an event).
 */
import { strtotime } from '../calendar/strtotime';

/** A local date and clock time in some zone, read from text (a date alone has a zero clock). */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock of UTC milliseconds (of an instant, or of a wall time shifted by its zone's offset). */
export function wallOfUtc(ms: number): Wall {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of a month (1–12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
}

/** Whether a year, month and day name a day of the (proleptic Gregorian) calendar: luxon's rule, without building a DateTime. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/*
 * Two readers of wall-clock text follow. They are not one parser because they accept different texts
 * and answer differently, and each caller depends on its own rules:
 * - readWall reads what an import feed sends in an event's date fields, as the import's eventTimes
 *   does: the text is trimmed; `Y-m-d` with one- or two-digit month and day, optionally followed by a
 *   space or `T` and `H:i` or `H:i:s` (one- or two-digit hour), is checked strictly (a real calendar
 *   day, hour < 24, minute and second < 60) and refused when it fails; any other text goes to
 *   strtotime in the given zone (`tomorrow 9am`, `05/01/2031`, offsets, ...). It says whether the text
 *   named a time of day.
 * - storedWall reads the meta strings an event is stored with, which every writer derives through
 *   libs/calendar: only exactly `YYYY-MM-DD HH:MM:SS`, untrimmed, with no strtotime fallback (lists
 *   present many events per request). It refuses a day that does not exist but lets a clock overflow
 *   within the day through (as the arithmetic on `ms` always has), and it keeps the text and the
 *   milliseconds of the wall read as UTC for the schedule's day and offset arithmetic.
 */

const DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A wall clock read from an imported date text. */
export interface TimedWall extends Wall {
  /** Whether the text named a time of day. */
  timed: boolean;
}

/** A date text's wall-clock parts: `Y-m-d` and `Y-m-d H:i:s` directly, anything else as strtotime reads it. */
export function readWall(text: string, zone: string): TimedWall | null {
  const m = DAY.exec(text.trim());
  if (m) {
    const w = { year: +m[1], month: +m[2], day: +m[3], hour: m[4] ? +m[4] : 0, minute: m[5] ? +m[5] : 0, second: m[6] ? +m[6] : 0, timed: !!m[4] };
    return isCalendarDay(w.year, w.month, w.day) && w.hour < 24 && w.minute < 60 && w.second < 60 ? w : null;
  }
  const dt = strtotime(text, { zone });
  if (!dt) return null;
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second, timed: true };
}

const MYSQL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A wall-clock time: its parts, and the same parts read as if they were UTC (for day and offset arithmetic). */
export interface StoredWall extends Wall {
  text: string;
  /** Milliseconds of the wall time read as UTC. */
  ms: number;
}

/** A stored `Y-m-d H:i:s` string's wall clock; null for anything else or a day that does not exist. */
export function storedWall(text: unknown): StoredWall | null {
  if (typeof text !== 'string') return null;
  const m = MYSQL.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== day) return null;
  return { text, year, month, day, hour, minute, second, ms };
}

/** The wall clock of milliseconds read as UTC, with its `Y-m-d H:i:s` text (what storedWall reads). */
export function storedWallAt(ms: number): StoredWall {
  const text = new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  return { text, ...wallOfUtc(ms), ms };
}
