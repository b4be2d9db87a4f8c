/** TZIDs as feeds write them, mapped to IANA zones; wall times and instants in a zone. */
import { DateTime } from 'luxon';
import { ianaOfTzid, millisIn, wallIn } from './zones';

describe('ianaOfTzid', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['"America/New_York"', 'America/New_York'],
    ['/mozilla.org/20050126_1/Europe/Paris', 'Europe/Paris'],
    ['/softwarestudio.org/Olson_20011030_5/America/Chicago', 'America/Chicago'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['GMT Standard Time', 'Europe/London'],
    ['(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna', 'Europe/Amsterdam'],
    ['(UTC-05:00) Eastern Time (US & Canada)', 'America/New_York'],
    ['(UTC) Dublin, Edinburgh, Lisbon, London', 'Europe/Dublin'],
    ['(UTC) Coordinated Universal Time', 'UTC'],
    ['UTC', 'UTC'],
    ['Customized Time Zone', null],
    ['', null],
  ])('%p → %p', (tzid, zone) => expect(ianaOfTzid(tzid)).toBe(zone));
});

describe('remembered offsets', () => {
  it('give luxon answers around DST changes, also in skipped and repeated hours', () => {
    const zone = 'America/New_York';
    for (const text of [
      '2026-03-08T01:59:59',
      '2026-03-08T02:30:00',
      '2026-03-08T03:00:00',
      '2026-11-01T01:30:00',
      '2026-11-01T02:00:00',
      '2026-07-04T12:00:00',
    ]) {
      const [d, t] = text.split('T');
      const [year, month, day] = d.split('-').map(Number);
      const [hour, minute, second] = t.split(':').map(Number);
      const want = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone }).toMillis();
      expect(millisIn(zone, { year, month, day, hour, minute, second })).toBe(want);
      const back = DateTime.fromMillis(want, { zone });
      expect(wallIn(zone, want)).toEqual({ year: back.year, month: back.month, day: back.day, hour: back.hour, minute: back.minute, second: back.second });
    }
  });
});
