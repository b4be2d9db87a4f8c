import { MYSQL_ZERO, mysqlLocal, mysqlUtc, rfc3339, rfc3339Gmt, rfc3339Local } from './format';

describe('date formats', () => {
  const at = new Date('2024-01-02T03:04:05.678Z');

  it('prints an instant in a zone and in UTC, to the second', () => {
    expect(rfc3339Local(at, 'Europe/Berlin')).toBe('2024-01-02T04:04:05');
    expect(rfc3339Gmt(at)).toBe('2024-01-02T03:04:05');
    expect(mysqlLocal(at, 'America/New_York')).toBe('2024-01-01 22:04:05');
    expect(mysqlLocal(at, 'UTC+5:30')).toBe('2024-01-02 08:34:05');
    expect(mysqlUtc(at)).toBe('2024-01-02 03:04:05');
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
