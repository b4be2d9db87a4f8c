import { DateTime } from 'luxon';
import { MYSQL_FORMAT, MYSQL_ZERO, mysqlLocal, mysqlOf, mysqlUtc, rfc3339, rfc3339Gmt, rfc3339Local } from './format';

describe('date formats', () => {
  const at = new Date('2024-01-02T03:04:05.678Z');

  it('prints an instant in a zone and in UTC, to the second', () => {
    expect(rfc3339Local(at, 'Europe/Berlin')).toBe('2024-01-02T04:04:05');
    expect(rfc3339Gmt(at)).toBe('2024-01-02T03:04:05');
    expect(mysqlLocal(at, 'America/New_York')).toBe('2024-01-01 22:04:05');
    expect(mysqlLocal(at, 'UTC+5:30')).toBe('2024-01-02 08:34:05');
    expect(mysqlUtc(at)).toBe('2024-01-02 03:04:05');
  });

  it('prints a wall time as luxon’s MYSQL_FORMAT does, across zones, offsets, DST changes and years', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC-9:30', 'Pacific/Chatham'];
    // DST changes (Berlin, New York), a leap day, the first and last moments storable, and a sweep over years.
    const instants = [
      '2024-03-31T00:59:59Z',
      '2024-03-31T01:00:00Z',
      '2024-11-03T05:59:59Z',
      '2024-11-03T06:00:00Z',
      '2024-02-29T12:00:00Z',
      '1000-01-01T00:00:00Z',
      '9999-12-31T12:00:00Z',
    ];
    for (let year = 1901; year <= 2099; year += 7) instants.push(`${year}-0${1 + (year % 9)}-1${year % 10}T0${year % 10}:0${year % 6}:3${year % 10}Z`);
    for (const zone of zones) {
      for (const text of instants) {
        const dt = DateTime.fromISO(text, { zone });
        expect(mysqlOf(dt)).toBe(dt.toFormat(MYSQL_FORMAT));
        expect(mysqlLocal(dt.toJSDate(), zone)).toBe(dt.toFormat(MYSQL_FORMAT));
        expect(rfc3339Local(dt.toJSDate(), zone)).toBe(dt.toFormat("yyyy-LL-dd'T'HH:mm:ss"));
      }
    }
    expect(mysqlOf(DateTime.invalid('no reason'))).toBe('Invalid DateTime');
  });

  it('prints the zero date for a missing or invalid instant', () => {
    expect(mysqlUtc(null)).toBe(MYSQL_ZERO);
    expect(mysqlUtc(undefined)).toBe('0000-00-00 00:00:00');
    expect(mysqlUtc(new Date(NaN))).toBe(MYSQL_ZERO);
  });

  it('turns a MySQL date into RFC 3339', () => {
    expect(rfc3339('2024-01-02 03:04:05')).toBe('2024-01-02T03:04:05');
  });
});
