/**
 * iCalendar feeds as aggregator items: Google, Outlook and Meetup exports field by field (instants in
 * UTC through eventTimes, the reading the import uses), recurrence with EXDATE and overrides, the
 * window and the cap, malformed events reported without stopping the parse, and a large feed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkEvents, eventTimes } from '../item-check';
import type { EaEvent } from '../items';
import { parseICalendar } from './ical';
import type { FeedResult } from './types';

const SITE = 'America/New_York';
const YEAR_2026 = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const parse = (name: string, window = YEAR_2026, maxOccurrences?: number) => parseICalendar(fixture(name), { defaultZone: SITE, window, maxOccurrences });

/** Start and end as UTC instants, the zone and the all-day flag, as the import reads the item. */
function when(item: EaEvent) {
  const t = eventTimes(item, SITE);
  if (typeof t === 'string') throw new Error(`unreadable ${t}`);
  return {
    start: t.start.toUTC().toISO({ suppressMilliseconds: true }),
    end: t.end.toUTC().toISO({ suppressMilliseconds: true }),
    zone: t.timezone,
    allDay: t.allDay,
  };
}
const byUid = (r: FeedResult, uid: string) => {
  const e = r.events.find((x) => x.uid === uid);
  if (!e) throw new Error(`no event ${uid}`);
  return e;
};
const valid = (r: FeedResult) => expect('events' in checkEvents(r.events, SITE)).toBe(true);

describe('Google Calendar export', () => {
  const r = parse('google.ics');
  const YOGA = '7kq2vd1s0f3l9yoga@google.com';

  it('reads the calendar name and every event of the window, all valid items', () => {
    expect(r.errors).toEqual([]);
    expect(r.calendarName).toBe('Friedrichshain Community, Events');
    // 14 weekly occurrences − 1 EXDATE − 1 cancelled override, the festival, the town hall, the partner call.
    expect(r.events).toHaveLength(15);
    valid(r);
  });

  it('expands the weekly series across the DST change, with the EXDATE and both overrides applied', () => {
    const yoga = r.events.filter((e) => String(e.uid).startsWith(`${YOGA}/`));
    expect(yoga.map((e) => when(e).start)).toEqual([
      '2026-01-05T17:00:00Z',
      '2026-01-12T17:00:00Z',
      '2026-01-26T17:00:00Z',
      '2026-02-03T18:00:00Z',
      '2026-02-09T17:00:00Z',
      '2026-02-23T17:00:00Z',
      '2026-03-02T17:00:00Z',
      '2026-03-09T17:00:00Z',
      '2026-03-16T17:00:00Z',
      '2026-03-23T17:00:00Z',
      // Summer time from 29 March: the wall clock stays at 18:00; the UTC UNTIL includes 6 April.
      '2026-03-30T16:00:00Z',
      '2026-04-06T16:00:00Z',
    ]);
    const first = byUid(r, `${YOGA}/20260105T170000Z`);
    expect(first).toMatchObject({
      title: 'Yoga in the Park',
      start_date: '2026-01-05 18:00:00',
      end_date: '2026-01-05 19:30:00',
      timezone: 'Europe/Berlin',
      categories: ['Sport', 'Outdoors'],
    });
    expect(first.all_day).toBeUndefined();
    expect(when(first)).toEqual({ start: '2026-01-05T17:00:00Z', end: '2026-01-05T18:30:00Z', zone: 'Europe/Berlin', allDay: false });
    expect(first.venue).toEqual({ venue: 'Volkspark Friedrichshain', address: 'Am Friedrichshain 1, 10249 Berlin, Germany' });
    // Escaped commas, semicolons and newlines, and a folded line read back whole.
    expect(first.description).toBe(
      'Bring a mat, water; and a friend.\nBeginners welcome.\n\nThe session runs outdoors unless it rains heavily, in which case we move to the community hall next door and start fifteen minutes later than usual.',
    );
    expect(first.global_id).toBeUndefined();
    // The moved occurrence keeps the name of the one it replaces.
    const moved = byUid(r, `${YOGA}/20260202T170000Z`);
    expect(moved).toMatchObject({ title: 'Yoga in the Park (Tuesday)', description: 'Moved to Tuesday this week.', start_date: '2026-02-03 19:00:00' });
    expect(when(moved)).toMatchObject({ start: '2026-02-03T18:00:00Z', end: '2026-02-03T19:30:00Z' });
    expect(r.events.some((e) => e.uid === `${YOGA}/20260216T170000Z`)).toBe(false);
    expect(r.events.some((e) => e.uid === `${YOGA}/20260119T170000Z`)).toBe(false);
    expect(byUid(r, `${YOGA}/20260330T160000Z`)).toMatchObject({ start_date: '2026-03-30 18:00:00', end_date: '2026-03-30 19:30:00' });
  });

  it('gives an all-day multi-day event its inclusive last day', () => {
    const fest = byUid(r, '3f9a0c2e8b1d4festival@google.com');
    expect(fest).toMatchObject({ title: 'Summer Festival', start_date: '2026-06-12', end_date: '2026-06-14', all_day: true, timezone: 'Europe/Berlin' });
    expect(fest.venue).toEqual({ venue: 'Boxhagener Platz', address: '10245 Berlin' });
    expect(when(fest)).toEqual({ start: '2026-06-11T22:00:00Z', end: '2026-06-13T22:00:00Z', zone: 'Europe/Berlin', allDay: true });
  });

  it('stores UTC times in the calendar zone (X-WR-TIMEZONE), and a link as LOCATION as no venue', () => {
    const hall = byUid(r, '0b5c7e1a9d2f4townhall@google.com');
    expect(hall).toMatchObject({
      title: 'Online Town Hall: budget, plans & questions',
      start_date: '2026-03-10 18:00:00',
      end_date: '2026-03-10 19:30:00',
      timezone: 'Europe/Berlin',
      url: 'https://meet.example.org/townhall',
    });
    expect(hall.venue).toBeUndefined();
    expect(when(hall)).toMatchObject({ start: '2026-03-10T17:00:00Z', end: '2026-03-10T18:30:00Z' });
  });

  it('keeps an event in its own IANA zone, with organizer, URL and category', () => {
    const call = byUid(r, '9d8c7b6a5e4f3partner@google.com');
    expect(call).toMatchObject({ title: 'Partner call', timezone: 'America/New_York', url: 'https://example.org/partner-call', categories: ['Partners'] });
    expect(call.organizer).toEqual({ organizer: 'Jamie Rivera', email: 'jamie@example.org' });
    expect(when(call)).toMatchObject({ start: '2026-04-15T14:00:00Z', end: '2026-04-15T15:00:00Z' });
  });

  it('names every event the same way on the next parse', () => {
    expect(parse('google.ics').events.map((e) => e.uid)).toEqual(r.events.map((e) => e.uid));
    expect(new Set(r.events.map((e) => e.uid)).size).toBe(r.events.length);
  });
});

describe('Outlook export', () => {
  const r = parse('outlook.ics');
  const uid = (tail: string) => `040000008200E00074C5B7101A82E00800000000${tail}`;

  it('reads every event, all valid items', () => {
    expect(r.errors).toEqual([]);
    expect(r.calendarName).toBeUndefined();
    expect(r.events).toHaveLength(9);
    valid(r);
  });

  it('maps Windows zone names to IANA zones', () => {
    const review = r.events.find((e) => e.title === 'Quarterly review')!;
    expect(review).toMatchObject({
      timezone: 'Europe/Berlin',
      start_date: '2026-03-10 09:00:00',
      end_date: '2026-03-10 10:30:00',
      venue: { venue: 'Room 4.12' },
    });
    expect(when(review)).toMatchObject({ start: '2026-03-10T08:00:00Z', end: '2026-03-10T09:30:00Z' });
    expect(review.organizer).toEqual({ organizer: 'Müller, Anna', email: 'anna.mueller@example.com' });
    // The plain DESCRIPTION is kept (rendered with paragraphs and line breaks), not Outlook's HTML document.
    expect(review.description).toBe('Agenda:\n1. Numbers\n2. Plans');
    const sync = byUid(r, uid('11111111'));
    expect(sync).toMatchObject({ title: 'West coast sync', timezone: 'America/Los_Angeles', start_date: '2026-03-11 08:00:00' });
    expect(when(sync)).toMatchObject({ start: '2026-03-11T15:00:00Z', end: '2026-03-11T16:00:00Z' });
    const display = byUid(r, uid('44444444'));
    expect(display.timezone).toBe('Europe/Amsterdam');
    expect(when(display)).toMatchObject({ start: '2026-03-12T08:00:00Z', end: '2026-03-12T09:00:00Z' });
  });

  it('reads a zone known only by its VTIMEZONE through its offsets, stored in the default zone', () => {
    const standup = byUid(r, uid('55555555'));
    // 15:00 at +05:30 is 09:30 UTC, 05:30 in New York (daylight time from 8 March).
    expect(standup).toMatchObject({ timezone: SITE, start_date: '2026-03-12 05:30:00', end_date: '2026-03-12 06:30:00' });
    expect(when(standup)).toMatchObject({ start: '2026-03-12T09:30:00Z', end: '2026-03-12T10:30:00Z' });
  });

  it('reads all-day events, also those marked only by X-MICROSOFT-CDO-ALLDAYEVENT', () => {
    expect(byUid(r, uid('22222222'))).toMatchObject({
      title: 'Team offsite',
      start_date: '2026-03-20',
      end_date: '2026-03-20',
      all_day: true,
      timezone: SITE,
      venue: { venue: 'Lakeside Lodge', address: 'Seestraße 5, Potsdam' },
    });
    expect(byUid(r, uid('33333333'))).toMatchObject({ title: 'Spring break', start_date: '2026-04-01', end_date: '2026-04-02', all_day: true });
  });

  it('expands a COUNT rule in a Windows zone, the EXDATE matched across the DST change', () => {
    const planning = r.events.filter((e) => e.title === 'Weekly planning');
    expect(planning.map((e) => e.uid)).toEqual([uid('66666666/20260317T130000Z'), uid('66666666/20260331T120000Z'), uid('66666666/20260407T120000Z')]);
    expect(planning.map((e) => e.start_date)).toEqual(['2026-03-17 14:00:00', '2026-03-31 14:00:00', '2026-04-07 14:00:00']);
  });
});

describe('Meetup-style feed', () => {
  const r = parse('meetup.ics');

  it('reads UTC events with venue, address and URL, dropping the cancelled one', () => {
    expect(r.errors).toEqual([]);
    expect(r.calendarName).toBe('Example JS Meetup');
    expect(r.events.map((e) => e.title)).toEqual(['Example JS: TypeScript night', 'Example JS: Testing workshop', 'Example JS: Online Q&A']);
    valid(r);
    const night = r.events[0];
    expect(night).toMatchObject({
      uid: 'event_300000001@meetup.com',
      timezone: 'UTC',
      start_date: '2026-02-04 18:00:00',
      end_date: '2026-02-04 21:00:00',
      url: 'https://www.meetup.com/example-js/events/300000001/',
      venue: { venue: 'Betahaus', address: 'Rudi-Dutschke-Straße 23, Berlin, Germany' },
    });
    expect(night.description).toContain('Wednesday, February 4 at 7:00 PM\n\nTwo talks about types, then pizza.');
    expect(when(night)).toMatchObject({ start: '2026-02-04T18:00:00Z', end: '2026-02-04T21:00:00Z', zone: 'UTC' });
    expect(r.events[2].venue).toBeUndefined();
    expect(r.events[2].url).toBe('https://www.meetup.com/example-js/events/300000004/');
  });
});

const wrap = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');

describe('window and cap', () => {
  const daily = wrap('BEGIN:VEVENT', 'UID:daily-1', 'DTSTART:20250101T120000Z', 'DTEND:20250101T130000Z', 'RRULE:FREQ=DAILY', 'SUMMARY:Daily', 'END:VEVENT');

  it('keeps occurrences whose span meets the window, an open rule bounded by it', () => {
    const r = parseICalendar(daily, { defaultZone: 'UTC', window: { from: new Date('2026-03-01T12:30:00Z'), to: new Date('2026-03-05T12:00:00Z') } });
    // 1 March 12:00–13:00 overlaps the start; 5 March 12:00 starts at the window's end.
    expect(r.events.map((e) => e.start_date)).toEqual(['2026-03-01 12:00:00', '2026-03-02 12:00:00', '2026-03-03 12:00:00', '2026-03-04 12:00:00']);
    expect(r.events[0].uid).toBe('daily-1/20260301T120000Z');
  });

  it('caps a series at maxOccurrences (500 by default)', () => {
    const years = { from: new Date('2025-01-01T00:00:00Z'), to: new Date('2028-01-01T00:00:00Z') };
    expect(parseICalendar(daily, { defaultZone: 'UTC', window: years }).events).toHaveLength(500);
    const capped = parseICalendar(daily, { defaultZone: 'UTC', window: years, maxOccurrences: 10 });
    expect(capped.events).toHaveLength(10);
    expect(capped.events[9].start_date).toBe('2025-01-10 12:00:00');
  });

  it('leaves out single events outside the window', () => {
    expect(parse('google.ics').events.some((e) => e.uid === 'old-event-2024@google.com')).toBe(false);
    const r = parse('google.ics', { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-07-01T00:00:00Z') });
    expect(r.events.map((e) => e.title)).toEqual(['Summer Festival']);
  });

  it('keeps single events wherever they lie when asked, the window bounding series only', () => {
    const june = { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-07-01T00:00:00Z') };
    const r = parseICalendar(fixture('google.ics'), { defaultZone: SITE, window: june, singles: 'all' });
    expect(r.events.some((e) => e.uid === 'old-event-2024@google.com')).toBe(true);
    expect(r.events.some((e) => String(e.uid).startsWith('7kq2vd1s0f3l9yoga@google.com/'))).toBe(false);
  });

  it('reads floating times and all-day series in the default zone, with DATE occurrence names', () => {
    const text = wrap(
      'BEGIN:VEVENT',
      'UID:float-1',
      'DTSTART:20260310T090000',
      'DURATION:PT1H30M',
      'SUMMARY:Floating',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:days-1',
      'DTSTART;VALUE=DATE:20260301',
      'RRULE:FREQ=MONTHLY;COUNT=3',
      'EXDATE;VALUE=DATE:20260401',
      'SUMMARY:Monthly',
      'END:VEVENT',
    );
    const r = parseICalendar(text, { defaultZone: 'Europe/Paris', window: YEAR_2026 });
    expect(r.events[0]).toMatchObject({ uid: 'float-1', start_date: '2026-03-10 09:00:00', end_date: '2026-03-10 10:30:00', timezone: 'Europe/Paris' });
    expect(r.events.slice(1).map((e) => [e.uid, e.start_date, e.end_date, e.all_day])).toEqual([
      ['days-1/20260301', '2026-03-01', '2026-03-01', true],
      ['days-1/20260501', '2026-05-01', '2026-05-01', true],
    ]);
  });
});

describe('fields and less common forms', () => {
  it('merges CATEGORIES properties, takes an image ATTACH, an HTML-only description and a bare ORGANIZER', () => {
    const text = wrap(
      'BEGIN:VEVENT',
      'UID:fields-1',
      'DTSTART:20260310T090000Z',
      'SUMMARY:Fields',
      'CATEGORIES:Music,Jazz',
      'CATEGORIES:jazz,Live\\, Loud',
      'ATTACH:https://example.org/file.pdf',
      'ATTACH;FMTTYPE=image/jpeg:https://example.org/poster.jpg',
      'X-ALT-DESC;FMTTYPE=text/html:<html><body><p>Hot <b>jazz</b>\\, cold drinks</p><!-- note --></body></html>',
      'ORGANIZER:mailto:box-office@example.org',
      'LOCATION:Blue Note',
      'END:VEVENT',
    );
    const [e] = parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 }).events;
    expect(e).toMatchObject({
      categories: ['Music', 'Jazz', 'Live, Loud'],
      image: 'https://example.org/poster.jpg',
      description: '<p>Hot <b>jazz</b>, cold drinks</p>',
      organizer: { organizer: 'box-office@example.org', email: 'box-office@example.org' },
      venue: { venue: 'Blue Note' },
    });
    expect((e.venue as { address?: string }).address).toBeUndefined();
  });

  it('reads an all-day DURATION, RDATEs, and an override moved into the window from outside it', () => {
    const text = wrap(
      'BEGIN:VEVENT',
      'UID:camp',
      'DTSTART;VALUE=DATE:20260706',
      'DURATION:P2D',
      'SUMMARY:Camp',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:talks',
      'DTSTART;TZID=Europe/Rome:20251215T180000',
      'DTEND;TZID=Europe/Rome:20251215T190000',
      'RRULE:FREQ=MONTHLY;COUNT=3',
      'RDATE;TZID=Europe/Rome:20260301T110000',
      'SUMMARY:Talk',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:talks',
      'RECURRENCE-ID;TZID=Europe/Rome:20251215T180000',
      'DTSTART;TZID=Europe/Rome:20260105T180000',
      'DTEND;TZID=Europe/Rome:20260105T200000',
      'SUMMARY:Talk (postponed)',
      'END:VEVENT',
    );
    const r = parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 });
    expect(r.events.map((e) => [e.uid, e.title, e.start_date, e.end_date])).toEqual([
      ['camp', 'Camp', '2026-07-06', '2026-07-07'],
      ['talks/20260115T170000Z', 'Talk', '2026-01-15 18:00:00', '2026-01-15 19:00:00'],
      ['talks/20260215T170000Z', 'Talk', '2026-02-15 18:00:00', '2026-02-15 19:00:00'],
      ['talks/20260301T100000Z', 'Talk', '2026-03-01 11:00:00', '2026-03-01 12:00:00'],
      ['talks/20251215T170000Z', 'Talk (postponed)', '2026-01-05 18:00:00', '2026-01-05 20:00:00'],
    ]);
  });

  it('keeps the override with the higher SEQUENCE, and one event per UID', () => {
    const text = wrap(
      'BEGIN:VEVENT',
      'UID:dup',
      'SEQUENCE:2',
      'DTSTART:20260310T090000Z',
      'SUMMARY:Newer',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:dup',
      'SEQUENCE:1',
      'DTSTART:20260309T090000Z',
      'SUMMARY:Older',
      'END:VEVENT',
    );
    expect(parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 }).events.map((e) => [e.uid, e.title])).toEqual([['dup', 'Newer']]);
  });
});

describe('malformed input', () => {
  it('reports a broken VEVENT with its UID and line, and imports the others', () => {
    const text = wrap(
      'BEGIN:VEVENT',
      'UID:good-1',
      'DTSTART:20260310T090000Z',
      'SUMMARY:Good',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:no-start',
      'SUMMARY:No start',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-line',
      'this line has no colon',
      'DTSTART:20260311T090000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-date',
      'DTSTART:2026-03-12',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:good-2',
      'DTSTART:20260313T090000Z',
      'SUMMARY:Also good',
      'END:VEVENT',
    );
    const r = parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 });
    // The line that cannot be read is skipped (and reported), its event kept, as calendar apps do.
    expect(r.events.map((e) => e.uid)).toEqual(['good-1', 'bad-line', 'good-2']);
    expect(r.errors.map((e) => [e.uid, e.line])).toEqual([
      ['bad-line', 15],
      ['no-start', 9],
      ['bad-date', 18],
    ]);
    expect(r.errors[0].message).toMatch(/Unreadable line skipped: "this line has no colon"/);
    expect(r.errors[1].message).toMatch(/DTSTART is missing/);
  });

  it('throws a clear error for text that is no iCalendar feed', () => {
    expect(() => parseICalendar('<html>not a calendar</html>', { defaultZone: 'UTC', window: YEAR_2026 })).toThrow(/Not an iCalendar feed/);
    expect(() => parseICalendar('', { defaultZone: 'UTC', window: YEAR_2026 })).toThrow(/Not an iCalendar feed/);
    expect(() => parseICalendar('BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nEND:VCALENDAR', { defaultZone: 'UTC', window: YEAR_2026 })).toThrow(
      /Unreadable iCalendar feed/,
    );
  });

  it('drops a stray line outside the events', () => {
    const text = wrap('nonsense left by an editor', 'BEGIN:VEVENT', 'UID:ok', 'DTSTART:20260310T090000Z', 'SUMMARY:Still read', 'END:VEVENT');
    expect(parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 }).events.map((e) => e.title)).toEqual(['Still read']);
  });

  it('gives an event without UID a stable derived one', () => {
    const text = wrap('BEGIN:VEVENT', 'DTSTART:20260310T090000Z', 'SUMMARY:Anonymous', 'END:VEVENT');
    const a = parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 }).events[0].uid;
    expect(a).toMatch(/^hash-[0-9a-f]{20}$/);
    expect(parseICalendar(text, { defaultZone: 'UTC', window: YEAR_2026 }).events[0].uid).toBe(a);
  });
});

describe('a large feed', () => {
  it('parses 50,000 events', () => {
    const parts = ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bulk//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\n'];
    for (let i = 0; i < 50000; i++) {
      const day = `2026${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`;
      const zone = i % 3 === 0 ? ';TZID=America/Chicago' : '';
      parts.push(
        `BEGIN:VEVENT\r\nUID:bulk-${i}@example.com\r\nDTSTAMP:20260101T000000Z\r\nDTSTART${zone}:${day}T${String(8 + (i % 10)).padStart(2, '0')}0000\r\n` +
          `DTEND${zone}:${day}T${String(9 + (i % 10)).padStart(2, '0')}3000\r\nSUMMARY:Event ${i}\\, part ${i % 7}\r\nDESCRIPTION:Line one\\nLine two\r\n` +
          `LOCATION:Hall ${i % 50}\\, Main Street ${i % 90}\\, Berlin\r\nCATEGORIES:Bulk,Test\r\n${i % 1000 === 0 ? 'RRULE:FREQ=WEEKLY;COUNT=5\r\n' : ''}END:VEVENT\r\n`,
      );
    }
    parts.push('END:VCALENDAR\r\n');
    const text = parts.join('');
    const t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    const r = parseICalendar(text, { defaultZone: SITE, window: { from: new Date('2025-12-01T00:00:00Z'), to: new Date('2027-03-01T00:00:00Z') } });
    const cpu = process.cpuUsage(cpu0);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `iCalendar: ${r.events.length} events from ${(text.length / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms (${Math.round((r.events.length / ms) * 1000)} events/s; ${cpuMs.toFixed(0)} ms CPU)`,
    );
    expect(r.errors).toEqual([]);
    expect(r.events).toHaveLength(50000 + 50 * 4);
    expect(byUid(r, 'bulk-1@example.com')).toMatchObject({ timezone: 'Europe/Berlin', start_date: '2026-02-02 09:00:00', end_date: '2026-02-02 10:30:00' });
    expect(byUid(r, 'bulk-3@example.com')).toMatchObject({ timezone: 'America/Chicago', start_date: '2026-04-04 11:00:00' });
  });
});
