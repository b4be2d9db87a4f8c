/**
 * Reading real feeds line by line as calendar apps do (RFC 5545 3.1, and what exporters get wrong):
 * A. a line or component that cannot be read outside the events is skipped and reported, text after
 *    END:VCALENDAR is ignored, and the feed's events are all imported;
 * B. an empty or unreadable RRULE leaves a single event, reported;
 * C. `DTSTART;VALUE=DATE:20110804T120000` is a date-time (reported), and events without a UID keep
 *    their own derived UIDs;
 * I. spaces inside a rule's parts are trimmed.
 */
import { parseICalendar } from './ical';
import { readLines, repairEvent, ruleProblem } from './lines';

const WINDOW = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };
const feed = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tests//EN', ...lines, 'END:VCALENDAR'].join('\r\n');
const event = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];
const read = (text: string) => parseICalendar(text, { defaultZone: 'UTC', window: WINDOW });

describe('A: what cannot be read outside the events', () => {
  it('skips an ORGANIZER without a value inside a VFREEBUSY, and imports the events', () => {
    const r = read(
      feed(
        'BEGIN:VFREEBUSY',
        'ORGANIZER;CN=Jane Doe',
        'FREEBUSY:20260101T100000Z/PT1H',
        'END:VFREEBUSY',
        ...event('a@x', 'DTSTART:20260310T090000Z', 'SUMMARY:Kept'),
      ),
    );
    expect(r.events.map((e) => e.uid)).toEqual(['a@x']);
    expect(r.errors).toEqual([{ line: 5, message: 'Unreadable line skipped: "ORGANIZER;CN=Jane Doe"' }]);
  });

  it('ignores X- lines and anything else after END:VCALENDAR, with one line on the run', () => {
    const r = read(`${feed(...event('a@x', 'DTSTART:20260310T090000Z'))}\r\nX-TRAILER:1\r\nX-OTHER:2\r\n`);
    expect(r.events).toHaveLength(1);
    expect(r.errors).toEqual([{ line: 10, message: '2 lines after END:VCALENDAR ignored' }]);
  });

  it('reads a second calendar of the same file', () => {
    const r = read(`${feed(...event('a@x', 'DTSTART:20260310T090000Z'))}\r\n${feed(...event('b@x', 'DTSTART:20260311T090000Z'))}`);
    expect(r.events.map((e) => e.uid)).toEqual(['a@x', 'b@x']);
    expect(r.errors).toEqual([]);
  });

  it('skips an unreadable VTIMEZONE (reported) and reads the events in the zone their TZID names', () => {
    const r = read(
      feed(
        'BEGIN:VTIMEZONE',
        'TZID:Europe/Paris',
        'BEGIN:STANDARD',
        'TZOFFSETFROM:bogus',
        'END:VTIMEZONE',
        ...event('a@x', 'DTSTART;TZID=Europe/Paris:20260310T090000', 'DTEND;TZID=Europe/Paris:20260310T100000'),
      ),
    );
    expect(r.events[0]).toMatchObject({ start_date: '2026-03-10 09:00:00', timezone: 'Europe/Paris' });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/^VTIMEZONE Europe\/Paris skipped: /);
  });

  it('passes over VTODO and VJOURNAL components, readable or not', () => {
    const r = read(feed('BEGIN:VTODO', 'UID:t@x', 'DUE;VALUE=DATE:nope', 'END:VTODO', ...event('a@x', 'DTSTART:20260310T090000Z')));
    expect(r.events.map((e) => e.uid)).toEqual(['a@x']);
    expect(r.errors).toEqual([]);
  });

  it('fails a text whose only content cannot be read (a run would otherwise retire every event)', () => {
    expect(() => read(feed('BEGIN:VTIMEZONE', 'no colon here'))).toThrow(/Unreadable iCalendar feed/);
  });

  it('splits lines with quoted parameters holding colons and semicolons', () => {
    const { lines, notes } = readLines('BEGIN:VCALENDAR\r\nATTENDEE;CN="Doe, J: the; one";ROLE=CHAIR:mailto:j@x\r\n folded\r\nEND:VCALENDAR');
    expect(notes).toEqual([]);
    expect(lines[1]).toEqual({ name: 'ATTENDEE', params: ';CN="Doe, J: the; one";ROLE=CHAIR', value: 'mailto:j@xfolded', line: 2 });
  });
});

describe('B: empty or unreadable rules', () => {
  it.each([
    ['RRULE:', 'RRULE is empty'],
    ['RRULE:RRULE:AnythingRandom;FREQ=WEEKLY', 'RRULE has a part that is no NAME=VALUE'],
    ['RRULE:BYDAY=MO', 'RRULE has no FREQ'],
    ['RRULE:FREQ=FORTNIGHTLY', 'RRULE has an unknown FREQ'],
  ])('%s leaves a single event, reported', (rule, message) => {
    const r = read(feed(...event('holiday@x', 'DTSTART;VALUE=DATE:20260501', 'DTEND;VALUE=DATE:20260502', rule, 'SUMMARY:Labour Day')));
    expect(r.events.map((e) => [e.uid, e.start_date, e.all_day])).toEqual([['holiday@x', '2026-05-01', true]]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ uid: 'holiday@x', line: 4 });
    expect(r.errors[0].message).toContain(message);
  });

  it('keeps the RDATEs of an event whose RRULE is dropped', () => {
    const r = read(feed(...event('r@x', 'DTSTART:20260501T100000Z', 'RRULE:', 'RDATE:20260601T100000Z')));
    expect(r.events.map((e) => e.uid)).toEqual(['r@x/20260501T100000Z', 'r@x/20260601T100000Z']);
  });

  it('reads an X- part as a part (RFC 2445 allowed them)', () => {
    expect(ruleProblem('FREQ=DAILY;X-NAME=1')).toBeNull();
  });
});

describe('C: a date-time under VALUE=DATE', () => {
  it('is read as a date-time, reported', () => {
    const r = read(feed(...event('c@x', 'DTSTART;VALUE=DATE:20260804T120000', 'DTEND;VALUE=DATE:20260804T180000', 'SUMMARY:Sign-up')));
    expect(r.events[0]).toMatchObject({ start_date: '2026-08-04 12:00:00', end_date: '2026-08-04 18:00:00' });
    expect(r.events[0].all_day).toBeUndefined();
    expect(r.errors.map((e) => e.message)).toEqual([
      'DTSTART;VALUE=DATE holds a date-time (20260804T120000): read as a date-time',
      'DTEND;VALUE=DATE holds a date-time (20260804T180000): read as a date-time',
    ]);
  });

  it('keeps UID-less events of one day apart: their UIDs come from the full original value', () => {
    const noUid = (start: string) => ['BEGIN:VEVENT', `DTSTART;VALUE=DATE:${start}`, 'SUMMARY:Demo', 'END:VEVENT'];
    const r = read(feed(...noUid('20260806T130000'), ...noUid('20260806T160000')));
    expect(r.events.map((e) => e.start_date)).toEqual(['2026-08-06 13:00:00', '2026-08-06 16:00:00']);
    expect(new Set(r.events.map((e) => e.uid)).size).toBe(2);
  });

  it('repairs RECURRENCE-ID, EXDATE and RDATE the same way', () => {
    const { lines, notes } = repairEvent(
      readLines(['BEGIN:VCALENDAR', 'EXDATE;VALUE=DATE:20260101T100000', 'RDATE;VALUE=DATE:20260102', 'END:VCALENDAR'].join('\r\n')).lines.slice(1, 3),
    );
    expect(lines.map((l) => l.params)).toEqual(['', ';VALUE=DATE']);
    expect(notes).toHaveLength(1);
  });
});

describe('I: spaces inside a rule', () => {
  it.each(['FREQ=WEEKLY;BYDAY=MO, TU, WE;COUNT=6', 'FREQ=WEEKLY; BYDAY=MO,TU,WE ;COUNT=6', 'FREQ = WEEKLY;BYDAY=MO,TU,WE;COUNT = 6'])('reads %s', (rule) => {
    const r = read(feed(...event('i@x', 'DTSTART:20260302T090000Z', `RRULE:${rule}`)));
    expect(r.errors).toEqual([]);
    expect(r.events.map((e) => String(e.start_date).slice(0, 10))).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
    ]);
  });
});

it('imports an event whose DTSTAMP cannot be read (Google wrote 202103206T200210Z)', () => {
  const r = read(feed(...['BEGIN:VEVENT', 'UID:s@x', 'DTSTAMP:202103206T200210Z', 'DTSTART;VALUE=DATE:20260401', 'END:VEVENT']));
  expect(r.events.map((e) => e.start_date)).toEqual(['2026-04-01']);
  expect(r.errors).toEqual([]);
});
