/**
 * zoneFor: the zone imports build their DateTimes in. Times built in it are the ones luxon builds in
 * the zone's name, including the hour a clock change repeats or skips, whatever the season "now" is
 * (luxon's first guess of an offset is the zone's offset now).
 */
import { DateTime, Settings } from 'luxon';
import { isFixedOffsetZone, zoneFor, zoneOf } from './timezone';

const realNow = Settings.now;
afterEach(() => {
  Settings.now = realNow;
});

const described = (dt: DateTime) => [dt.isValid, dt.invalidReason, dt.toMillis(), dt.offset, dt.zoneName, dt.toISO()];

describe('zoneFor', () => {
  it('builds the same local times as the zone name, around clock changes and in either season', () => {
    const cases: Array<[string, Record<string, number>]> = [
      // New York: 01:30 happens twice on 2031-11-02 and never on 2031-03-09.
      ['America/New_York', { year: 2031, month: 11, day: 2, hour: 1, minute: 30 }],
      ['America/New_York', { year: 2031, month: 3, day: 9, hour: 2, minute: 30 }],
      ['America/New_York', { year: 2031, month: 7, day: 4, hour: 19 }],
      // Lord Howe moves by half an hour; St John's and Kathmandu have odd offsets.
      ['Australia/Lord_Howe', { year: 2031, month: 4, day: 6, hour: 1, minute: 45 }],
      ['America/St_Johns', { year: 2031, month: 11, day: 2, hour: 1, minute: 15 }],
      ['Asia/Kathmandu', { year: 1986, month: 1, day: 1, hour: 0, minute: 5 }],
      // Before standard time: a local mean time offset with seconds.
      ['Europe/Dublin', { year: 1880, month: 6, day: 1, hour: 12 }],
      ['Europe/London', { year: 2031, month: 2, day: 30 }],
    ];
    for (const now of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15), Date.UTC(2026, 10, 2, 5, 30)]) {
      Settings.now = () => now;
      for (const [zone, wall] of cases) {
        expect(described(DateTime.fromObject(wall, { zone: zoneFor(zone) }))).toEqual(described(DateTime.fromObject(wall, { zone })));
        // Twice: the second answer comes from what the zone remembered.
        expect(described(DateTime.fromObject(wall, { zone: zoneFor(zone) }))).toEqual(described(DateTime.fromObject(wall, { zone })));
      }
    }
  });

  it('moves instants into the zone as the zone name does', () => {
    const start = DateTime.fromObject({ year: 2031, month: 3, day: 8 }, { zone: 'UTC' });
    for (let hours = 0; hours < 72; hours += 0.25) {
      const at = start.plus({ hours });
      expect(described(at.setZone(zoneFor('America/New_York')))).toEqual(described(at.setZone('America/New_York')));
    }
  });

  it('leaves UTC and fixed offsets as names, and names the zone as given', () => {
    expect(zoneFor('UTC')).toBe('UTC');
    expect(zoneFor(zoneOf('UTC+5.5')!)).toBe('UTC+5:30');
    const dt = DateTime.fromObject({ year: 2031, month: 1, day: 1 }, { zone: zoneFor('Europe/Paris') });
    expect(dt.zoneName).toBe('Europe/Paris');
    expect(dt.setZone('Europe/Paris')).toBe(dt);
  });
});

describe('isFixedOffsetZone', () => {
  it('is true for UTC and manual offsets, false for zones with daylight saving time and for what is no zone', () => {
    for (const tz of ['UTC', 'utc', 'GMT', 'UTC+2', 'UTC-4:30', 'UTC+5.5']) expect(isFixedOffsetZone(tz)).toBe(true);
    for (const tz of ['America/New_York', 'Europe/Paris', '', 'Not/AZone', 'UTC+99']) expect(isFixedOffsetZone(tz)).toBe(false);
  });
});
