/**
 * The calendar page's "Near" field in a real browser (extended edition, a local fake geocoder): a typed
 * place is searched in place and each event says how far it is; "Use my location" sends the browser's
 * position (granted to the page) and shows the events around it; no page logs an error.
 */
import { DateTime } from 'luxon';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/app';
import { CHROMIUM, DESKTOP, launchChromium, shot } from './support/calendar-browser';
import { freePort } from './support/cluster';
import { ensureDebianPackage } from './support/debian';
import { startFakeGeocoder, type FakeGeocoder } from './support/fake-geocoder';

let app: TestApp;
let browser: Browser;
let geo: FakeGeocoder;
const problems: string[] = [];
const month = DateTime.utc().startOf('month').plus({ months: 2 });
const day = (d: number) => month.set({ day: d }).toFormat('yyyy-LL-dd');

beforeAll(() => void ensureDebianPackage(CHROMIUM, 'chromium', 'the calendar page tests (Chromium driven by playwright-core)'), 15 * 60_000);

beforeAll(async () => {
  geo = await startFakeGeocoder();
  geo.place('Brandenburg Gate, Berlin', 52.5163, 13.3777);
  const port = await freePort();
  app = await startTestApp({
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    SITE_TIMEZONE: 'UTC',
    EDITION: 'extended',
    GEOCODER_URL: geo.searchUrl,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    GEOCODER_RATE_PER_SECOND: '20',
  });
  browser = await launchChromium();
  const venue = async (name: string, lat: number, lng: number) =>
    (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: name, city: 'Berlin', geo_lat: lat, geo_lng: lng } })).body.id as number;
  const event = async (title: string, d: number, venueId: number) => {
    const res = await app.admin('POST', '/vendor/events/v1/events', {
      body: { title, start_date: `${day(d)} 18:00:00`, end_date: `${day(d)} 20:00:00`, venue: venueId },
    });
    if (res.status !== 201) throw new Error(`event ${title}: ${res.status}`);
  };
  // From the Brandenburg Gate: Mitte 1.9 km (1.2 mi), Potsdam 25.4 km (16 mi), Hamburg 255 km (25 miles = 40.2 km).
  await event('Mitte Concert', 3, await venue('Mitte Hall', 52.5208, 13.4049));
  await event('Potsdam Lecture', 4, await venue('Potsdam Aula', 52.3906, 13.0645));
  await event('Hamburg Fair', 5, await venue('Hamburg Messe', 53.5511, 9.9937));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await geo?.close();
});

afterEach(() => {
  expect(problems.splice(0)).toEqual([]);
});

async function newPage(position?: { latitude: number; longitude: number }) {
  const context = await browser.newContext({
    viewport: DESKTOP,
    ...(position ? { geolocation: position, permissions: ['geolocation'] } : {}),
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${page.url()})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { context, page };
}

const titles = (page: import('playwright-core').Page) => page.locator('.tribe-events-calendar-list__event-title-link').allInnerTexts();

it('searches near a typed place in place, with each event’s distance', async () => {
  const { context, page } = await newPage();
  await page.goto(`${app.url}/events/list/?tribe-bar-date=${day(1)}`);
  expect(await titles(page)).toEqual(['Mitte Concert', 'Potsdam Lecture', 'Hamburg Fair']);
  await page.fill('#tribe-events-events-bar-location', 'Brandenburg Gate, Berlin');
  await page.click('.tribe-events-c-events-bar__search-button');
  await page.waitForURL(/tribe-bar-geoloc=Brandenburg/);
  await page.waitForSelector('.tribe-events-calendar-list__event-distance');
  expect(await titles(page)).toEqual(['Mitte Concert', 'Potsdam Lecture']);
  expect(await page.locator('.tribe-events-calendar-list__event-distance').allInnerTexts()).toEqual(['· 1.2 mi away', '· 16 mi away']);
  expect(await page.locator('.tribe-events-c-search-summary').innerText()).toContain('the area of Brandenburg Gate, Berlin');
  await shot(page, 'near-place-desktop');
  await context.close();
});

it('“Use my location” searches around the browser’s position', async () => {
  const { context, page } = await newPage({ latitude: 53.55, longitude: 10.0 });
  await page.goto(`${app.url}/events/list/?tribe-bar-date=${day(1)}`);
  const button = page.locator('[data-js="tribe-events-geoloc-here"]');
  expect(await button.isVisible()).toBe(true);
  await button.click();
  await page.waitForURL(/tribe-bar-geoloc-lat=53\.55/);
  await page.waitForSelector('.tribe-events-calendar-list__event-distance');
  expect(await titles(page)).toEqual(['Hamburg Fair']);
  expect(await page.locator('.tribe-events-c-search-summary').innerText()).toContain('the area of your location');
  await context.close();
});
