/**
 * Times as RFC 5545 and calendar apps read them:
 * E. a date-valued DTEND of a timed event is midnight in the event's own zone (not the feed's);
 * H. DTSTART is the first instance of its series even when the rule would not produce it;
 * and around them: TZIDs stored under the tz database's own name, all-day events keeping their TZID.
 */
import { parseICalendar } from './ical';

const WINDOW = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };
const read = (defaultZone: string, ...lines: string[]) =>
  parseICalendar(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:t@x', 'SUMMARY:T', ...lines, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'), {
    defaultZone,
    window: WINDOW,
  });

describe('E: a date-valued DTEND', () => {
  it.each([
    ['a UTC start', 'DTSTART:20260310T200000Z', 'UTC', '2026-03-10 20:00:00', '2026-03-11 00:00:00'],
    ['a zoned start', 'DTSTART;TZID=America/New_York:20260310T200000', 'America/New_York', '2026-03-10 20:00:00', '2026-03-11 00:00:00'],
    ['a floating start', 'DTSTART:20260310T200000', 'America/New_York', '2026-03-10 20:00:00', '2026-03-11 00:00:00'],
  ])('ends at midnight in the zone of %s, whatever the feed zone', (_, start, zone, s, e) => {
    const r = read('America/New_York', start, 'DTEND;VALUE=DATE:20260311');
    expect(r.events[0]).toMatchObject({ start_date: s, end_date: e, timezone: zone });
  });
});

describe('H: a DTSTART its rule does not produce', () => {
  it('is the first instance (Monday start, Thursdays and Fridays)', () => {
    const r = read('UTC', 'DTSTART:20260302T130000Z', 'RRULE:FREQ=WEEKLY;BYDAY=TH,FR;COUNT=4');
    expect(r.events.map((e) => String(e.start_date).slice(0, 10))).toEqual(['2026-03-02', '2026-03-05', '2026-03-06', '2026-03-12', '2026-03-13']);
  });

  it('is the first instance of a monthly rule by day of month, and left out when an EXDATE names it', () => {
    expect(read('UTC', 'DTSTART;VALUE=DATE:20260303', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=2').events.map((e) => e.start_date)).toEqual([
      '2026-03-03',
      '2026-03-15',
      '2026-04-15',
    ]);
    expect(
      read('UTC', 'DTSTART;VALUE=DATE:20260303', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=2', 'EXDATE;VALUE=DATE:20260303').events.map((e) => e.start_date),
    ).toEqual(['2026-03-15', '2026-04-15']);
  });
});

describe('zone names', () => {
  it.each([
    ['Europe/lisbon', 'Europe/Lisbon'],
    ['EUROPE/PARIS', 'Europe/Paris'],
    ['US/Eastern', 'America/New_York'],
    ['/mozilla.org/20050126_1/Europe/berlin', 'Europe/Berlin'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
  ])('stores TZID %s as %s', (tzid, zone) => {
    expect(read('UTC', `DTSTART;TZID=${tzid}:20260310T090000`).events[0]).toMatchObject({ timezone: zone, start_date: '2026-03-10 09:00:00' });
  });

  it('keeps the zone an all-day event names, not the feed zone', () => {
    const r = read('UTC', 'DTSTART;TZID=Pacific/Auckland;VALUE=DATE:20260310', 'DTEND;TZID=Pacific/Auckland;VALUE=DATE:20260311');
    expect(r.events[0]).toMatchObject({ all_day: true, start_date: '2026-03-10', end_date: '2026-03-10', timezone: 'Pacific/Auckland' });
  });

  it('reads an all-day Outlook event (X-MICROSOFT-CDO-ALLDAYEVENT) in its own zone', () => {
    const r = read('UTC', 'DTSTART;TZID=Europe/Berlin:20260310T000000', 'DTEND;TZID=Europe/Berlin:20260312T000000', 'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE');
    expect(r.events[0]).toMatchObject({ all_day: true, start_date: '2026-03-10', end_date: '2026-03-11', timezone: 'Europe/Berlin' });
  });
});

it('refuses an event with two DTSTARTs (which one was meant is unknown), with a line', () => {
  const r = read('UTC', 'DTSTART:20260101T100000Z', 'DTSTART:20260102T100000Z');
  expect(r.events).toEqual([]);
  expect(r.errors).toEqual([{ uid: 't@x', line: 2, message: 'DTSTART appears more than once' }]);
});

it('repeats a UTC series in UTC under an X-WR-TIMEZONE (RFC 5545; Google repeats it on the calendar zone clock)', () => {
  const r = parseICalendar(
    [
      'BEGIN:VCALENDAR',
      'X-WR-TIMEZONE:Europe/Berlin',
      'BEGIN:VEVENT',
      'UID:u@x',
      'DTSTART:20260320T090000Z',
      'DTEND:20260320T100000Z',
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n'),
    { defaultZone: 'UTC', window: WINDOW },
  );
  // Berlin moves to summer time on 29 March: the same UTC hour is an hour later there.
  expect(r.events.map((e) => [e.uid, e.start_date, e.timezone])).toEqual([
    ['u@x/20260320T090000Z', '2026-03-20 10:00:00', 'Europe/Berlin'],
    ['u@x/20260327T090000Z', '2026-03-27 10:00:00', 'Europe/Berlin'],
    ['u@x/20260403T090000Z', '2026-04-03 11:00:00', 'Europe/Berlin'],
  ]);
});
