/**
 * iCalendar feeds that are not as written: malformed events reported with their UID and line without
 * stopping the parse, text that is no feed refused with a clear error, and a large feed read whole.
 */
import { parseICalendar } from './ical';
import type { FeedResult } from './types';

const SITE = 'America/New_York';
const YEAR_2026 = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };
const wrap = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
const byUid = (r: FeedResult, uid: string) => {
  const e = r.events.find((x) => x.uid === uid);
  if (!e) throw new Error(`no event ${uid}`);
  return e;
};

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
