/**
 * How the VEVENTs of one UID resolve (RFC 5545 3.8.4.4, 3.8.7.4) and what real exporters do with them:
 * D. copies without RECURRENCE-ID: versions of one event leave the newest (SEQUENCE, then DTSTAMP);
 *    different events sharing a UID are all kept; never one lost without a line on the run;
 * G. Exchange names an occurrence of an all-day series by a date-time RECURRENCE-ID: matched by its
 *    local date, the moved occurrence replaces the original instead of standing beside it.
 */
import { parseICalendar } from './ical';

const WINDOW = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };
const feed = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tests//EN', ...lines, 'END:VCALENDAR'].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const read = (text: string, defaultZone = 'UTC') => parseICalendar(text, { defaultZone, window: WINDOW });

describe('D: one UID, several events without RECURRENCE-ID', () => {
  it('keeps two different episodes exported under one UID, and says so', () => {
    const r = read(
      feed(
        ...vevent('UID:ep@tv', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260421T220000Z', 'SUMMARY:Episode 21'),
        ...vevent('UID:ep@tv', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260421T220000Z', 'SUMMARY:Episode 20'),
      ),
    );
    // The later in the file stands under the UID (the newer, when nothing else tells them apart).
    expect(r.events.map((e) => e.title)).toEqual(['Episode 20', 'Episode 21']);
    expect(r.events[0].uid).toBe('ep@tv');
    expect(r.events[1].uid).toMatch(/^ep@tv#[0-9a-f]{8}$/);
    expect(r.errors).toEqual([{ uid: 'ep@tv', line: 4, message: '2 different events share this UID: each is kept' }]);
  });

  it('gives the second event the same UID on every import', () => {
    const text = feed(
      ...vevent('UID:s@x', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260301T100000Z', 'SUMMARY:A'),
      ...vevent('UID:s@x', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260302T100000Z', 'SUMMARY:A'),
    );
    expect(read(text).events.map((e) => e.uid)).toEqual(read(text).events.map((e) => e.uid));
  });

  it.each([
    ['a higher SEQUENCE', ['SEQUENCE:2', 'DTSTAMP:20260101T000000Z'], ['SEQUENCE:1', 'DTSTAMP:20260105T000000Z'], 'SEQUENCE 2'],
    ['a later DTSTAMP at one SEQUENCE', ['SEQUENCE:1', 'DTSTAMP:20260105T000000Z'], ['SEQUENCE:1', 'DTSTAMP:20260101T000000Z'], 'SEQUENCE 1'],
  ])('keeps the version with %s, wherever it stands in the file', (_, newer, older, seq) => {
    for (const order of [
      [newer, older],
      [older, newer],
    ]) {
      const r = read(
        feed(
          ...vevent('UID:v@x', ...order[0], `DTSTART:2026030${order[0] === newer ? 2 : 1}T100000Z`, 'SUMMARY:Talk'),
          ...vevent('UID:v@x', ...order[1], `DTSTART:2026030${order[1] === newer ? 2 : 1}T100000Z`, 'SUMMARY:Talk'),
        ),
      );
      expect(r.events.map((e) => [e.uid, e.start_date])).toEqual([['v@x', '2026-03-02 10:00:00']]);
      expect(r.errors.map((e) => e.message)).toEqual([`1 older copy of this UID left out for the newest (${seq})`]);
    }
  });

  it('leaves out an identical copy, with a line', () => {
    const copy = vevent('UID:c@x', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260301T100000Z', 'SUMMARY:Same');
    const r = read(feed(...copy, ...copy));
    expect(r.events).toHaveLength(1);
    expect(r.errors.map((e) => e.message)).toEqual(['1 identical copy of this event left out']);
  });

  it('keeps a series and a different single event under one UID, the overrides going to the series', () => {
    const r = read(
      feed(
        ...vevent('UID:m@x', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260301T100000Z', 'SUMMARY:One-off'),
        ...vevent('UID:m@x', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260302T100000Z', 'RRULE:FREQ=DAILY;COUNT=2', 'SUMMARY:Series'),
        ...vevent('UID:m@x', 'DTSTAMP:20260101T000000Z', 'RECURRENCE-ID:20260303T100000Z', 'DTSTART:20260303T120000Z', 'SUMMARY:Moved'),
      ),
    );
    expect(r.events.map((e) => [e.title, e.start_date])).toEqual([
      ['Series', '2026-03-02 10:00:00'],
      ['Moved', '2026-03-03 12:00:00'],
      ['One-off', '2026-03-01 10:00:00'],
    ]);
    expect(r.errors).toHaveLength(1);
  });
});

describe('G: an all-day series moved by a date-time RECURRENCE-ID', () => {
  const series = (rid: string) =>
    feed(
      ...vevent(
        'UID:g@x',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;VALUE=DATE:20260219',
        'DTEND;VALUE=DATE:20260220',
        'RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=3',
        'SUMMARY:Day off',
      ),
      ...vevent('UID:g@x', 'DTSTAMP:20260101T000000Z', rid, 'DTSTART;VALUE=DATE:20260227', 'DTEND;VALUE=DATE:20260228', 'SUMMARY:Day off, moved'),
    );

  it.each([
    ['a Windows zone name', 'RECURRENCE-ID;TZID=W. Europe Standard Time:20260226T000000'],
    ['an offset zone east of UTC', 'RECURRENCE-ID;TZID=UTC+01:20260226T000000'],
    ['a zone west of UTC', 'RECURRENCE-ID;TZID=America/New_York:20260226T000000'],
    ['a date', 'RECURRENCE-ID;VALUE=DATE:20260226'],
  ])('replaces the occurrence its local date names (%s)', (_, rid) => {
    const r = read(series(rid));
    expect(r.events.map((e) => [e.uid, e.start_date, e.title])).toEqual([
      ['g@x/20260219', '2026-02-19', 'Day off'],
      ['g@x/20260226', '2026-02-27', 'Day off, moved'],
      ['g@x/20260305', '2026-03-05', 'Day off'],
    ]);
  });

  it('reads a UTC RECURRENCE-ID on the date of the feed zone', () => {
    const r = read(series('RECURRENCE-ID:20260225T230000Z'), 'Europe/Berlin');
    expect(r.events.map((e) => e.start_date)).toEqual(['2026-02-19', '2026-02-27', '2026-03-05']);
  });
});
