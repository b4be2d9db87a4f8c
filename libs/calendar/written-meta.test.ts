import { eventMetaChanges, writtenMeta } from './meta';

describe('meta written through cms/v2', () => {
  it('derives the UTC strings, zone, abbreviation, duration and index fields from the local dates', () => {
    const out = writtenMeta(
      null,
      { _EventStartDate: '2031-07-01 10:00:00', _EventEndDate: '2031-07-01 12:30:00', _EventTimezone: 'Europe/Paris', _EventVenueID: [4, 4, 0], footnotes: '' },
      'UTC',
    );
    expect(out.meta).toMatchObject({
      _EventStartDateUTC: '2031-07-01 08:00:00',
      _EventEndDateUTC: '2031-07-01 10:30:00',
      _EventTimezoneAbbr: 'CEST',
      _EventDuration: 9000,
      _EventAllDay: false,
      _EventVenueID: [4],
      footnotes: '',
    });
    expect(out).toMatchObject({ event_start: new Date('2031-07-01T08:00:00Z'), event_end: new Date('2031-07-01T10:30:00Z'), venues: [4] });
  });

  it('recomputes when only the zone changes; null removes a key', () => {
    const first = writtenMeta(null, { _EventStartDate: '2031-01-10 09:00:00', _EventEndDate: '2031-01-10 10:00:00', _EventCost: '5' }, 'America/New_York');
    expect(first.meta).toMatchObject({ _EventTimezone: 'America/New_York', _EventStartDateUTC: '2031-01-10 14:00:00' });
    const moved = writtenMeta(first, { _EventTimezone: 'Asia/Tokyo', _EventCost: null }, 'America/New_York');
    expect(moved.meta).toMatchObject({ _EventStartDate: '2031-01-10 09:00:00', _EventStartDateUTC: '2031-01-10 00:00:00', _EventTimezoneAbbr: 'JST' });
    expect(moved.meta).not.toHaveProperty('_EventCost');
    expect(moved.event_start).toEqual(new Date('2031-01-10T00:00:00Z'));
  });

  it('a UTC date written alone moves the local one, in the event zone', () => {
    const first = writtenMeta(null, { _EventStartDate: '2031-01-10 09:00:00', _EventEndDate: '2031-01-10 10:00:00', _EventTimezone: 'Europe/Berlin' }, 'UTC');
    const moved = eventMetaChanges(first, { _EventEndDateUTC: '2031-01-10 15:00:00' }, 'UTC');
    expect(moved.meta).toMatchObject({ _EventEndDate: '2031-01-10 16:00:00', _EventEndDateUTC: '2031-01-10 15:00:00', _EventDuration: 25200 });
  });

  it('other keys are stored as given, without event index fields', () => {
    const out = writtenMeta({ meta: { _VenueCity: 'Old' } }, { _VenueCity: 'Berlin', footnotes: 'x' }, 'UTC');
    expect(out).toEqual({ meta: { _VenueCity: 'Berlin', footnotes: 'x' } });
    expect(writtenMeta({ meta: { _VenueCity: 'Old' } }, { _VenueCity: null }, 'UTC')).toEqual({ meta: {} });
  });

  it("a venue's coordinates move its index fields; removing one leaves it without a position", () => {
    const at = writtenMeta({ meta: { _VenueCity: 'Berlin' } }, { _VenueLat: '52.52', _VenueLng: '13.405' }, 'UTC');
    expect(at).toEqual({ meta: { _VenueCity: 'Berlin', _VenueLat: '52.52', _VenueLng: '13.405' }, venue_lat: 52.52, venue_lng: 13.405 });
    expect(writtenMeta({ meta: at.meta }, { _VenueLng: null }, 'UTC')).toEqual({
      meta: { _VenueCity: 'Berlin', _VenueLat: '52.52' },
      venue_lat: null,
      venue_lng: null,
    });
    expect(writtenMeta({ meta: at.meta }, { _VenueLat: '91' }, 'UTC')).toMatchObject({ venue_lat: null, venue_lng: null });
  });
});
