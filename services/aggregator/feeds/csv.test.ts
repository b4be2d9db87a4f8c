/**
 * CSV files in the reference importer's columns as aggregator items: every field of the fixture,
 * header spellings and separators, date and time forms, bad rows reported by line, stable uids.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkEvents, eventTimes } from '../items/check';
import type { EaEvent } from '../items/items';
import { parseCsv, readDate, readTime } from './csv';
import { parseFeed } from './index';

const SITE = 'America/Chicago';
const text = readFileSync(join(__dirname, 'fixtures', 'events.csv'), 'utf8');

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

describe('the reference importer columns', () => {
  const r = parseCsv(text, { defaultZone: SITE });
  const named = (title: string) => {
    const e = r.events.find((x) => x.title === title);
    if (!e) throw new Error(`no event ${title}`);
    return e;
  };

  it('reads the good rows as valid items and reports the bad ones by line', () => {
    expect(r.events.map((e) => e.title)).toEqual(['Spring Concert', 'Farmers Market', 'Workshop: Bookbinding', 'Book Fair', 'Late Show']);
    expect('events' in checkEvents(r.events, SITE)).toBe(true);
    // Line 1 is the header; the concert's description spans lines 2 and 3.
    expect(r.errors).toEqual([
      { line: 5, message: 'Event Start Date is not a date: 2026-13-45' },
      { line: 7, message: 'Event Name is empty' },
    ]);
    expect(r.calendarName).toBeUndefined();
  });

  it('reads every column of a timed event', () => {
    const concert = named('Spring Concert');
    expect(concert).toEqual({
      title: 'Spring Concert',
      description: 'An evening of chamber music.\nTwo pieces, one interval.',
      excerpt: 'Chamber music',
      start_date: '2026-04-18 19:30:00',
      end_date: '2026-04-18 21:45:00',
      timezone: 'America/New_York',
      url: 'https://example.org/concert',
      image: 'https://example.org/concert.jpg',
      cost: '15',
      currency_symbol: '$',
      currency_position: 'prefix',
      categories: ['Music', 'Concerts'],
      tags: ['classical'],
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      venue: { venue: 'Town Hall' },
      organizer: { organizer: 'Riverside Arts Council' },
      uid: concert.uid,
    });
    expect(when(concert)).toEqual({ start: '2026-04-18T23:30:00Z', end: '2026-04-19T01:45:00Z', zone: 'America/New_York', allDay: false });
  });

  it('reads all-day rows (flagged, or without times) in the default zone', () => {
    const market = named('Farmers Market');
    expect(market).toMatchObject({
      start_date: '2026-05-02',
      end_date: '2026-05-02',
      all_day: true,
      timezone: SITE,
      categories: ['Food', 'Markets'],
      venue: { venue: 'Main Square' },
    });
    expect(market.organizer).toBeUndefined();
    expect(when(market)).toMatchObject({ start: '2026-05-02T05:00:00Z', allDay: true });
    const fair = named('Book Fair');
    expect(fair).toMatchObject({
      start_date: '2026-06-05',
      end_date: '2026-06-07',
      all_day: true,
      hide_from_listings: true,
      organizer: { organizer: 'Publishers Guild' },
    });
  });

  it('reads day-first dates with hyphens, 24-hour times and a row zone', () => {
    const workshop = named('Workshop: Bookbinding');
    expect(workshop).toMatchObject({
      start_date: '2026-05-15 14:00:00',
      end_date: '2026-05-15 16:30:00',
      timezone: 'Europe/Berlin',
      cost: '20',
      currency_symbol: '€',
      currency_position: 'postfix',
      categories: ['Crafts'],
      tags: ['paper', 'hands-on'],
    });
    expect(when(workshop)).toMatchObject({ start: '2026-05-15T12:00:00Z', end: '2026-05-15T14:30:00Z' });
    expect(named('Late Show')).toMatchObject({ start_date: '2026-04-18 23:00:00', end_date: '2026-04-19 01:00:00', timezone: SITE });
  });

  it('names rows stably by title, start and venue', () => {
    const again = parseCsv(text, { defaultZone: SITE });
    expect(again.events.map((e) => e.uid)).toEqual(r.events.map((e) => e.uid));
    expect(new Set(r.events.map((e) => e.uid)).size).toBe(r.events.length);
    for (const e of r.events) expect(e.uid).toMatch(/^csv-[0-9a-f]{20}$/);
  });
});

describe('header spellings and separators', () => {
  it('accepts a BOM, `;`, lower-case names without the "Event " prefix, and an id column', () => {
    const csv = '\uFEFFname;start date;start time;end time;venue name;category;id\n"Quiz; night";03/12/2026;8pm;10:30 pm;The Anchor;Pub, Quiz;row-17\n';
    const r = parseCsv(csv, { defaultZone: 'Europe/London' });
    expect(r.errors).toEqual([]);
    expect(r.events).toEqual([
      {
        title: 'Quiz; night',
        start_date: '2026-03-12 20:00:00',
        end_date: '2026-03-12 22:30:00',
        timezone: 'Europe/London',
        categories: ['Pub', 'Quiz'],
        venue: { venue: 'The Anchor' },
        uid: 'row-17',
      },
    ]);
  });

  it('reads slashed dates day first when asked, and English dates', () => {
    const csv = 'Event Name,Event Start Date,Event Start Time\nA,03/12/2026,09:15\nB,"March 14, 2026",9:00 AM\n';
    const r = parseCsv(csv, { defaultZone: 'UTC', dateFormat: 'dmy' });
    expect(r.events.map((e) => e.start_date)).toEqual(['2026-12-03 09:15:00', '2026-03-14 09:00:00']);
  });

  it('numbers identical rows so each keeps its own uid', () => {
    const csv = 'Event Name,Event Start Date\nSame,2026-01-01\nSame,2026-01-01\n';
    const [a, b] = parseCsv(csv, { defaultZone: 'UTC' }).events;
    expect(b.uid).toBe(`${a.uid}-2`);
  });

  it('refuses a file without the name and start date columns, or an empty one', () => {
    expect(() => parseCsv('Subject,Start\nA,2026-01-01\n', { defaultZone: 'UTC' })).toThrow(/Event Name/);
    expect(() => parseCsv('\uFEFF \n', { defaultZone: 'UTC' })).toThrow(/empty/);
  });

  it('reports rows that cannot be read: times, zones, an end before the start', () => {
    const csv = [
      'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Timezone',
      'T,2026-01-01,25:00,,,',
      'Z,2026-01-01,10:00,,,Mars/Olympus',
      'E,2026-01-02,10:00,2026-01-01,09:00,',
      'OK,2026-01-03,10:00,,,W. Europe Standard Time',
      '',
      '"Two',
      'lines",2026-99-01,10:00,,,',
    ].join('\n');
    const r = parseCsv(csv, { defaultZone: 'UTC' });
    expect(r.errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'Event Start Time is not a time: 25:00'],
      [3, 'Timezone is not a time zone: Mars/Olympus'],
      [4, 'The event ends before it starts'],
      // A row is reported at the line it starts on.
      [7, 'Event Start Date is not a date: 2026-99-01'],
    ]);
    expect(r.events).toMatchObject([{ title: 'OK', timezone: 'Europe/Berlin', start_date: '2026-01-03 10:00:00', end_date: '2026-01-03 10:00:00' }]);
  });
});

describe('date and time cells', () => {
  it.each([
    ['9:00 AM', { hour: 9, minute: 0, second: 0 }],
    ['9am', { hour: 9, minute: 0, second: 0 }],
    ['12:30 p.m.', { hour: 12, minute: 30, second: 0 }],
    ['12:05 AM', { hour: 0, minute: 5, second: 0 }],
    ['21:00', { hour: 21, minute: 0, second: 0 }],
    ['21:00:30', { hour: 21, minute: 0, second: 30 }],
    ['', null],
    ['13pm', 'bad'],
  ])('time %p', (cell, want) => expect(readTime(cell)).toEqual(want));

  it.each([
    ['2026-04-18', { year: 2026, month: 4, day: 18 }],
    ['2026/04/18', { year: 2026, month: 4, day: 18 }],
    ['04/18/2026', { year: 2026, month: 4, day: 18 }],
    ['18-04-2026', { year: 2026, month: 4, day: 18 }],
    ['18.04.2026', { year: 2026, month: 4, day: 18 }],
    ['2026-04-18 19:30', { year: 2026, month: 4, day: 18, time: { hour: 19, minute: 30, second: 0 } }],
    ['2026-02-30', null],
  ])('date %p', (cell, want) => expect(readDate(cell, 'mdy', 'UTC')).toEqual(want));
});

describe('parseFeed', () => {
  it('chooses the parser by format', () => {
    const opts = { defaultZone: SITE, window: { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') } };
    expect(parseFeed(text, 'csv', opts).events).toHaveLength(5);
    expect(parseFeed(text, 'csv', { defaultZone: SITE }).events).toHaveLength(5);
    expect(() => parseFeed('BEGIN:VCALENDAR', 'ics', { defaultZone: SITE })).toThrow(/window/);
    const ics = readFileSync(join(__dirname, 'fixtures', 'meetup.ics'), 'utf8');
    expect(parseFeed(ics, 'ical', opts).events).toHaveLength(3);
    expect(parseFeed(ics, 'ics', opts).calendarName).toBe('Example JS Meetup');
    expect(() => parseFeed(ics, 'json' as never, opts)).toThrow(/Unknown feed format/);
  });
});
