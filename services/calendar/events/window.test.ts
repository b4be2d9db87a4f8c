import { DateTime } from 'luxon';
import { defaultWindow } from './window';

const text = (w: { start: { text: string }; end: { text: string } }) => [w.start.text, w.end.text];

/** The window worked out afresh from the instant, as the reference words it. */
function fresh(zone: string, now: Date) {
  const today = DateTime.fromJSDate(now, { zone });
  const start = today.minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0, millisecond: 0 }).startOf('day');
  const end = today.plus({ months: 24 }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  return {
    start: { at: start.toJSDate(), text: start.toFormat('yyyy-LL-dd HH:mm:ss') },
    end: { at: end.toJSDate(), text: end.toFormat('yyyy-LL-dd HH:mm:ss') },
  };
}

describe('defaultWindow', () => {
  it('runs from 00:00:00 yesterday to 23:59:59 of the day 24 months on, in the site zone', () => {
    expect(text(defaultWindow('America/New_York', new Date('2031-03-10T15:00:00Z'), false))).toEqual(['2031-03-09 00:00:00', '2033-03-10 23:59:59']);
    expect(text(defaultWindow('America/New_York', new Date('2031-03-10T15:00:00Z'), true))).toEqual(['2031-03-09 23:59:00', '2033-03-10 11:00:00']);
  });

  it('moves at local midnight, and back again when the clock is set back', () => {
    const zone = 'Europe/Paris';
    const before = new Date('2031-06-30T21:59:59Z'); // 23:59:59 in Paris
    const after = new Date('2031-06-30T22:00:00Z'); // 00:00:00 the next day
    expect(text(defaultWindow(zone, before, false))).toEqual(['2031-06-29 00:00:00', '2033-06-30 23:59:59']);
    expect(text(defaultWindow(zone, after, false))).toEqual(['2031-06-30 00:00:00', '2033-07-01 23:59:59']);
    expect(text(defaultWindow(zone, before, false))).toEqual(['2031-06-29 00:00:00', '2033-06-30 23:59:59']);
    const dayEarlier = new Date('2031-06-29T12:00:00Z');
    expect(text(defaultWindow(zone, dayEarlier, false))).toEqual(['2031-06-28 00:00:00', '2033-06-29 23:59:59']);
  });

  it('is the window worked out afresh from the instant, around local midnights, daylight-saving changes and month ends, in every kind of zone', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'America/Santiago',
      'Asia/Kolkata',
      'Pacific/Chatham',
      'UTC',
      'UTC+5:30',
      'UTC-11',
    ];
    const days = ['2031-03-09', '2031-03-30', '2031-04-06', '2031-09-07', '2031-10-05', '2031-11-02', '2032-02-29', '2031-08-31', '2031-12-31'];
    for (const zone of zones) {
      for (const day of days) {
        // Every 105 minutes from 14 hours before UTC midnight to 38 after: each zone's midnight and its neighbours.
        for (let m = -14 * 60; m <= 38 * 60; m += 105) {
          const now = new Date(Date.parse(`${day}T00:00:00Z`) + m * 60_000);
          const got = defaultWindow(zone, now, false);
          const want = fresh(zone, now);
          expect([zone, now.toISOString(), got.start.text, got.end.text, got.start.at.getTime(), got.end.at.getTime()]).toEqual([
            zone,
            now.toISOString(),
            want.start.text,
            want.end.text,
            want.start.at.getTime(),
            want.end.at.getTime(),
          ]);
        }
      }
    }
  });

  it('reads a zone it does not know as UTC', () => {
    expect(text(defaultWindow('Mars/Base', new Date('2031-01-01T23:30:00Z'), false))).toEqual(['2030-12-31 00:00:00', '2033-01-01 23:59:59']);
  });
});
