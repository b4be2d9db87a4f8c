/**
 * Venue coordinates through the importers: iCalendar's GEO on an event locates its venue, the CSV
 * importer reads "Venue Latitude"/"Venue Longitude", and the venue's stored meta keeps only a valid pair.
 */
import { checkEvents } from '../items/check';
import { venueOf } from '../items/linked';
import { parseCsv } from './csv';
import { parseICalendar } from './ical';

const YEAR_2026 = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };

const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//geo//EN', ...lines, 'END:VCALENDAR'].join('\r\n') + '\r\n';
const vevent = (uid: string, ...lines: string[]) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260310T180000Z',
  'DTEND:20260310T200000Z',
  `SUMMARY:${uid}`,
  ...lines,
  'END:VEVENT',
];

describe('iCalendar GEO', () => {
  const r = parseICalendar(
    ics(
      ...vevent('located', 'LOCATION:Opera House\\, Bennelong Point\\, Sydney', 'GEO:-33.8568;151.2153'),
      ...vevent('no-geo', 'LOCATION:Town Hall'),
      ...vevent('geo-only', 'GEO:48.8584;2.2945'),
    ),
    { defaultZone: 'UTC', window: YEAR_2026 },
  );
  const byUid = (uid: string) => r.events.find((e) => e.uid === uid)!;

  it("gives the event's venue its coordinates; the items stay valid", () => {
    expect(byUid('located').venue).toEqual({ venue: 'Opera House', address: 'Bennelong Point, Sydney', geo_lat: -33.8568, geo_lng: 151.2153 });
    expect(byUid('no-geo').venue).toEqual({ venue: 'Town Hall' });
    expect('events' in checkEvents(r.events, 'UTC')).toBe(true);
  });

  it('without a LOCATION there is no venue to carry them', () => {
    expect(byUid('geo-only').venue).toBeUndefined();
  });

  it("the venue's meta holds them as numeric text", () => {
    expect(venueOf(byUid('located'), 'ical')!.meta).toMatchObject({ _VenueLat: '-33.8568', _VenueLng: '151.2153' });
    expect(venueOf(byUid('no-geo'), 'ical')!.meta).not.toHaveProperty('_VenueLat');
  });
});

describe('CSV venue coordinates', () => {
  const csv = [
    'Event Name,Event Start Date,Event Start Time,Event Venue Name,Venue Latitude,Venue Longitude',
    'Fair,2026-05-01,10:00,Fairground,51.5072,-0.1276',
    'Half,2026-05-02,10:00,Half place,51.5,',
    'Far,2026-05-03,10:00,Off the map,95,10',
  ].join('\n');
  const r = parseCsv(csv, { defaultZone: 'Europe/London' });

  it('reads the columns onto the venue', () => {
    expect(r.errors).toEqual([]);
    expect(r.events[0].venue).toEqual({ venue: 'Fairground', geo_lat: '51.5072', geo_lng: '-0.1276' });
    expect('events' in checkEvents(r.events, 'Europe/London')).toBe(true);
  });

  it('stores only a valid pair', () => {
    expect(venueOf(r.events[0], 'csv')!.meta).toMatchObject({ _VenueLat: '51.5072', _VenueLng: '-0.1276' });
    expect(venueOf(r.events[1], 'csv')!.meta).not.toHaveProperty('_VenueLat');
    expect(venueOf(r.events[2], 'csv')!.meta).not.toHaveProperty('_VenueLat');
  });
});
