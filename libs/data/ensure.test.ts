import { STORE_KINDS, type OpenedStore } from '../../test/support/stores';
import { ensureCollections, indexVenueCoordinates } from './ensure';

describe.each(STORE_KINDS)('venue coordinates stored before their index fields, %s', (_kind, open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
    await ensureCollections(opened.store);
  });
  afterAll(async () => {
    await opened.close();
  });

  it('get venue_lat/venue_lng at start-up, once', async () => {
    const posts = opened.store.collection('posts');
    await posts.insertMany([
      { id: 1, type: 'vendor_venue', status: 'publish', meta: { _VenueLat: '52.52', _VenueLng: '13.405' } },
      { id: 2, type: 'vendor_venue', status: 'publish', meta: { _VenueCity: 'Nowhere' } },
      { id: 3, type: 'vendor_venue', status: 'publish', meta: { _VenueLat: 95, _VenueLng: 10 } },
      { id: 4, type: 'vendor_events', status: 'publish', meta: { _VenueLat: 1, _VenueLng: 1 } },
    ]);
    expect(await indexVenueCoordinates(opened.store)).toBe(2);
    expect(await posts.findOne({ id: 1 })).toMatchObject({ venue_lat: 52.52, venue_lng: 13.405 });
    expect(await posts.findOne({ id: 2 })).not.toHaveProperty('venue_lat');
    expect(await posts.findOne({ id: 3 })).toMatchObject({ venue_lat: null, venue_lng: null });
    expect(await posts.findOne({ id: 4 })).not.toHaveProperty('venue_lat');
    const inBox = await posts.find({ type: 'vendor_venue', venue_lat: { $gte: 52, $lte: 53 }, venue_lng: { $gte: 13, $lte: 14 } });
    expect(inBox.map((d) => d.id)).toEqual([1]);
    expect(await indexVenueCoordinates(opened.store)).toBe(0);
  });
});
