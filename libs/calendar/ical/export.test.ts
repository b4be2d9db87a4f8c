import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { eventsToICalendar, eventUid, ICalendarWriter, plainText, type ICalEvent } from './export';
import { exportZone, vtimezone } from './vtimezone';

// node-ical is the independent reader of what the export writes.

const nodeIcal = require('node-ical') as { sync: { parseICS(text: string): Record<string, any> } };

const site = { name: 'Site, with; specials\\', home: 'http://example.test/sub/', timezone: 'America/New_York' };
const NOW = new Date('2027-01-02T03:04:05.678Z');

function timed(id: number, zone: string, start: string, end: string, extra: Partial<ICalEvent> = {}): ICalEvent {
  const z = zone === 'UTC' ? 'UTC' : zone.replace(/^UTC([+-]\d+)(\.5)?$/, (_m, h: string, half?: string) => `UTC${h}${half ? ':30' : ''}`);
  const utc = (local: string) => DateTime.fromSQL(local, { zone: z }).toUTC().toFormat('yyyy-LL-dd HH:mm:ss');
  return {
    id,
    title: `Event ${id}`,
    url: `http://example.test/event/e${id}/`,
    all_day: false,
    start_date: start,
    end_date: end,
    utc_start_date: utc(start),
    utc_end_date: utc(end),
    timezone: zone,
    date_utc: '2026-12-01 10:00:00',
    modified_utc: '2026-12-02 11:30:00',
    ...extra,
  };
}

function allDay(id: number, first: string, last: string): ICalEvent {
  return {
    id,
    title: `Day ${id}`,
    url: `http://example.test/event/d${id}/`,
    all_day: true,
    start_date: `${first} 00:00:00`,
    end_date: `${last} 23:59:59`,
    utc_start_date: '',
    utc_end_date: '',
    timezone: 'Europe/Berlin',
  };
}

const veventsOf = (text: string) => Object.values(nodeIcal.sync.parseICS(text)).filter((c: any) => c.type === 'VEVENT') as any[];
const byUid = (text: string) => Object.fromEntries(veventsOf(text).map((e) => [e.uid, e]));
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

describe('eventsToICalendar', () => {
  const events = [
    timed(1, 'America/New_York', '2027-07-01 10:00:00', '2027-07-01 12:30:00'),
    timed(2, 'America/New_York', '2027-01-15 19:00:00', '2027-01-15 21:00:00'),
    timed(3, 'Europe/Berlin', '2027-03-28 01:30:00', '2027-03-28 04:00:00'),
    timed(4, 'Asia/Tokyo', '2027-06-01 09:00:00', '2027-06-01 10:00:00'),
    timed(5, 'UTC', '2027-06-01 09:00:00', '2027-06-01 10:00:00'),
    timed(6, 'UTC+2', '2027-06-01 09:00:00', '2027-06-01 10:00:00'),
    timed(7, 'UTC+5.5', '2027-06-01 09:00:00', '2027-06-01 10:00:00'),
    allDay(8, '2027-05-01', '2027-05-01'),
    allDay(9, '2027-05-10', '2027-05-12'),
  ];
  const text = eventsToICalendar(events, site, { now: NOW, refreshMinutes: 60 });
  const parsed = byUid(text);

  it('writes the calendar properties once, CRLF line ends', () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(text).split('\r\n');
    for (const line of [
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-TIMEZONE:America/New_York',
      'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      'X-PUBLISHED-TTL:PT1H',
      'X-WR-CALNAME:Site\\, with\\; specials\\\\',
    ]) {
      expect(lines.filter((l) => l === line)).toHaveLength(1);
    }
    expect(lines.some((l) => l.startsWith('PRODID:-//'))).toBe(true);
    expect(eventsToICalendar([], site)).not.toContain('REFRESH-INTERVAL');
  });

  it('gives each event a stable UID from the site host and id, or the UID it was imported with', () => {
    expect(Object.keys(parsed).sort()).toEqual(events.map((e) => `event-${e.id}@example.test`).sort());
    expect(eventUid({ id: 3, uid: 'abc@elsewhere' }, site)).toBe('abc@elsewhere');
    expect(byUid(eventsToICalendar([{ ...events[0], uid: 'feed-uid-1@remote.test' }], site))).toHaveProperty(['feed-uid-1@remote.test']);
    const again = eventsToICalendar(events, site, { now: new Date('2027-02-01T00:00:00Z'), refreshMinutes: 60 });
    expect(Object.keys(byUid(again)).sort()).toEqual(Object.keys(parsed).sort());
  });

  it('stamps, dates the creation and modification in UTC', () => {
    const e = parsed['event-1@example.test'];
    expect(e.dtstamp.toISOString()).toBe('2027-01-02T03:04:05.000Z');
    expect(e.created.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(e.lastmodified.toISOString()).toBe('2026-12-02T11:30:00.000Z');
    expect(unfold(text)).toContain('DTSTAMP:20270102T030405Z');
  });

  it('writes timed events in their own zone; every start and end is the event UTC instant', () => {
    for (const ev of events.filter((e) => !e.all_day)) {
      const got = parsed[`event-${ev.id}@example.test`];
      expect(got.start.toISOString()).toBe(`${ev.utc_start_date.replace(' ', 'T')}.000Z`);
      expect(got.end.toISOString()).toBe(`${ev.utc_end_date.replace(' ', 'T')}.000Z`);
    }
    const lines = unfold(text);
    expect(lines).toContain('DTSTART;TZID=America/New_York:20270701T100000');
    expect(lines).toContain('DTEND;TZID=Europe/Berlin:20270328T040000');
    expect(lines).toContain('DTSTART;TZID=Asia/Tokyo:20270601T090000');
    expect(lines).toContain('DTSTART:20270601T090000Z');
    expect(lines).toContain('DTSTART;TZID=Etc/GMT-2:20270601T090000');
    expect(lines).toContain('DTSTART;TZID=UTC+0530:20270601T090000');
  });

  it('writes all-day events as dates with the exclusive end (last day + 1)', () => {
    const one = parsed['event-8@example.test'];
    const multi = parsed['event-9@example.test'];
    expect(one.start.dateOnly).toBe(true);
    expect(one.datetype).toBe('date');
    expect(unfold(text)).toContain('DTSTART;VALUE=DATE:20270501\r\nDTEND;VALUE=DATE:20270502');
    expect(unfold(text)).toContain('DTSTART;VALUE=DATE:20270510\r\nDTEND;VALUE=DATE:20270513');
    expect([multi.start.getFullYear(), multi.start.getMonth() + 1, multi.start.getDate()]).toEqual([2027, 5, 10]);
    expect([multi.end.getFullYear(), multi.end.getMonth() + 1, multi.end.getDate()]).toEqual([2027, 5, 13]);
  });

  it('adds one VTIMEZONE per zone used, whose observances give the IANA offsets', () => {
    const cal = new ICAL.Component(ICAL.parse(text));
    const zones = cal.getAllSubcomponents('vtimezone');
    expect(zones.map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual(['America/New_York', 'Asia/Tokyo', 'Etc/GMT-2', 'Europe/Berlin', 'UTC+0530']);
    // ical.js resolves local times through each VTIMEZONE alone: compare with luxon every 6 hours of 2027.
    for (const z of zones) {
      const tzid = z.getFirstPropertyValue('tzid') as string;
      const zone = new ICAL.Timezone(z);
      const luxonZone = tzid === 'UTC+0530' ? 'UTC+5:30' : tzid;
      for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2028, 0, 1); t += 6 * 3600_000) {
        // A local time repeated by a change back to standard time may read as either offset.
        if (DateTime.fromMillis(t - 3 * 3600_000, { zone: luxonZone }).offset !== DateTime.fromMillis(t + 3 * 3600_000, { zone: luxonZone }).offset) continue;
        const local = DateTime.fromMillis(t, { zone: luxonZone });
        const time = ICAL.Time.fromData({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: 0 });
        expect([tzid, zone.utcOffset(time)]).toEqual([tzid, local.offset * 60]);
      }
    }
    const berlin = unfold(text).split('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n')[1].split('END:VTIMEZONE')[0];
    expect(berlin).toContain('BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nEND:DAYLIGHT');
    expect(berlin).toContain('BEGIN:STANDARD\r\nDTSTART:20271031T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nEND:STANDARD');
    expect(berlin).not.toContain('RRULE');
    const tokyo = unfold(text).split('TZID:Asia/Tokyo\r\n')[1].split('END:VTIMEZONE')[0];
    expect(tokyo.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD']);
    expect(tokyo).toContain('TZOFFSETTO:+0900');
  });

  it('covers only the years with events, each with the offset in force on its first day', () => {
    const ny = exportZone('America/New_York', 'UTC')!;
    const comp = vtimezone(ny, [1990, 2030]);
    const starts = comp.getAllSubcomponents().map((s) => String(s.getFirstPropertyValue('dtstart')));
    expect(starts.every((s) => /^(1989|1990|2029|2030)-/.test(s))).toBe(true);
    expect(starts.filter((s) => s.endsWith('01-01T00:00:00'))).toEqual(['1989-01-01T00:00:00', '2029-01-01T00:00:00']);
    // 1990 used the older US rule (first Sunday in April), 2030 the current one (second Sunday in March).
    expect(starts).toContain('1990-04-01T02:00:00');
    expect(starts).toContain('2030-03-10T02:00:00');
    expect(exportZone('UTC', 'America/New_York')).toBeNull();
    expect(exportZone('', 'UTC')).toBeNull();
    expect(exportZone('UTC-3', 'UTC')).toEqual({ tzid: 'Etc/GMT+3', zone: 'UTC-3' });
    expect(exportZone('', 'Europe/Paris')).toEqual({ tzid: 'Europe/Paris', zone: 'Europe/Paris' });
  });
});

describe('event content', () => {
  const rich: ICalEvent = timed(20, 'Europe/Berlin', '2027-09-01 18:00:00', '2027-09-01 20:00:00', {
    title: 'Rock, Paper; Back\\slash &amp; more',
    description: '<p>First line, with; specials\\</p>\n<p>Second<br />\nthird &lt;b&gt; &#8211; done</p>',
    categories: [{ name: 'Music' }, { name: 'Outdoor' }],
    venue: {
      venue: 'Town Hall',
      address: '1 Main St',
      city: 'Springfield',
      stateprovince: 'IL',
      zip: '62701',
      country: 'United States',
      geo_lat: 39.8,
      geo_lng: -89.65,
    },
    organizer: [{ organizer: 'No Mail Org' }, { organizer: 'Smith, Jane', email: 'jane@example.test' }],
    image: { url: 'http://example.test/cms-content/uploads/poster.png', extension: 'png' },
  });
  const text = eventsToICalendar([rich], site, { now: NOW });
  const e = veventsOf(text)[0];

  it('writes summary and description as plain text, escaped', () => {
    expect(e.summary).toBe('Rock, Paper; Back\\slash & more');
    expect(e.description).toBe('First line, with; specials\\\n\nSecond\nthird <b> – done');
    const lines = unfold(text);
    expect(lines).toContain('SUMMARY:Rock\\, Paper\\; Back\\\\slash & more\r\n');
    expect(lines).toContain('DESCRIPTION:First line\\, with\\; specials\\\\\\n\\nSecond\\nthird <b> – done\r\n');
  });

  it('writes location, geo, organizer, categories, url and image', () => {
    expect(e.location).toBe('Town Hall, 1 Main St, Springfield, IL, 62701, United States');
    expect(unfold(text)).toContain('LOCATION:Town Hall\\, 1 Main St\\, Springfield\\, IL\\, 62701\\, United States\r\n');
    expect(e.geo).toEqual({ lat: 39.8, lon: -89.65 });
    expect(e.organizer).toEqual({ params: { CN: 'Smith, Jane' }, val: 'mailto:jane@example.test' });
    expect(e.categories).toEqual(['Music', 'Outdoor']);
    expect(e.url).toBe('http://example.test/event/e20/');
    expect(unfold(text)).toContain('ATTACH;FMTTYPE=image/png:http://example.test/cms-content/uploads/poster.png');
  });

  it('escapes commas inside a category name (one CATEGORIES property, values separated by commas)', () => {
    const out = unfold(eventsToICalendar([{ ...rich, categories: [{ name: 'Rock, Pop' }, { name: 'Jazz' }] }], site));
    expect(out).toContain('CATEGORIES:Rock\\, Pop,Jazz\r\n');
    const cats = new ICAL.Component(ICAL.parse(out)).getFirstSubcomponent('vevent')!.getFirstProperty('categories')!.getValues();
    expect(cats).toEqual(['Rock, Pop', 'Jazz']);
  });

  it('leaves out what the event does not have', () => {
    const undated = unfold(eventsToICalendar([{ ...rich, date_utc: '0000-00-00 00:00:00', modified_utc: '' }], site));
    expect(undated).not.toMatch(/^(CREATED|LAST-MODIFIED)[:;]/m);
    const bare = unfold(
      eventsToICalendar(
        [timed(21, 'Europe/Berlin', '2027-09-01 18:00:00', '2027-09-01 20:00:00', { organizer: [{ organizer: 'Only a name' }], venue: [] })],
        site,
      ),
    );
    for (const name of ['DESCRIPTION', 'LOCATION', 'GEO', 'ORGANIZER', 'CATEGORIES', 'ATTACH']) expect(bare).not.toMatch(new RegExp(`^${name}[:;]`, 'm'));
  });

  it('folds every line at 75 octets, multi-byte characters kept whole', () => {
    const long = timed(22, 'Europe/Berlin', '2027-09-01 18:00:00', '2027-09-01 20:00:00', {
      title: 'A'.repeat(200),
      description: `${'é'.repeat(90)} ${'€'.repeat(60)} ${'😀'.repeat(40)} ${'x,'.repeat(100)}`,
    });
    const out = eventsToICalendar([long], site);
    const lines = out.split('\r\n');
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(10);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(out).not.toContain('\ufffd');
    const e2 = veventsOf(out)[0];
    expect(e2.summary).toBe('A'.repeat(200));
    expect(e2.description).toBe(plainText(long.description));
    // The export leaves ical.js's own folding setting as it was.
    expect(ICAL.foldLength).toBe(75);
  });
});

describe('ICalendarWriter', () => {
  it('takes events in batches and writes them in order, with the zones of all batches', () => {
    const w = new ICalendarWriter(site, { now: NOW });
    w.add([timed(1, 'Europe/Berlin', '2027-09-01 18:00:00', '2027-09-01 20:00:00')]);
    w.add([timed(2, 'Asia/Tokyo', '2027-09-01 18:00:00', '2027-09-01 20:00:00', { modified_utc: '2027-01-01 00:00:00' })]);
    expect(w.size).toBe(2);
    expect(w.lastModified).toBe('2027-01-01 00:00:00');
    const text = w.finish();
    expect(text.indexOf('event-1@')).toBeLessThan(text.indexOf('event-2@'));
    expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(2);
    expect(text.lastIndexOf('END:VTIMEZONE')).toBeLessThan(text.indexOf('BEGIN:VEVENT'));
    expect(w.stampLine).toBe('DTSTAMP:20270102T030405Z');
  });
});

describe('plainText', () => {
  it('keeps paragraphs and line breaks, drops tags and scripts, decodes entities', () => {
    expect(plainText('<p>One &amp; two</p>\n<p>Three<br>four</p><script>x()</script>')).toBe('One & two\n\nThree\nfour');
    expect(plainText('')).toBe('');
    expect(plainText(undefined)).toBe('');
  });
});
