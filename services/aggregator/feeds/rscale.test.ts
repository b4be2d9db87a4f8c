/**
 * F. Rules in other calendars (RFC 7529 RSCALE) expand on that calendar's dates, through ICU's
 * calendars; the calendars that cannot be computed reliably are refused with a line on the run,
 * keeping only DTSTART, and never a wrong date.
 */
import { parseICalendar } from './ical';

const WINDOW = { from: new Date('2024-01-01T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') };
const read = (rule: string, start = 'DTSTART;VALUE=DATE:20240423') =>
  parseICalendar(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:r@x', start, `RRULE:${rule}`, 'SUMMARY:R', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'), {
    defaultZone: 'UTC',
    window: WINDOW,
  });
const dates = (rule: string, start?: string) => read(rule, start).events.map((e) => String(e.start_date).slice(0, 10));

it('repeats on the Hebrew date each Hebrew year (15 Nisan: Passover)', () => {
  expect(dates('RSCALE=HEBREW;FREQ=YEARLY;COUNT=6')).toEqual(['2024-04-23', '2025-04-13', '2026-04-02', '2027-04-22', '2028-04-11', '2029-03-31']);
});

it('keeps the time of a timed event, and reads UNTIL', () => {
  const r = read('RSCALE=HEBREW;FREQ=YEARLY;UNTIL=20270101T000000Z', 'DTSTART:20240423T180000Z');
  expect(r.events.map((e) => e.start_date)).toEqual(['2024-04-23 18:00:00', '2025-04-13 18:00:00', '2026-04-02 18:00:00']);
});

it('finds the leap month Adar I (5L), and moves to Adar in common years with SKIP=FORWARD, or leaves them out by default', () => {
  expect(dates('RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=1;SKIP=FORWARD;COUNT=4', 'DTSTART;VALUE=DATE:20240210')).toEqual([
    '2024-02-10',
    '2025-03-01',
    '2026-02-18',
    '2027-02-08',
  ]);
  expect(dates('RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=1;COUNT=2', 'DTSTART;VALUE=DATE:20240210')).toEqual(['2024-02-10', '2027-02-08']);
});

it('repeats monthly on the Ethiopic calendar, leaving out the short 13th month where the day is missing', () => {
  expect(dates('RSCALE=ETHIOPIC;FREQ=MONTHLY;COUNT=7')).toEqual([
    '2024-04-23',
    '2024-05-23',
    '2024-06-22',
    '2024-07-22',
    '2024-08-21',
    '2024-09-25',
    '2024-10-25',
  ]);
});

it('takes the last day of a short month with SKIP=BACKWARD (30 Heshvan)', () => {
  // 30 Heshvan 5785 is 2024-12-01; 5786's Heshvan has 29 days, so its 29th (2025-11-20).
  expect(dates('RSCALE=HEBREW;FREQ=YEARLY;SKIP=BACKWARD;COUNT=2', 'DTSTART;VALUE=DATE:20241201')).toEqual(['2024-12-01', '2025-11-20']);
});

it.each(['CHINESE', 'DANGI', 'PERSIAN', 'ISLAMIC'])('refuses RSCALE=%s with a line, keeping only DTSTART', (scale) => {
  const r = read(`RSCALE=${scale};FREQ=YEARLY`);
  expect(r.events.map((e) => e.start_date)).toEqual(['2024-04-23']);
  expect(r.errors).toHaveLength(1);
  expect(r.errors[0].message).toMatch(new RegExp(`^RRULE with RSCALE=${scale}: .*only its first instance is imported$`));
});

it.each([
  ['an unknown calendar', 'RSCALE=KLINGON;FREQ=YEARLY'],
  ['a part it does not expand', 'RSCALE=HEBREW;FREQ=YEARLY;BYDAY=SA'],
  ['a weekly rule', 'RSCALE=HEBREW;FREQ=WEEKLY'],
])('refuses %s rather than guess', (_, rule) => {
  const r = read(rule);
  expect(r.events).toHaveLength(1);
  expect(r.errors[0].message).toMatch(/only its first instance is imported/);
});
