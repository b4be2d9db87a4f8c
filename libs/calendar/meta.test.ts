import { DateTime } from 'luxon';
import { EVENT_META, eventIndex, eventMetaChanges, idList, storableEventTime, timesToMeta, unlinkFromEvents } from './meta';

describe('event meta', () => {
  it('writes local and UTC strings, zone, abbreviation and duration from times', () => {
    const start = DateTime.fromISO('2031-01-10T09:00:00', { zone: 'America/New_York' });
    expect(timesToMeta({ start, end: start.plus({ hours: 3 }), timezone: 'America/New_York', allDay: false })).toEqual({
      _EventStartDate: '2031-01-10 09:00:00',
      _EventEndDate: '2031-01-10 12:00:00',
      _EventStartDateUTC: '2031-01-10 14:00:00',
      _EventEndDateUTC: '2031-01-10 17:00:00',
      _EventTimezone: 'America/New_York',
      _EventTimezoneAbbr: 'EST',
      _EventAllDay: false,
      _EventDuration: 10800,
    });
  });

  it('derives every indexed field from meta, in one place', () => {
    const index = eventIndex(
      {
        _EventStartDate: '2031-01-10 09:00:00',
        _EventEndDate: '2031-01-10 12:00:00',
        _EventTimezone: 'Europe/Paris',
        _vendor_featured: '1',
        _EventHideFromUpcoming: 'yes',
        _EventVenueID: ['7', 7, 0],
        _EventOrganizerID: 9,
      },
      'UTC',
    );
    expect(index).toEqual({
      event_start: new Date('2031-01-10T08:00:00Z'),
      event_end: new Date('2031-01-10T11:00:00Z'),
      featured: true,
      hide_from_listings: true,
      venues: [7],
      organizers: [9],
    });
    expect(eventIndex({}, 'UTC')).toEqual({ event_start: null, event_end: null, featured: false, hide_from_listings: false, venues: [], organizers: [] });
  });

  it('recomputes UTC strings when a write changes the zone or the dates, and removes undefined keys', () => {
    const current = {
      meta: {
        ...timesToMeta({
          start: DateTime.fromISO('2031-07-01T10:00:00', { zone: 'UTC' }),
          end: DateTime.fromISO('2031-07-01T11:00:00', { zone: 'UTC' }),
          timezone: 'UTC',
          allDay: false,
        }),
        _EventCost: '5',
      },
    };
    const changed = eventMetaChanges(current, { [EVENT_META.timezone]: 'Europe/Paris', _EventCost: undefined, _EventVenueID: ['3'] }, 'UTC');
    expect(changed.meta).toMatchObject({
      _EventStartDate: '2031-07-01 10:00:00',
      _EventStartDateUTC: '2031-07-01 08:00:00',
      _EventTimezoneAbbr: 'CEST',
      _EventVenueID: [3],
    });
    expect(changed.meta).not.toHaveProperty('_EventCost');
    expect(changed).toMatchObject({ event_start: new Date('2031-07-01T08:00:00Z'), venues: [3] });
  });

  it('keeps id lists clean and unlinks a trashed venue from its events in one update', () => {
    expect(idList('12')).toEqual([12]);
    expect(idList(['1', 'x', -2, 3, 3])).toEqual([1, 3]);
    expect(unlinkFromEvents('venue', 5)).toEqual({ filter: { type: 'vendor_events', venues: 5 }, update: { $pull: { 'meta._EventVenueID': 5, venues: 5 } } });
  });
});

describe('times handed on instead of read back', () => {
  // What the event write path hands eventMetaChanges in a zone of fixed offset (services/calendar/events/write.ts).
  it.each(['UTC', 'UTC+2', 'UTC-9:30', 'UTC+14'])('gives the record reading the meta back gives, in %s', (zone) => {
    for (const [start, end, allDay] of [
      ['2027-03-14T02:30:00', '2027-03-14T04:15:30', false],
      ['2027-11-07T01:30:00.250', '2027-11-07T01:10:00', false],
      ['0000-01-01T00:00:00', '9999-12-31T23:59:59', false],
      ['2027-06-01T10:00:00', '2027-06-03T09:00:00', true],
    ] as const) {
      const times = { start: DateTime.fromISO(start, { zone }), end: DateTime.fromISO(end, { zone }), timezone: zone, allDay };
      const changes = timesToMeta(times);
      expect(eventMetaChanges(null, changes, 'UTC', times)).toEqual(eventMetaChanges(null, changes, 'UTC'));
    }
  });
});

describe('the moments an event may have', () => {
  it('ends at 9999-12-31 23:59:59, as wall time and in UTC', () => {
    expect(storableEventTime(DateTime.fromISO('9999-12-31T23:59:59', { zone: 'UTC' }))).toBe(true);
    expect(storableEventTime(DateTime.fromISO('9999-12-31T23:59:59', { zone: 'UTC' }).plus({ seconds: 1 }))).toBe(false);
    // In New York the last storable wall time is 18:59:59: later ones are in year 10000 in UTC.
    expect(storableEventTime(DateTime.fromISO('9999-12-31T18:59:59', { zone: 'America/New_York' }))).toBe(true);
    expect(storableEventTime(DateTime.fromISO('9999-12-31T19:00:00', { zone: 'America/New_York' }))).toBe(false);
    // East of UTC the wall time reaches year 10000 first.
    expect(storableEventTime(DateTime.fromISO('9999-12-31T22:00:00', { zone: 'UTC' }).setZone('Asia/Tokyo'))).toBe(false);
    expect(storableEventTime(DateTime.fromISO('0000-01-01T00:00:00', { zone: 'UTC' }))).toBe(true);
    expect(storableEventTime(DateTime.fromISO('0000-01-01T00:00:00', { zone: 'UTC' }).minus({ seconds: 1 }))).toBe(false);
    expect(storableEventTime(DateTime.fromMillis(NaN))).toBe(false);
  });
});
