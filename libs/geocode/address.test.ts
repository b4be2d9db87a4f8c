import { normaliseAddress, venueAddress } from './address';

describe('the address a venue is geocoded by', () => {
  it('joins street, province, city, state, zip and country, leaving out empty parts and parentheses', () => {
    expect(venueAddress({ _VenueAddress: ' 1 Main St (rear) ', _VenueCity: 'Springfield', _VenueState: 'IL', _VenueZip: '62701', _VenueCountry: 'USA' })).toBe(
      '1 Main St Springfield IL 62701 USA',
    );
    expect(venueAddress({})).toBe('');
  });

  it('takes the one-field region vendor/events/v1 writes when the venue has no state or province', () => {
    expect(venueAddress({ _VenueAddress: '1 Main St', _VenueCity: 'Springfield', _VenueStateProvince: 'IL' })).toBe('1 Main St Springfield IL');
    expect(venueAddress({ _VenueCity: 'Springfield', _VenueState: 'IL', _VenueStateProvince: 'Illinois' })).toBe('Springfield IL');
  });

  it('normalises two spellings of one place alike', () => {
    expect(normaliseAddress('Pariser Platz, BERLIN')).toBe(normaliseAddress('pariser platz berlin'));
  });
});
