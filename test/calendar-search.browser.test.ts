/**
 * The calendar page's events bar, subscribe menu and accessibility in a real browser (the set-up is
 * test/support/calendar-browser.ts): subscribing (the feed answers text/calendar), searching a keyword,
 * picking a date and filtering by category in place, and an axe-core scan of every view at desktop and
 * phone widths with no serious or critical violation.
 */
import type { Page } from 'playwright-core';
import axe from 'axe-core';
import { DESKTOP, PHONE, app, calendarBrowser, day, month, newPage, nextMonthTitle, shot, ym } from './support/calendar-browser';

// Code run inside the page (page.evaluate) sees the browser's globals; the project compiles without the DOM library.
declare const window: any;
declare const document: any;

calendarBrowser();

describe('subscribe, search, filters and accessibility', () => {
  /** Serious and critical axe-core violations of the page as it is now. */
  async function axeProblems(page: Page): Promise<string[]> {
    // Evaluated through the driver: the page's own policy allows no inline script.
    await page.evaluate(axe.source);
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: Array<{ target: string[] }> }) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('subscribes: the menu opens without script and its feed answers text/calendar', async () => {
    const { context, page } = await newPage(DESKTOP, false);
    await page.goto(`${app.url}/events/month/${ym}/`);
    expect(await page.locator('link[rel="alternate"][type="text/calendar"]').getAttribute('href')).toBe(`${app.url}/events/?ical=1`);
    await page.locator('summary', { hasText: 'Subscribe to calendar' }).click();
    const feed = await page.locator('a[data-subscribe="feed"]').getAttribute('href');
    expect(await page.locator('a[data-subscribe="google"]').isVisible()).toBe(true);
    const res = await page.request.get(feed!);
    expect(res.headers()['content-type']).toMatch(/^text\/calendar/);
    expect(await res.text()).toContain('BEGIN:VCALENDAR');
    await shot(page, 'subscribe-desktop');
    await context.close();
  });

  it('searches a keyword, picks a date and filters by category, in place', async () => {
    const { context, page } = await newPage(DESKTOP);
    await page.goto(`${app.url}/events/list/`);
    await page.fill('#tribe-events-events-bar-keyword', 'pottery');
    await page.click('.tribe-events-c-events-bar__search-button');
    await page.waitForURL(/tribe-bar-search=pottery/);
    expect(await page.locator('.tribe-events-calendar-list__event-title-link').allInnerTexts()).toEqual(['Pottery Workshop']);
    expect(await page.locator('.tribe-events-c-search-summary').innerText()).toContain('"pottery"');
    await page.fill('#tribe-events-events-bar-keyword', '');
    await page.locator('.tribe-events-c-view-selector a', { hasText: 'Month' }).click();
    await page.waitForSelector('.tribe-events-view--month');
    await page.fill('#tribe-events-events-bar-date', month.plus({ months: 1 }).set({ day: 5 }).toFormat('yyyy-LL-dd'));
    await page.click('.tribe-events-c-events-bar__search-button');
    await page.waitForFunction((t: string) => document.querySelector('.tribe-events-header__title')?.textContent === t, nextMonthTitle);
    await page.goto(`${app.url}/events/category/music/month/${ym}/`);
    const titles = await page.locator('.tribe-events-calendar-month__calendar-event-title-link:visible').allInnerTexts();
    expect(titles.length).toBeGreaterThan(0);
    expect(titles).not.toContain('Pottery Workshop');
    await shot(page, 'category-desktop');
    await context.close();
  });

  it('has no serious or critical axe-core violations on any view, wide or narrow', async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { context, page } = await newPage(viewport);
      for (const path of [`month/${ym}/`, 'list/', `day/${day(3)}/`, `category/music/`, '?tribe-bar-search=%3Cnothing%3E']) {
        await page.goto(`${app.url}/events/${path}`);
        expect([path, name, await axeProblems(page)]).toEqual([path, name, []]);
      }
      await context.close();
    }
  });
});
