import { strtotime, isDateText } from './strtotime';
import { zoneAbbr, zoneOf } from './timezone';

// Monday 2 March 2026, 10:15:30 in New York.
const now = new Date('2026-03-02T15:15:30Z');
const at = (text: unknown, zone = 'America/New_York') => strtotime(text, { zone, now })?.toFormat('yyyy-LL-dd HH:mm:ss') ?? null;

describe('strtotime', () => {
  it('reads MySQL and ISO forms in the zone, honouring a given offset', () => {
    expect(at('2031-05-01 18:00:00')).toBe('2031-05-01 18:00:00');
    expect(at('2031-05-01 18:00')).toBe('2031-05-01 18:00:00');
    expect(at('2031-05-01')).toBe('2031-05-01 00:00:00');
    expect(at('2031-05-01T18:00:00Z')).toBe('2031-05-01 14:00:00');
    expect(at('2031-05-01T18:00:00+02:00')).toBe('2031-05-01 12:00:00');
    expect(at('2031-05-01T18:00:00.123-04:00')).toBe('2031-05-01 18:00:00');
    expect(at('2031/05/01 6pm')).toBe('2031-05-01 18:00:00');
    expect(at('05/01/2031')).toBe('2031-05-01 00:00:00');
    expect(at('01.05.2031 9:30')).toBe('2031-05-01 09:30:00');
  });

  it('reads a numeric value as a unix timestamp', () => {
    expect(at('1514764800', 'UTC')).toBe('2018-01-01 00:00:00');
    expect(at('@1514764800', 'America/New_York')).toBe('2017-12-31 19:00:00');
    expect(at(1514764800, 'UTC')).toBe('2018-01-01 00:00:00');
  });

  it('reads keywords and relative English as PHP does', () => {
    expect(at('now')).toBe('2026-03-02 10:15:30');
    expect(at('today')).toBe('2026-03-02 00:00:00');
    expect(at('tomorrow 9am')).toBe('2026-03-03 09:00:00');
    expect(at('yesterday 23:59')).toBe('2026-03-01 23:59:00');
    expect(at('noon')).toBe('2026-03-02 12:00:00');
    // Monday: "next wednesday" is this week's, "wednesday" too; "next monday" is a week ahead.
    expect(at('next wednesday 4pm')).toBe('2026-03-04 16:00:00');
    expect(at('wednesday')).toBe('2026-03-04 00:00:00');
    expect(at('next monday')).toBe('2026-03-09 00:00:00');
    expect(at('monday')).toBe('2026-03-02 00:00:00');
    expect(at('last friday')).toBe('2026-02-27 00:00:00');
    expect(at('+1 week')).toBe('2026-03-09 10:15:30');
    expect(at('+1 week 2 days')).toBe('2026-03-11 10:15:30');
    expect(at('3 days ago')).toBe('2026-02-27 10:15:30');
    expect(at('next month')).toBe('2026-04-02 10:15:30');
    expect(at('+24 months')).toBe('2028-03-02 10:15:30');
    expect(at('first day of next month')).toBe('2026-04-01 00:00:00');
    expect(at('tomorrow at 4:30 p.m.')).toBe('2026-03-03 16:30:00');
  });

  it('reads month names, through chrono where the grammar stops', () => {
    expect(at('May 1 2031 6pm')).toBe('2031-05-01 18:00:00');
    expect(at('1 May 2031')).toBe('2031-05-01 00:00:00');
    expect(at('January 5th, 2018 at 3pm')).toBe('2018-01-05 15:00:00');
    expect(at('Sat, 03 Jan 2026 10:00:00 GMT')).toBe('2026-01-03 05:00:00');
  });

  it('refuses prose, garbage and impossible dates', () => {
    for (const bad of [
      'before my birthday',
      'foo',
      'kinda_thinking_about_it',
      '',
      '   ',
      '2031-02-30',
      '2031-13-01',
      '25:00',
      'tomorrow tomorrowish',
      null,
      {},
      [],
    ]) {
      expect(at(bad)).toBeNull();
      expect(isDateText(bad)).toBe(false);
    }
  });

  it('follows daylight saving time', () => {
    expect(strtotime('2026-07-01 12:00:00', { zone: 'America/New_York' })!.toUTC().toFormat('HH:mm')).toBe('16:00');
    expect(strtotime('2026-01-01 12:00:00', { zone: 'America/New_York' })!.toUTC().toFormat('HH:mm')).toBe('17:00');
  });
});

describe('time zones', () => {
  it('accepts IANA names, UTC and manual offsets', () => {
    expect(zoneOf('Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOf('UTC')).toBe('UTC');
    expect(zoneOf('UTC+2')).toBe('UTC+2');
    expect(zoneOf('UTC-4:30')).toBe('UTC-4:30');
    expect(zoneOf('UTC+5.5')).toBe('UTC+5:30');
    expect(zoneOf('Mars/Olympus')).toBeNull();
    expect(zoneOf('')).toBeNull();
  });

  it('gives the abbreviations of the tz database', () => {
    const jan = new Date('2026-01-15T12:00:00Z');
    const jul = new Date('2026-07-15T12:00:00Z');
    expect(zoneAbbr('America/New_York', jan)).toBe('EST');
    expect(zoneAbbr('America/New_York', jul)).toBe('EDT');
    expect(zoneAbbr('Europe/Paris', jan)).toBe('CET');
    expect(zoneAbbr('Europe/Paris', jul)).toBe('CEST');
    expect(zoneAbbr('Australia/Sydney', jan)).toBe('AEDT');
    expect(zoneAbbr('Australia/Darwin', jan)).toBe('ACST');
    expect(zoneAbbr('America/Juneau', jan)).toBe('AKST');
    expect(zoneAbbr('Atlantic/Reykjavik', jan)).toBe('GMT');
    expect(zoneAbbr('Asia/Dubai', jan)).toBe('+04');
    expect(zoneAbbr('UTC', jan)).toBe('UTC');
    expect(zoneAbbr('UTC+5:30', jan)).toBe('+0530');
  });
});

describe('values that name no moment', () => {
  it('reads numeric text in any notation as a timestamp, and refuses what a date cannot hold', () => {
    expect(at('1e3', 'UTC')).toBe('1970-01-01 00:16:40');
    expect(at(' 1000 ', 'UTC')).toBe('1970-01-01 00:16:40');
    for (const v of ['1e309', '-1e309', '1e21', '99999999999999999999', 1e21, -1e300, Infinity, NaN]) expect([v, at(v)]).toEqual([v, null]);
  });
});
