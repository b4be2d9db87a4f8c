import { daysInMonth, isCalendarDay, readWall, storedWall, storedWallAt, wallOfUtc } from './wall';

describe('wall clocks', () => {
  it('reads the wall clock of UTC milliseconds', () => {
    expect(wallOfUtc(Date.UTC(2024, 1, 29, 23, 59, 58))).toEqual({ year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58 });
  });

  it('knows the days of a month and which days exist', () => {
    expect([daysInMonth(2024, 2), daysInMonth(2023, 2), daysInMonth(1900, 2), daysInMonth(2000, 2), daysInMonth(2023, 4)]).toEqual([29, 28, 28, 29, 30]);
    expect(isCalendarDay(2024, 2, 29)).toBe(true);
    expect(isCalendarDay(2023, 2, 29)).toBe(false);
    expect(isCalendarDay(2023, 13, 1)).toBe(false);
    expect(isCalendarDay(2023, 1, 1.5)).toBe(false);
  });
});

describe('the two wall-clock readers', () => {
  it('readWall: loose Y-m-d forms, checked strictly, and anything else through strtotime', () => {
    expect(readWall(' 2024-3-5 ', 'UTC')).toEqual({ year: 2024, month: 3, day: 5, hour: 0, minute: 0, second: 0, timed: false });
    expect(readWall('2024-03-05T9:30', 'UTC')).toEqual({ year: 2024, month: 3, day: 5, hour: 9, minute: 30, second: 0, timed: true });
    expect(readWall('2024-03-05 10:99:00', 'UTC')).toBeNull();
    expect(readWall('2023-02-29', 'UTC')).toBeNull();
    expect(readWall('March 5 2024 6pm', 'UTC')).toEqual({ year: 2024, month: 3, day: 5, hour: 18, minute: 0, second: 0, timed: true });
  });

  it('storedWall: exactly Y-m-d H:i:s, keeping its text and milliseconds read as UTC', () => {
    expect(storedWall('2024-03-05 09:30:00')).toEqual({
      text: '2024-03-05 09:30:00',
      year: 2024,
      month: 3,
      day: 5,
      hour: 9,
      minute: 30,
      second: 0,
      ms: Date.UTC(2024, 2, 5, 9, 30),
    });
    expect(storedWall(' 2024-03-05 09:30:00')).toBeNull();
    expect(storedWall('2024-3-5 09:30:00')).toBeNull();
    expect(storedWall('2023-02-29 00:00:00')).toBeNull();
    expect(storedWall(20240305)).toBeNull();
    // A clock that overflows within the day is let through (readWall refuses it).
    expect(storedWall('2024-03-05 10:99:00')?.ms).toBe(Date.UTC(2024, 2, 5, 11, 39));
  });

  it('storedWallAt is the stored wall of milliseconds read as UTC', () => {
    const ms = Date.UTC(2024, 11, 31, 23, 0, 5);
    expect(storedWallAt(ms)).toEqual(storedWall('2024-12-31 23:00:05'));
  });
});
