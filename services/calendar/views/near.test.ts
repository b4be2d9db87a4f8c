/**
 * The calendar page's location search in the extended edition: the "Near" field, a point given by the
 * browser (`tribe-bar-geoloc-lat`/`-lng`) keeping the events of venues inside the geofence (25 miles by
 * default) in date order with each one's distance, the feed and paging links keeping the point, a bad
 * point read as none, a typed place geocoded (once: then from the address cache) through a local fake
 * geocoder, an unknown place and a geocoder that is down said as such, and the free edition showing no
 * field and ignoring the point.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { startFakeGeocoder, type FakeGeocoder } from '../../../test/support/fake-geocoder';

const BERLIN = { lat: 52.52, lng: 13.405 };
let app: TestApp;
let free: TestApp;
let geo: FakeGeocoder;

const titles = (html: string) => [...new Set([...html.matchAll(/event-title-link[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]))];
const near = (point: { lat: number; lng: number }) => `tribe-bar-geoloc-lat=${point.lat}&tribe-bar-geoloc-lng=${point.lng}`;

async function seed(a: TestApp): Promise<void> {
  const venue = async (name: string, lat: number, lng: number) => {
    const res = await a.admin('POST', '/vendor/events/v1/venues', { body: { venue: name, city: 'Berlin', geo_lat: lat, geo_lng: lng } });
    if (res.status !== 201) throw new Error(`venue ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  };
  // Hand-computed (haversine, 6371 km): 0 km, 8.90 km (5.5 mi), 42.25 km (outside 25 mi = 40.23 km).
  const centre = await venue('Centre Hall', 52.52, 13.405);
  const north = await venue('North Barn', 52.6, 13.405);
  const far = await venue('Far Field', 52.9, 13.405);
  const event = async (title: string, day: string, venueId: number) => {
    const res = await a.admin('POST', '/vendor/events/v1/events', {
      body: { title, start_date: `2031-06-${day} 18:00:00`, end_date: `2031-06-${day} 20:00:00`, venue: venueId },
    });
    if (res.status !== 201) throw new Error(`event ${title}: ${res.status}`);
  };
  await event('North Concert', '01', north);
  await event('Centre Talk', '02', centre);
  await event('Far Fair', '03', far);
}

beforeAll(async () => {
  geo = await startFakeGeocoder();
  geo.place('Alexanderplatz, Berlin', 52.5219, 13.4132);
  [app, free] = await Promise.all([
    startTestApp({ SITE_TIMEZONE: 'UTC', EDITION: 'extended', GEOCODER_URL: geo.searchUrl, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', GEOCODER_RATE_PER_SECOND: '20' }),
    startTestApp({ SITE_TIMEZONE: 'UTC' }),
  ]);
  await Promise.all([seed(app), seed(free)]);
});
afterAll(async () => {
  await Promise.all([app?.close(), free?.close()]);
  await geo?.close();
});

it('keeps the events inside the geofence of a given point, in date order, each with its distance', async () => {
  const res = await app.request('GET', `${app.url}/events/list/?tribe-bar-date=2031-05-01&${near(BERLIN)}`);
  expect(res.status).toBe(200);
  expect(titles(res.text)).toEqual(['North Concert', 'Centre Talk']);
  expect(res.text).toContain('<span class="tribe-events-calendar-list__event-distance tribe-common-b3">· 5.5 mi away</span>');
  expect(res.text).toContain('<span class="tribe-events-calendar-list__event-distance tribe-common-b3">· 0.0 mi away</span>');
  expect(res.text).toContain('Showing results for events in the area of your location.');
  // The field, the point kept in the form, the feed with the point.
  expect(res.text).toContain('name="tribe-bar-geoloc" value=""');
  expect(res.text).toContain(`<input type="hidden" name="tribe-bar-geoloc-lat" value="${BERLIN.lat}" data-js="tribe-events-geoloc-lat">`);
  expect(res.text).toContain(`geoloc_lat=${BERLIN.lat}&amp;geoloc_lng=${BERLIN.lng}`);
  // The month view is searched the same way.
  const month = await app.request('GET', `${app.url}/events/month/2031-06/?${near(BERLIN)}`);
  expect(titles(month.text).sort()).toEqual(['Centre Talk', 'North Concert']);
});

it('shows distances in the unit of the settings', async () => {
  expect((await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_unit: 'kilometers' } })).status).toBe(200);
  try {
    const res = await app.request('GET', `${app.url}/events/list/?tribe-bar-date=2031-05-01&${near(BERLIN)}`);
    expect(res.text).toContain('8.9 km away');
    // 25 km now: the North Barn (8.9 km) is in, the Far Field (42 km) out.
    expect(titles(res.text)).toEqual(['North Concert', 'Centre Talk']);
  } finally {
    await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_unit: 'miles' } });
  }
});

it('geocodes a typed place once, then answers it from the address cache', async () => {
  const asked = geo.asked('Alexanderplatz, Berlin');
  const path = `/events/list/?tribe-bar-date=2031-05-01&tribe-bar-geoloc=${encodeURIComponent('Alexanderplatz, Berlin')}`;
  const res = await app.request('GET', `${app.url}${path}`);
  expect(res.status).toBe(200);
  expect(titles(res.text)).toEqual(['North Concert', 'Centre Talk']);
  expect(res.text).toContain('Showing results for events in the area of <strong>Alexanderplatz, Berlin</strong>.');
  expect(res.text).toContain('name="tribe-bar-geoloc" value="Alexanderplatz, Berlin"');
  // The feed names the point the place stands for.
  expect(res.text).toContain('geoloc_lat=52.5219&amp;geoloc_lng=13.4132');
  expect((await app.request('GET', `${app.url}${path.replace('Alexanderplatz', 'alexanderplatz')}`)).status).toBe(200);
  expect(geo.asked('Alexanderplatz, Berlin')).toBe(asked + 1);
});

it('says when a place is unknown, and when the geocoder cannot answer now', async () => {
  const unknown = await app.request('GET', `${app.url}/events/list/?tribe-bar-geoloc=${encodeURIComponent('<b>Atlantis</b>')}`);
  expect(unknown.status).toBe(200);
  expect(titles(unknown.text)).toEqual([]);
  expect(unknown.text).toContain('The place <strong>&lt;b&gt;Atlantis&lt;/b&gt;</strong> could not be found.');
  geo.script('Gotham', { status: 500 });
  const down = await app.request('GET', `${app.url}/events/list/?tribe-bar-geoloc=Gotham`);
  expect(down.status).toBe(200);
  expect(down.text).toContain('The place <strong>Gotham</strong> cannot be looked up right now.');
});

it('reads a bad point as none', async () => {
  for (const bad of ['tribe-bar-geoloc-lat=95&tribe-bar-geoloc-lng=13', 'tribe-bar-geoloc-lat=1e3&tribe-bar-geoloc-lng=13', 'tribe-bar-geoloc-lat=52.5']) {
    const res = await app.request('GET', `${app.url}/events/list/?tribe-bar-date=2031-05-01&${bad}`);
    expect([bad, res.status, titles(res.text)]).toEqual([bad, 200, ['North Concert', 'Centre Talk', 'Far Fair']]);
  }
});

it('the free edition has no Near field and ignores a point', async () => {
  const res = await free.request('GET', `${free.url}/events/list/?tribe-bar-date=2031-05-01&${near(BERLIN)}&tribe-bar-geoloc=Berlin`);
  expect(res.status).toBe(200);
  expect(res.text).not.toContain('tribe-bar-geoloc');
  expect(res.text).not.toContain('event-distance');
  expect(titles(res.text)).toEqual(['North Concert', 'Centre Talk', 'Far Fair']);
});
