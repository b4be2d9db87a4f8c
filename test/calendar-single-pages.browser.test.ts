/**
 * The single event, venue and organizer pages in a real browser (Debian's Chromium driven by
 * playwright-core): from the month view a click on an event's title lands on its page, a click on its
 * venue on the venue's page, and back returns to the event. Each page is shot at desktop and phone
 * widths (under test-output/calendar-single-pages/), scanned with axe-core (no serious or critical
 * violation), kept under 100 KB of HTML, CSS and JavaScript, makes no request off the site, scrolls no
 * sideways on a phone, and can be walked with the keyboard with a visible focus.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from './support/calendar-browser';
import { startTestApp, type TestApp } from './support/app';
import { freePort } from './support/cluster';
import { ensureDebianPackage } from './support/debian';

// Code run inside the page (page.evaluate) sees the browser's globals; the project compiles without the DOM library.
declare const window: any;
declare const document: any;
declare function getComputedStyle(el: unknown): { outlineStyle: string; outlineWidth: string };

const SHOTS = join(__dirname, '..', 'test-output', 'calendar-single-pages');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const AXE_SOURCE: string = require('axe-core').source;

let app: TestApp;
let browser: Browser;
const problems: string[] = [];
const month = DateTime.utc().startOf('month').plus({ months: 2 });
const day = (d: number) => month.set({ day: d }).toFormat('yyyy-LL-dd');
const urls: Record<string, string> = {};

async function newPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; offSite: string[]; bytes: () => number }> {
  // The pages forbid scripts (CSP script-src none); the test lets its own axe-core in.
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, bypassCSP: true });
  const page = await context.newPage();
  const offSite: string[] = [];
  let total = 0;
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${page.url()})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message} (${page.url()})`));
  page.on('request', (req) => {
    if (!req.url().startsWith(app.url) && !req.url().startsWith('data:')) offSite.push(req.url());
  });
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (['document', 'stylesheet', 'script'].includes(type)) total += (await res.body().catch(() => Buffer.alloc(0))).length;
  });
  return { context, page, offSite, bytes: () => total };
}

/** axe-core's serious and critical violations on the page, as `rule: target` lines. */
async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return (result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

beforeAll(() => void ensureDebianPackage(CHROMIUM, 'chromium', 'the single page browser tests (Chromium driven by playwright-core)'), 15 * 60_000);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  app = await startTestApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, SITE_TIMEZONE: 'UTC', SITE_NAME: 'Riverside Arts Centre' });
  browser = await launchChromium();
  const make = async (body: Record<string, unknown>) => {
    const res = await app.admin('POST', '/vendor/events/v1/events', { body });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const jazz = await make({
    title: 'Jazz Night at the Blue Hall',
    start_date: `${day(9)} 19:30:00`,
    end_date: `${day(9)} 22:00:00`,
    timezone: 'America/New_York',
    cost: '$10',
    description: '<p>An evening of <b>live jazz</b> with the Blue Hall Quartet, and a long description that wraps across lines on a phone.</p>',
    categories: ['Music'],
    tags: ['Jazz'],
    show_map_link: true,
    venue: { venue: 'Blue Hall', address: '1 River Street', city: 'Springfield', zip: '12345', country: 'United States', phone: '+1 555 0100' },
    organizer: [{ organizer: 'Springfield Music Society', email: 'hello@music.example', phone: '+1 555 0199', website: 'https://music.example/' }],
  });
  await make({ title: 'Morning Yoga', start_date: `${day(8)} 08:00:00`, end_date: `${day(8)} 09:00:00`, venue: jazz.venue.id });
  await make({ title: 'Film Club', start_date: `${day(12)} 18:30:00`, end_date: `${day(12)} 21:00:00`, organizer: [jazz.organizer[0].id] });
  urls.event = jazz.url;
  urls.venue = jazz.venue.url;
  urls.organizer = jazz.organizer[0].url;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

afterEach(() => {
  expect(problems.splice(0)).toEqual([]);
});

it('from the month view to an event, to its venue, and back', async () => {
  const { context, page } = await newPage(DESKTOP);
  await page.goto(`${app.url}/events/month/${month.toFormat('yyyy-LL')}/`);
  await page.locator('.tribe-events-calendar-month__calendar-event-title-link', { hasText: 'Jazz Night at the Blue Hall' }).first().click();
  await page.waitForURL(urls.event);
  expect(await page.locator('h1').innerText()).toBe('Jazz Night at the Blue Hall');
  expect(await page.locator('.calendar-single__when').innerText()).toContain('7:30 pm');
  expect(await page.locator('.calendar-single__when').innerText()).toContain('America/New_York');
  await page.locator('.calendar-single__venue-name a').click();
  await page.waitForURL(urls.venue);
  expect(await page.locator('h1').innerText()).toContain('Blue Hall');
  expect(await page.locator('.calendar-single__event-link').allInnerTexts()).toEqual(['Morning Yoga', 'Jazz Night at the Blue Hall']);
  await page.goBack();
  await page.waitForURL(urls.event);
  expect(await page.locator('h1').innerText()).toBe('Jazz Night at the Blue Hall');
  await context.close();
});

describe.each(['event', 'venue', 'organizer'])('the %s page', (kind) => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('at %s width: shot, no serious axe violation, small, on the site only', async (label, viewport) => {
    const { context, page, offSite, bytes } = await newPage(viewport);
    const res = await page.goto(urls[kind], { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.screenshot({ path: join(SHOTS, `${kind}-${label}.png`), fullPage: true });
    expect(await axe(page)).toEqual([]);
    expect(offSite).toEqual([]);
    expect(bytes()).toBeGreaterThan(1000);
    expect(bytes()).toBeLessThan(100 * 1024);
    for (const landmark of ['header', 'main', 'nav', 'footer']) expect(await page.locator(landmark).count()).toBeGreaterThan(0);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await context.close();
  });
});

it('the keyboard reaches the skip link first, then every link with a visible outline', async () => {
  const { context, page } = await newPage(DESKTOP);
  await page.goto(urls.event);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement.textContent)).toBe('Skip to the content');
  await page.keyboard.press('Enter');
  const reached: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { text: (el.textContent as string).trim(), outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    expect(focus.outline).toBe('solid 3px');
    reached.push(focus.text);
  }
  expect(reached).toEqual(expect.arrayContaining(['‹ All events', 'Add to Google Calendar', 'Download .ics', 'Add to Outlook']));
  await context.close();
});
