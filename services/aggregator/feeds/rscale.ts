/**
 * Recurrence rules in other calendars (RFC 7529 RSCALE): `RRULE:RSCALE=HEBREW;FREQ=YEARLY` repeats on
 * the same Hebrew date each Hebrew year, not on the same Gregorian date. Expanded with the ICU calendars
 * Node ships (Intl.DateTimeFormat's `calendar`), for the calendars ICU computes by rule: Hebrew,
 * Ethiopic (both eras), Coptic, Indian, the tabular Islamic calendars (civil, tbla, Umm al-Qura) and
 * those with Gregorian months (Buddhist, Japanese, ROC, Gregorian). Calendars that depend on
 * observation or astronomy (Chinese, Korean dangi, Persian, observational Islamic) are refused, as are
 * rule parts beyond FREQ (YEARLY, MONTHLY), INTERVAL, COUNT, UNTIL, BYMONTH (leap months as `5L`),
 * BYMONTHDAY and SKIP: a refused series keeps only its DTSTART, never a wrong date.
 */
import type { Wall } from './zones';

/** RSCALE values by the ICU calendar that expands them. */
const SUPPORTED: Record<string, string> = {
  HEBREW: 'hebrew',
  ETHIOPIC: 'ethiopic',
  ETHIOAA: 'ethioaa',
  'ETHIOPIC-AMETE-ALEM': 'ethioaa',
  COPTIC: 'coptic',
  INDIAN: 'indian',
  'ISLAMIC-CIVIL': 'islamic-civil',
  'ISLAMIC-TBLA': 'islamic-tbla',
  'ISLAMIC-UMALQURA': 'islamic-umalqura',
  BUDDHIST: 'buddhist',
  JAPANESE: 'japanese',
  ROC: 'roc',
  GREGORIAN: 'gregory',
  GREGORY: 'gregory',
  ISO8601: 'iso8601',
};
const REFUSED = new Set(['CHINESE', 'DANGI', 'PERSIAN', 'ISLAMIC', 'ISLAMIC-RGSA']);
const PARTS = new Set(['RSCALE', 'FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYMONTH', 'BYMONTHDAY', 'SKIP', 'WKST']);

/** Hebrew month names as ICU writes them, by RFC 7529 month code (Adar I is the leap month 5L). */
const HEBREW_MONTHS: Record<string, string> = {
  Tishri: '1',
  Heshvan: '2',
  Kislev: '3',
  Tevet: '4',
  Shevat: '5',
  'Adar I': '5L',
  Adar: '6',
  'Adar II': '6',
  Nisan: '7',
  Iyar: '8',
  Sivan: '9',
  Tamuz: '10',
  Av: '11',
  Elul: '12',
};

/** Days scanned at most (about 150 years): a rule started longer ago is refused. */
const MAX_DAYS = 55_000;
const DAY_MS = 86_400_000;

export function isRscale(rule: string): boolean {
  return /(^|;)\s*RSCALE\s*=/i.test(rule);
}

interface Month {
  year: number;
  code: string;
  /** Day number (days since 1970-01-01) of its first day, and its length. */
  first: number;
  length: number;
}

const dayNumber = (w: Pick<Wall, 'year' | 'month' | 'day'>) => Math.round(Date.UTC(w.year, w.month - 1, w.day) / DAY_MS);
const wallOfDay = (n: number, time: Wall): Wall => {
  const d = new Date(n * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: time.hour, minute: time.minute, second: time.second };
};

/** The months of a calendar from the month holding day `from` to the one holding day `to`. */
function monthsOf(calendar: string, from: number, to: number): Month[] {
  const fmt = new Intl.DateTimeFormat(`en-u-ca-${calendar}-nu-latn`, { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' });
  const months: Month[] = [];
  let cur: Month | null = null;
  for (let n = from; n <= to; n++) {
    let year = 0;
    let month = '';
    let day = 0;
    for (const p of fmt.formatToParts(new Date(n * DAY_MS))) {
      if (p.type === 'year' || (p.type as string) === 'relatedYear') year = Number(p.value);
      else if (p.type === 'month') month = p.value;
      else if (p.type === 'day') day = Number(p.value);
    }
    const code = calendar === 'hebrew' ? HEBREW_MONTHS[month] : String(Number(month));
    if (!code || code === 'NaN') throw new Error(`the ${calendar} month ${month} is not known`);
    if (!cur || cur.code !== code || cur.year !== year) {
      cur = { year, code, first: n - day + 1, length: 0 };
      months.push(cur);
    }
    cur.length = n - cur.first + 1;
  }
  return months;
}

export interface RscaleExpansion {
  /** Occurrence starts (the wall clock of DTSTART on each date), in order, DTSTART first. */
  starts: Wall[];
  /** Why the rule was refused (the series keeps its DTSTART). */
  refused?: string;
}

/**
 * The starts of an RSCALE rule from DTSTART (`start`, a wall time) through the day `lastDay` (a day
 * number), stopping at COUNT or when `past(wall)` says UNTIL is passed.
 */
export function expandRscale(rule: string, start: Wall, lastDay: number, past: (w: Wall) => boolean): RscaleExpansion {
  const parts = new Map<string, string>();
  for (const p of rule.split(';')) {
    const [k, v = ''] = p.split('=');
    parts.set(k.trim().toUpperCase(), v.trim().toUpperCase());
  }
  const scale = parts.get('RSCALE') ?? '';
  const refuse = (why: string): RscaleExpansion => ({ starts: [start], refused: `RRULE with RSCALE=${scale}: ${why}; only its first instance is imported` });
  if (REFUSED.has(scale)) return refuse('this calendar depends on observation or astronomy, which cannot be computed reliably');
  const calendar = SUPPORTED[scale];
  if (!calendar) return refuse('an unknown calendar');
  const unsupported = [...parts.keys()].filter((k) => !PARTS.has(k));
  if (unsupported.length) return refuse(`${unsupported.join(', ')} not supported with RSCALE`);
  const freq = parts.get('FREQ');
  if (freq !== 'YEARLY' && freq !== 'MONTHLY') return refuse(`FREQ=${freq ?? ''} not supported with RSCALE`);
  const interval = Math.max(1, Number(parts.get('INTERVAL') ?? 1) || 1);
  const count = parts.has('COUNT') ? Math.max(1, Number(parts.get('COUNT')) || 1) : Infinity;
  const skip = parts.get('SKIP') ?? 'OMIT';
  if (!['OMIT', 'BACKWARD', 'FORWARD'].includes(skip)) return refuse(`SKIP=${skip} is not known`);
  const byMonth = parts.get('BYMONTH')?.split(',').filter(Boolean);
  const byDay = parts.get('BYMONTHDAY')?.split(',').map(Number);
  if (byDay?.some((d) => !Number.isInteger(d) || d === 0 || Math.abs(d) > 31)) return refuse('BYMONTHDAY is not a list of month days');

  const first = dayNumber(start);
  if (lastDay - first > MAX_DAYS) return refuse('the rule starts too long before the import window');
  let months: Month[];
  try {
    // A month beyond the last day too, for SKIP=FORWARD.
    months = monthsOf(calendar, first, Math.max(first, lastDay) + 62);
  } catch (e) {
    return refuse(e instanceof Error ? e.message : String(e));
  }
  const m0 = months[0];
  const d0 = first - m0.first + 1;
  const dayIn = (i: number, day: number): number | null => {
    const m = months[i];
    const d = day < 0 ? m.length + 1 + day : day;
    if (d >= 1 && d <= m.length) return m.first + d - 1;
    if (skip === 'OMIT' || d < 1) return null;
    if (skip === 'BACKWARD') return m.first + m.length - 1;
    return i + 1 < months.length ? months[i + 1].first : null;
  };
  const days = new Set<number>();
  const yearsOf = new Map<number, number[]>();
  months.forEach((m, i) => yearsOf.set(m.year, [...(yearsOf.get(m.year) ?? []), i]));
  if (freq === 'YEARLY') {
    for (const [year, list] of yearsOf) {
      if ((year - m0.year) % interval !== 0) continue;
      for (const code of byMonth ?? [m0.code]) {
        let at = list.find((i) => months[i].code === code);
        if (at === undefined && code.endsWith('L') && skip !== 'OMIT') {
          // A leap month this year lacks: the month before it (BACKWARD) or after it (FORWARD), RFC 7529 4.2.
          const base = list.findIndex((i) => months[i].code === code.slice(0, -1));
          if (base >= 0) at = list[skip === 'BACKWARD' ? base : base + 1];
        }
        if (at !== undefined) for (const d of byDay ?? [d0]) days.add(dayIn(at, d) ?? -1);
      }
    }
  } else {
    for (let i = 0; i < months.length; i += interval)
      if (!byMonth || byMonth.includes(months[i].code)) for (const d of byDay ?? [d0]) days.add(dayIn(i, d) ?? -1);
  }
  const starts: Wall[] = [start];
  for (const n of [...days].filter((n) => n > first && n <= lastDay).sort((a, b) => a - b)) {
    if (starts.length >= count) break;
    const w = wallOfDay(n, start);
    if (past(w)) break;
    starts.push(w);
  }
  return { starts };
}
