/**
 * The calendar page's browser suites' common ground (test/calendar-page.browser.test.ts,
 * test/calendar-search.browser.test.ts): Debian's Chromium driven by playwright-core against a test app
 * seeded through the API with a month of events (several in one month, an all-day one, a multi-day one,
 * and a draft, a private, an unlisted and a password-protected one that must not show). A suite calls
 * `calendarBrowser()` once at its top: it installs a missing Chromium, starts the app and the browser,
 * seeds the events, and checks after each test that no page logged an error.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './app';
import { freePort } from './cluster';
import { ensureDebianPackage } from './debian';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, as the calendar's browser suites drive it (no network of its own, no sandbox in containers). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
export const SHOTS = join(__dirname, '..', '..', 'test-output', 'calendar-page');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const HIDDEN = ['Secret Draft Party', 'Members Only Gala', 'Private Board Meeting', 'Unlisted Rehearsal'];

// The seeded month: two months ahead, so its events are upcoming whatever day the test runs.
export const month = DateTime.utc().startOf('month').plus({ months: 2 });
export const ym = month.toFormat('yyyy-LL');
export const day = (d: number) => month.set({ day: d }).toFormat('yyyy-LL-dd');
export const monthTitle = month.setLocale('en-US').toFormat('LLLL yyyy');
export const nextMonthTitle = month.plus({ months: 1 }).setLocale('en-US').toFormat('LLLL yyyy');

export let app: TestApp;
export let browser: Browser;
const problems: string[] = [];

export async function event(title: string, start: string, end: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { title, start_date: start, end_date: end, ...extra } });
  if (res.status !== 201) throw new Error(`event ${title}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function newPage(viewport: { width: number; height: number }, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, javaScriptEnabled, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${page.url()})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message} (${page.url()})`));
  page.on('requestfailed', (req) => {
    // A view request the manager cancelled for a newer one is not a failure.
    if (!/ERR_ABORTED/.test(req.failure()?.errorText ?? '')) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
  });
  return { context, page };
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
export const title = (page: Page) => page.locator('.tribe-events-header__title').innerText();

/** Starts the app and the browser and seeds the events for the suite that calls it; each test must leave no page error. */
export function calendarBrowser(): void {
  // A missing Chromium is installed first where the run may (apt-get as root), which takes minutes.
  beforeAll(() => void ensureDebianPackage(CHROMIUM, 'chromium', 'the calendar page tests (Chromium driven by playwright-core)'), 15 * 60_000);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    // The site URL is the test server's own address, so the page's absolute links work in the browser.
    app = await startTestApp({
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      SITE_TIMEZONE: 'UTC',
      SITE_NAME: 'Riverside Arts Centre',
      SITE_DESCRIPTION: 'Concerts, classes and community events by the river',
    });
    browser = await launchChromium();

    const hall = (
      await app.admin('POST', '/vendor/events/v1/venues', {
        body: { venue: 'Blue Hall', address: '1 River Street', city: 'Springfield', zip: '12345', country: 'United States' },
      })
    ).body.id;
    const park = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Riverside Park', city: 'Springfield' } })).body.id;
    const club = (await app.admin('POST', '/vendor/events/v1/organizers', { body: { organizer: 'Springfield Film Club', website: 'https://films.example' } }))
      .body.id;
    await event('Morning Yoga in the Park', `${day(3)} 08:00:00`, `${day(3)} 09:00:00`, {
      venue: park,
      description: 'A gentle hour of yoga for every level. Bring a mat and water.',
    });
    await event('Lunchtime Lecture: Rivers of the World', `${day(3)} 12:30:00`, `${day(3)} 13:30:00`, { venue: hall, cost: '5' });
    await event('Pottery Workshop', `${day(3)} 15:00:00`, `${day(3)} 17:00:00`, {
      venue: hall,
      cost: '25',
      description: 'Learn to throw a bowl on the wheel with our resident potter.',
    });
    await event('Jazz Night', `${day(3)} 19:30:00`, `${day(3)} 22:00:00`, {
      venue: hall,
      categories: 'music',
      cost: '$10',
      description: '<p>An evening of <b>live jazz</b> with the Blue Hall Quartet.</p>',
    });
    await event('Farmers Market', `${day(10)} 00:00:00`, `${day(10)} 23:59:59`, {
      all_day: true,
      venue: park,
      description: 'Fresh produce, bread and flowers from local farms.',
    });
    await event('Spring Arts Festival', `${day(14)} 10:00:00`, `${day(17)} 18:00:00`, {
      venue: park,
      description: 'Four days of music, theatre and art across the park.',
    });
    await event('Film Club: Metropolis', `${day(21)} 18:30:00`, `${day(21)} 21:00:00`, { venue: hall, organizer: [club], cost: '8' });
    await event('Open Studio Evening', `${day(25)} 17:00:00`, `${day(25)} 20:00:00`, { venue: hall });
    await event(
      'Choir Rehearsal',
      `${month.plus({ months: 1 }).set({ day: 6 }).toFormat('yyyy-LL-dd')} 19:00:00`,
      `${month.plus({ months: 1 }).set({ day: 6 }).toFormat('yyyy-LL-dd')} 21:00:00`,
      { venue: hall },
    );
    // None of these may appear.
    await event('Secret Draft Party', `${day(12)} 19:00:00`, `${day(12)} 22:00:00`, { status: 'draft', description: 'draft body' });
    await event('Private Board Meeting', `${day(12)} 10:00:00`, `${day(12)} 11:00:00`, { status: 'private' });
    await event('Unlisted Rehearsal', `${day(12)} 14:00:00`, `${day(12)} 15:00:00`, { hide_from_listings: true });
    const gala = await event('Members Only Gala', `${day(12)} 18:00:00`, `${day(12)} 23:00:00`, { description: 'The secret menu' });
    const protect = await app.admin('POST', `/vendor/events/v1/events/${gala}`, { body: { password: 'hunter2' } });
    expect(protect.status).toBe(200);
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    const found = problems.splice(0);
    expect(found).toEqual([]);
  });
}
