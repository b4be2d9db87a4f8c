import { eventDateFields, phpDate } from './schedule';
import { DateTime } from 'luxon';

const meta = (start: string, end: string, extra: Record<string, unknown> = {}) => ({
  _EventStartDate: start,
  _EventEndDate: end,
  _EventTimezone: 'UTC',
  ...extra,
});
// A Wednesday: its week runs from Monday 2025-06-09 to Sunday 2025-06-15.
const NOW = new Date('2025-06-11T12:00:00Z');

describe('event date fields', () => {
  it('single-day events: schedule without the year in the current year, with it otherwise', () => {
    const f = eventDateFields(meta('2025-06-13 15:25:00', '2025-06-13 19:25:00'), 'UTC', NOW);
    expect(f.schedule).toEqual({
      schedule_details: '<span class="tribe-event-date-start">June 13 @ 3:25 pm</span> - <span class="tribe-event-time">7:25 pm</span>',
      short_schedule_details: '<span class="tribe-event-date-start">3:25 pm</span> - <span class="tribe-event-time">7:25 pm</span>',
    });
    expect(f.week).toMatchObject({
      duration: '14400',
      multiday: false,
      is_past: false,
      is_now: false,
      starts_this_week: true,
      ends_this_week: true,
      happens_this_week: true,
      this_week_duration: 1,
      displays_on: ['2025-06-13'],
    });
    const old = eventDateFields(meta('2023-01-15 09:00:00', '2023-01-15 17:00:00'), 'UTC', NOW);
    expect(old.schedule.schedule_details).toBe(
      '<span class="tribe-event-date-start">January 15, 2023 @ 9:00 am</span> - <span class="tribe-event-time">5:00 pm</span>',
    );
    expect(old.week).toMatchObject({ is_past: true, starts_this_week: false, happens_this_week: false, this_week_duration: null, displays_on: [] });
  });

  it('an event whose start and end times are equal shows one time', () => {
    const f = eventDateFields(meta('2025-07-01 10:00:00', '2025-07-01 10:00:00'), 'UTC', NOW);
    expect(f.schedule).toEqual({
      schedule_details: '<span class="tribe-event-date-start">July 1 @ 10:00 am</span>',
      short_schedule_details: '<span class="tribe-event-date-start">10:00 am</span>',
    });
  });

  it('multi-day events count the days they span; one ending at midnight does not take the next day', () => {
    const f = eventDateFields(meta('2025-07-13 17:25:00', '2025-07-14 01:25:00'), 'UTC', NOW);
    expect(f.week.multiday).toBe(2);
    expect(f.schedule.schedule_details).toBe(
      '<span class="tribe-event-date-start">July 13 @ 5:25 pm</span> - <span class="tribe-event-date-end">July 14 @ 1:25 am</span>',
    );
    expect(eventDateFields(meta('2025-07-13 20:00:00', '2025-07-14 00:00:00'), 'UTC', NOW).week.multiday).toBe(false);
    const newYear = eventDateFields(meta('2025-12-31 20:00:00', '2026-01-01 02:00:00'), 'UTC', NOW);
    expect(newYear.schedule.schedule_details).toBe(
      '<span class="tribe-event-date-start">December 31 @ 8:00 pm</span> - <span class="tribe-event-date-end">January 1, 2026 @ 2:00 am</span>',
    );
  });

  it('all-day events: whole days, "All day", and a date range when they span days', () => {
    const one = eventDateFields(meta('2025-06-27 00:00:00', '2025-06-27 23:59:59', { _EventAllDay: true }), 'UTC', NOW);
    expect(one.week).toMatchObject({ all_day: true, multiday: false, duration: '86399' });
    expect(one.schedule).toEqual({ schedule_details: '<span class="tribe-event-date-start">June 27</span>', short_schedule_details: 'All day' });
    const three = eventDateFields(meta('2025-06-27 00:00:00', '2025-06-29 23:59:59', { _EventAllDay: true }), 'UTC', NOW);
    expect(three.week.multiday).toBe(3);
    expect(three.schedule.schedule_details).toBe('<span class="tribe-event-date-start">June 27</span> - <span class="tribe-event-date-end">June 29</span>');
  });

  it('this week: an event across the week end takes the days left in the week; one happening now is now', () => {
    const across = eventDateFields(meta('2025-06-14 10:00:00', '2025-06-17 10:00:00'), 'UTC', NOW);
    expect(across.week).toMatchObject({
      starts_this_week: true,
      ends_this_week: false,
      happens_this_week: true,
      this_week_duration: 2,
      displays_on: ['2025-06-14', '2025-06-15'],
    });
    const running = eventDateFields(meta('2025-06-11 11:00:00', '2025-06-11 13:00:00'), 'UTC', NOW);
    expect(running.week).toMatchObject({ is_now: true, is_past: false });
    const spanning = eventDateFields(meta('2025-06-01 10:00:00', '2025-06-30 10:00:00'), 'UTC', NOW);
    expect(spanning.week).toMatchObject({ starts_this_week: false, ends_this_week: false, happens_this_week: true, this_week_duration: 7 });
  });

  it('custom separators from the event meta', () => {
    const f = eventDateFields(
      meta('2025-06-13 15:00:00', '2025-06-13 16:00:00', { _EventDateTimeSeparator: ' at ', _EventTimeRangeSeparator: ' to ' }),
      'UTC',
      NOW,
    );
    expect(f.schedule.schedule_details).toBe('<span class="tribe-event-date-start">June 13 at 3:00 pm</span> to <span class="tribe-event-time">4:00 pm</span>');
  });

  it('dates in the event zone, UTC and the site zone; UTC strings come from the local ones', () => {
    const f = eventDateFields(
      meta('2025-06-13 09:00:00', '2025-06-13 10:00:00', { _EventTimezone: 'Europe/Berlin', _EventStartDateUTC: 'stale' }),
      'America/New_York',
      NOW,
    );
    expect(f.dates).toMatchObject({
      start_date: '2025-06-13 09:00:00',
      start_date_utc: '2025-06-13 07:00:00',
      end_date_utc: '2025-06-13 08:00:00',
      timezone: 'Europe/Berlin',
    });
    const dates = f.dates.dates as Record<string, unknown>;
    expect(dates.start_site).toEqual({ date: '2025-06-13 03:00:00.000000', timezone_type: 3, timezone: 'America/New_York' });
    expect(dates.start_display).toEqual({ date: '2025-06-13 09:00:00.000000', timezone_type: 3, timezone: 'Europe/Berlin' });
  });

  it('an event without dates has empty fields', () => {
    const f = eventDateFields({}, 'UTC', NOW);
    expect(f.dates).toMatchObject({ start_date: '', dates: null });
    expect(f.schedule).toEqual({ schedule_details: '', short_schedule_details: '' });
  });

  it('PHP DateTime shapes: named zones are type 3, offsets type 1', () => {
    expect(phpDate(DateTime.fromISO('2025-01-01T10:00:00', { zone: 'UTC' }))).toEqual({
      date: '2025-01-01 10:00:00.000000',
      timezone_type: 3,
      timezone: 'UTC',
    });
    expect(phpDate(DateTime.fromISO('2025-01-01T10:00:00', { zone: 'UTC-4:30' }))).toEqual({
      date: '2025-01-01 10:00:00.000000',
      timezone_type: 1,
      timezone: '-04:30',
    });
  });
});
