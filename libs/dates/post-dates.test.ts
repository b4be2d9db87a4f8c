import { filterDate, fromLocal, now, parseDateInput } from './post-dates';

describe('post dates', () => {
  it('reads a local date string in the site zone', () => {
    expect(fromLocal('2024-07-01 12:00:00', 'Europe/Berlin').toISOString()).toBe('2024-07-01T10:00:00.000Z');
  });

  it('reads input without an offset as local (or UTC), with one as that instant, to the second', () => {
    expect(parseDateInput('2024-07-01 12:00:00', 'Europe/Berlin')).toEqual({ local: '2024-07-01 12:00:00', gmt: new Date('2024-07-01T10:00:00Z') });
    expect(parseDateInput('2024-07-01t12:00:00.900z', 'Europe/Berlin')).toEqual({ local: '2024-07-01 14:00:00', gmt: new Date('2024-07-01T12:00:00Z') });
    expect(parseDateInput('2024-07-01T12:00:00', 'Europe/Berlin', true)?.local).toBe('2024-07-01 14:00:00');
    expect(parseDateInput('2024-02-30T12:00:00', 'UTC')).toBeNull();
    expect(filterDate('2024-07-01T12:00:00+02:00', 'UTC')).toBe('2024-07-01 10:00:00');
    expect(filterDate('soon', 'UTC')).toBeNull();
  });

  it('reads now to the second', () => {
    expect(now().getMilliseconds()).toBe(0);
  });
});
