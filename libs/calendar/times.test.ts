import { eventTimes, storedTimezone, type StoredTimes } from './times';

const STORED = {
  _EventStartDate: '2031-01-10 09:00:00',
  _EventEndDate: '2031-01-10 12:00:00',
  _EventStartDateUTC: '2031-01-10 14:00:00',
  _EventEndDateUTC: '2031-01-10 17:00:00',
  _EventTimezone: 'America/New_York',
  _EventTimezoneAbbr: 'EST',
};

const MODES: StoredTimes[] = ['echo', 'dates'];

const texts = (t: { start: { text: string }; end: { text: string }; startUtc: { text: string }; endUtc: { text: string } } | null) =>
  t && [t.start.text, t.end.text, t.startUtc.text, t.endUtc.text];

describe('eventTimes', () => {
  it('answers with the four stored strings, zone and abbreviation under either option', () => {
    expect(eventTimes(STORED, 'UTC', { stored: 'echo' })).toEqual({
      start: '2031-01-10 09:00:00',
      end: '2031-01-10 12:00:00',
      startUtc: '2031-01-10 14:00:00',
      endUtc: '2031-01-10 17:00:00',
      timezone: 'America/New_York',
      abbr: 'EST',
      allDay: false,
    });
    const dated = eventTimes({ ...STORED, _EventAllDay: 'yes' }, 'UTC', { stored: 'dates' })!;
    expect(texts(dated)).toEqual(['2031-01-10 09:00:00', '2031-01-10 12:00:00', '2031-01-10 14:00:00', '2031-01-10 17:00:00']);
    expect(dated).toMatchObject({ timezone: 'America/New_York', abbr: 'EST', allDay: true });
    expect(dated.startUtc.ms).toBe(Date.UTC(2031, 0, 10, 14));
  });

  it('derives all four strings when one is missing, in the stored zone', () => {
    const meta = { _EventStartDate: '2031-01-10 09:00:00', _EventEndDate: '2031-01-10 12:00:00', _EventTimezone: 'Europe/Paris' };
    expect(eventTimes(meta, 'UTC', { stored: 'echo' })).toEqual({
      start: '2031-01-10 09:00:00',
      end: '2031-01-10 12:00:00',
      startUtc: '2031-01-10 08:00:00',
      endUtc: '2031-01-10 11:00:00',
      timezone: 'Europe/Paris',
      abbr: 'GMT+1',
      allDay: false,
    });
    expect(texts(eventTimes(meta, 'UTC', { stored: 'dates' }))).toEqual([
      '2031-01-10 09:00:00',
      '2031-01-10 12:00:00',
      '2031-01-10 08:00:00',
      '2031-01-10 11:00:00',
    ]);
  });

  it('has no times for empty meta or empty strings', () => {
    for (const meta of [{}, { _EventStartDate: '', _EventEndDate: '', _EventStartDateUTC: '', _EventEndDateUTC: '' }]) {
      expect(eventTimes(meta, 'UTC', { stored: 'echo' })).toBeNull();
      expect(eventTimes(meta, 'UTC', { stored: 'dates' })).toBeNull();
    }
  });

  it('non-date text: echoed as stored by vendor/events/v1, read as no date by ec/v1 and the views', () => {
    const junk = { ...STORED, _EventStartDate: 'soon', _EventEndDate: 'later', _EventStartDateUTC: 'n/a', _EventEndDateUTC: '?' };
    expect(eventTimes(junk, 'UTC', { stored: 'echo' })).toMatchObject({
      start: 'soon',
      end: 'later',
      startUtc: 'n/a',
      endUtc: '?',
      timezone: 'America/New_York',
    });
    expect(eventTimes(junk, 'UTC', { stored: 'dates' })).toBeNull();
  });

  it('one non-date local string: echoed as stored, or all four derived from what still reads (the UTC string)', () => {
    const meta = { ...STORED, _EventStartDate: 'not a date' };
    expect(eventTimes(meta, 'UTC', { stored: 'echo' })).toMatchObject({ start: 'not a date', startUtc: '2031-01-10 14:00:00' });
    expect(texts(eventTimes(meta, 'UTC', { stored: 'dates' }))).toEqual([
      '2031-01-10 09:00:00',
      '2031-01-10 12:00:00',
      '2031-01-10 14:00:00',
      '2031-01-10 17:00:00',
    ]);
  });

  it('a stored date without a clock is not a stored date string: the times are derived, from midnight', () => {
    const meta = { ...STORED, _EventStartDate: '2031-01-10' };
    expect(eventTimes(meta, 'UTC', { stored: 'echo' })!.start).toBe('2031-01-10');
    const dated = eventTimes(meta, 'UTC', { stored: 'dates' })!;
    expect(texts(dated)).toEqual(['2031-01-10 00:00:00', '2031-01-10 12:00:00', '2031-01-10 05:00:00', '2031-01-10 17:00:00']);
  });

  it('a missing end is the start', () => {
    const meta = { _EventStartDate: '2031-07-01 10:00:00', _EventTimezone: 'America/New_York' };
    expect(eventTimes(meta, 'UTC', { stored: 'echo' })).toEqual({
      start: '2031-07-01 10:00:00',
      end: '2031-07-01 10:00:00',
      startUtc: '2031-07-01 14:00:00',
      endUtc: '2031-07-01 14:00:00',
      timezone: 'America/New_York',
      abbr: 'EDT',
      allDay: false,
    });
    expect(texts(eventTimes(meta, 'UTC', { stored: 'dates' }))).toEqual([
      '2031-07-01 10:00:00',
      '2031-07-01 10:00:00',
      '2031-07-01 14:00:00',
      '2031-07-01 14:00:00',
    ]);
  });

  it('a missing or unknown zone: derived times are in the site zone; stored strings keep the stored zone text only when echoed', () => {
    const noZone: Record<string, unknown> = { ...STORED, _EventTimezone: undefined, _EventTimezoneAbbr: undefined };
    expect(eventTimes(noZone, 'Asia/Tokyo', { stored: 'echo' })).toMatchObject({ timezone: '', abbr: '' });
    expect(eventTimes(noZone, 'Asia/Tokyo', { stored: 'dates' })).toMatchObject({ timezone: 'Asia/Tokyo', abbr: '' });
    const unknown = { ...STORED, _EventTimezone: 'Mars/Base' };
    expect(eventTimes(unknown, 'Asia/Tokyo', { stored: 'echo' })).toMatchObject({ timezone: 'Mars/Base' });
    expect(eventTimes(unknown, 'Asia/Tokyo', { stored: 'dates' })).toMatchObject({ timezone: 'Asia/Tokyo' });
    const local = { _EventStartDate: '2031-01-10 09:00:00', _EventEndDate: '2031-01-10 10:00:00' };
    for (const stored of MODES) expect(eventTimes(local, 'Asia/Tokyo', { stored })).toMatchObject({ timezone: 'Asia/Tokyo', abbr: 'GMT+9' });
    expect(eventTimes(local, 'Asia/Tokyo', { stored: 'echo' })).toMatchObject({ startUtc: '2031-01-10 00:00:00', endUtc: '2031-01-10 01:00:00' });
  });

  it('zoned: the start and end as DateTimes read from the local strings in the event zone', () => {
    const zoned = eventTimes(STORED, 'UTC', { stored: 'dates' })!.zoned()!;
    expect(zoned.start.toISO()).toBe('2031-01-10T09:00:00.000-05:00');
    expect(zoned.end.toISO()).toBe('2031-01-10T12:00:00.000-05:00');
    const derived = eventTimes({ _EventStartDateUTC: '2031-01-10 14:00:00', _EventTimezone: 'America/New_York' }, 'UTC', { stored: 'dates' })!;
    expect(derived.zoned()!.start.toISO()).toBe('2031-01-10T09:00:00.000-05:00');
  });

  it('storedTimezone: the stored zone text, or empty', () => {
    expect(storedTimezone(STORED)).toBe('America/New_York');
    expect(storedTimezone({ _EventTimezone: 3 })).toBe('');
    expect(storedTimezone({})).toBe('');
  });
});
