/**
 * The public calendar page (/events/) in a real browser: Debian's Chromium driven by playwright-core.
 * Events are seeded through the API (several in one month, an all-day one, a multi-day one, and a
 * draft, a private and a password-protected one that must not show); the month, list and day views are
 * opened at desktop and phone widths (screenshots under test-output/calendar-page/), the view manager's
 * previous/next, today and view links are followed with and without JavaScript, and no page logs an
 * error to the console.
 */
import { DateTime } from 'luxon';
import { DESKTOP, HIDDEN, PHONE, app, calendarBrowser, day, month, monthTitle, newPage, nextMonthTitle, shot, title, ym } from './support/calendar-browser';

// Code run inside the page (page.evaluate) sees the browser's globals; the project compiles without the DOM library.
declare const window: any;
declare const document: any;
declare function getComputedStyle(el: unknown): { display: string; outlineStyle: string };

calendarBrowser();

describe('the calendar page', () => {
  it('shows the month as a seven-column grid with the month’s public events, and nothing else', async () => {
    const { context, page } = await newPage(DESKTOP);
    const res = await page.goto(`${app.url}/events/month/${ym}/`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('h1').innerText()).toBe('Events');
    expect(await title(page)).toBe(monthTitle);
    expect(await page.title()).toBe(`${monthTitle} – Events – Riverside Arts Centre`);
    expect(await page.locator('main').count()).toBe(1);

    // Seven weekday headers side by side, and each week row as seven cells on one line.
    const headers = page.locator('table.tribe-events-calendar-month thead th');
    expect(await headers.allInnerTexts()).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    const boxes = await Promise.all((await headers.all()).map((h) => h.boundingBox()));
    for (let i = 1; i < 7; i++) {
      expect(Math.abs(boxes[i]!.y - boxes[0]!.y)).toBeLessThan(1);
      expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x + boxes[i - 1]!.width - 1);
    }
    const firstRow = await Promise.all((await page.locator('tbody tr').first().locator('td').all()).map((c) => c.boundingBox()));
    expect(firstRow).toHaveLength(7);
    expect(new Set(firstRow.map((b) => Math.round(b!.y))).size).toBe(1);

    const third = page.locator(`td:has(time[datetime="${day(3)}"])`);
    expect(await third.locator('.tribe-events-calendar-month__calendar-event-title-link:visible').allInnerTexts()).toEqual([
      'Morning Yoga in the Park',
      'Lunchtime Lecture: Rivers of the World',
      'Pottery Workshop',
    ]);
    expect(await third.locator('.tribe-events-calendar-month__more-events-link').innerText()).toContain('+ 1 More');
    // The multi-day festival is on each of its four days; the all-day market says so.
    expect(await page.locator('.tribe-events-calendar-month__calendar-event-title-link', { hasText: 'Spring Arts Festival' }).count()).toBe(4);
    expect(await page.locator(`td:has(time[datetime="${day(10)}"]) .tribe-events-calendar-month__calendar-event-datetime`).innerText()).toBe('All day');

    const html = await page.content();
    for (const hidden of HIDDEN) expect(html).not.toContain(hidden);
    expect(html).not.toContain('The secret menu');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    // Search engines get every event the page prints (Jazz Night, the fourth on the 3rd, is in the phone agenda).
    expect(ld.map((e: { name: string }) => e.name)).toContain('Jazz Night');
    expect(ld.find((e: { name: string }) => e.name === 'Film Club: Metropolis')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Film Club: Metropolis',
      startDate: `${day(21)}T18:30:00Z`,
      endDate: `${day(21)}T21:00:00Z`,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      url: `${app.url}/event/film-club-metropolis/`,
      location: {
        '@type': 'Place',
        name: 'Blue Hall',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 River Street',
          addressLocality: 'Springfield',
          postalCode: '12345',
          addressCountry: 'United States',
        },
      },
      organizer: { '@type': 'Organization', name: 'Springfield Film Club', url: 'https://films.example' },
      offers: { '@type': 'Offer', price: '8', url: `${app.url}/event/film-club-metropolis/` },
    });
    expect(ld.find((e: { name: string }) => e.name === 'Pottery Workshop').description).toBe('Learn to throw a bowl on the wheel with our resident potter.');
    await shot(page, 'month-desktop');

    // Keyboard: the first Tab shows the skip link; focused controls get a visible outline.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.className)).toBe('calendar-skip-link');
    expect((await page.locator('.calendar-skip-link').boundingBox())!.y).toBeGreaterThanOrEqual(0);
    // The site name, the events bar's keyword, date and button, then the arrows.
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.activeElement.textContent)).includes('Next month'); i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.textContent)).toContain('Next month');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle)).toBe('solid');
    await context.close();
  });

  it('moves between months in place with the view manager, updating the address and history', async () => {
    const { context, page } = await newPage(DESKTOP);
    await page.goto(`${app.url}/events/month/${ym}/`);
    await page.evaluate(() => (window.stayed = true));
    const viewRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/vendor/views/v2/html')) viewRequests.push(r.url());
    });

    await page.locator('.tribe-events-c-top-bar__nav-link--next').click();
    await page.waitForFunction((t) => document.querySelector('.tribe-events-header__title')?.textContent === t, nextMonthTitle);
    expect(new URL(page.url()).pathname).toBe(`/events/month/${month.plus({ months: 1 }).toFormat('yyyy-LL')}/`);
    expect(await page.locator('.tribe-events-calendar-month__calendar-event-title-link').allInnerTexts()).toEqual(['Choir Rehearsal']);
    expect(await page.title()).toBe(`${nextMonthTitle} – Events – Riverside Arts Centre`);
    // No page load: the view came from vendor/views/v2/html over GET with the URL and the nonce.
    expect(await page.evaluate(() => window.stayed)).toBe(true);
    expect(viewRequests).toHaveLength(1);
    const asked = new URL(viewRequests[0]);
    expect(asked.pathname).toBe('/index.php/cms-json/vendor/views/v2/html');
    expect(asked.searchParams.get('u')).toBe(`${app.url}/events/month/${month.plus({ months: 1 }).toFormat('yyyy-LL')}/`);
    expect(asked.searchParams.get('tvn1')).toMatch(/^[0-9a-f]{16}$/);
    // Focus stays on the control that was used.
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('tribe-events-c-top-bar__nav-link--next');

    await page.locator('a.tribe-events-c-nav__prev').click();
    await page.waitForFunction((t) => document.querySelector('.tribe-events-header__title')?.textContent === t, monthTitle);
    expect(new URL(page.url()).pathname).toBe(`/events/month/${ym}/`);

    await page.goBack();
    await page.waitForFunction((t) => document.querySelector('.tribe-events-header__title')?.textContent === t, nextMonthTitle);
    expect(new URL(page.url()).pathname).toBe(`/events/month/${month.plus({ months: 1 }).toFormat('yyyy-LL')}/`);
    expect(await page.evaluate(() => window.stayed)).toBe(true);

    // Today brings the current month, with today's cell marked.
    await page.locator('.tribe-events-c-top-bar__today-button').click();
    const now = DateTime.utc();
    await page.waitForFunction((t) => document.querySelector('.tribe-events-header__title')?.textContent === t, now.setLocale('en-US').toFormat('LLLL yyyy'));
    const today = page.locator('td[aria-current="date"]');
    expect(await today.count()).toBe(1);
    expect(await today.locator('time').getAttribute('datetime')).toBe(now.toFormat('yyyy-LL-dd'));
    await shot(page, 'month-today-desktop');
    await context.close();
  });

  it('switches to the list and the day view, each grouped and labelled for people', async () => {
    const { context, page } = await newPage(DESKTOP);
    await page.goto(`${app.url}/events/month/${ym}/`);
    await page.locator('.tribe-events-c-view-selector a', { hasText: 'List' }).click();
    await page.waitForSelector('.tribe-events-view--list');
    expect(new URL(page.url()).pathname).toBe('/events/list/');
    expect(new URL(page.url()).searchParams.get('tribe-bar-date')).toBe(`${ym}-01`);
    expect(await page.locator('.tribe-events-c-view-selector a[aria-current="page"]').innerText()).toBe('List');
    expect(await page.locator('.tribe-events-calendar-list__month-separator').first().innerText()).toBe(monthTitle.toUpperCase());
    // One row per day: the 3rd has its four events under one date tag, with times and venues.
    const third = page.locator('.tribe-events-calendar-list__event-row', { has: page.locator(`time[datetime="${day(3)}"]`) });
    expect(await third.count()).toBe(1);
    expect(await third.locator('.tribe-events-calendar-list__event-title').allInnerTexts()).toEqual([
      'Morning Yoga in the Park',
      'Lunchtime Lecture: Rivers of the World',
      'Pottery Workshop',
      'Jazz Night',
    ]);
    expect(await third.locator('.tribe-events-calendar-list__event').last().locator('.tribe-events-calendar-list__event-datetime').innerText()).toContain(
      '7:30 pm',
    );
    expect(await third.locator('.tribe-events-calendar-list__event-venue-title').last().innerText()).toBe('Blue Hall');
    const listHtml = await page.content();
    for (const hidden of HIDDEN) expect(listHtml).not.toContain(hidden);
    await shot(page, 'list-desktop');

    await page.locator('.tribe-events-c-view-selector a', { hasText: 'Day' }).click();
    await page.waitForSelector('.tribe-events-view--day');
    expect(new URL(page.url()).pathname).toBe(`/events/day/${ym}-01/`);
    await page.locator('.tribe-events-c-top-bar__nav-link--next').click();
    await page.waitForFunction((d) => document.querySelector('.tribe-events-header__title time')?.getAttribute('datetime') === d, day(2));
    await page.locator('.tribe-events-c-top-bar__nav-link--next').click();
    await page.waitForFunction((d) => document.querySelector('.tribe-events-header__title time')?.getAttribute('datetime') === d, day(3));
    expect(new URL(page.url()).pathname).toBe(`/events/day/${day(3)}/`);
    expect(await page.locator('.tribe-events-calendar-day__event-title').allInnerTexts()).toEqual([
      'Morning Yoga in the Park',
      'Lunchtime Lecture: Rivers of the World',
      'Pottery Workshop',
      'Jazz Night',
    ]);
    await shot(page, 'day-desktop');

    // The query form of the reference's front end lands on the same views.
    await page.goto(`${app.url}/events/?eventDisplay=day&tribe-bar-date=${day(12)}`);
    expect(await page.locator('.tribe-events-view--day').count()).toBe(1);
    expect(await page.locator('.tribe-events-c-messages').innerText()).toContain('There are no upcoming events on');
    await page.goto(`${app.url}/events/?eventDisplay=month&tribe-bar-date=${ym}`);
    expect(await title(page)).toBe(monthTitle);
    await context.close();
  });

  it('reads well on a phone: the month as an agenda, the list and the day without sideways scrolling', async () => {
    const { context, page } = await newPage(PHONE);
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.goto(`${app.url}/events/month/${ym}/`);
    await noOverflow();
    // Days without events are left out; days with events stack with their events beside the date.
    const visibleDays = await page
      .locator('td.tribe-events-calendar-month__day')
      .evaluateAll((cells: any[]) => cells.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.querySelector('time').getAttribute('datetime')));
    expect(visibleDays).toEqual([day(3), day(10), day(14), day(15), day(16), day(17), day(21), day(25)]);
    await shot(page, 'month-phone');
    await page.locator('.tribe-events-c-view-selector a', { hasText: 'List' }).click();
    await page.waitForSelector('.tribe-events-view--list');
    await noOverflow();
    await shot(page, 'list-phone');
    await page.goto(`${app.url}/events/day/${day(3)}/`);
    await noOverflow();
    await shot(page, 'day-phone');
    await context.close();
  });

  it('works without JavaScript: every link is a page', async () => {
    const { context, page } = await newPage(DESKTOP, false);
    await page.goto(`${app.url}/events/month/${ym}/`);
    await Promise.all([
      page.waitForURL(`**/events/month/${month.plus({ months: 1 }).toFormat('yyyy-LL')}/`),
      page.locator('.tribe-events-c-top-bar__nav-link--next').click(),
    ]);
    expect(await title(page)).toBe(nextMonthTitle);
    await Promise.all([page.waitForURL('**/events/list/**'), page.locator('.tribe-events-c-view-selector a', { hasText: 'List' }).click()]);
    expect(await page.locator('.tribe-events-view--list').count()).toBe(1);
    await context.close();
  });
});

describe('the page over HTTP', () => {
  it('serves the stylesheet and the view manager with validators and long caching when versioned', async () => {
    const page = await app.request('GET', `${app.url}/events/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const css = /href="(\/cms-content\/calendar\/calendar\.css\?v=[0-9a-f]+)"/.exec(page.text)![1];
    const js = /src="(\/cms-content\/calendar\/view-manager\.js\?v=[0-9a-f]+)"/.exec(page.text)![1];
    const styles = await fetch(app.url + css);
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(styles.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = styles.headers.get('etag')!;
    expect((await fetch(app.url + css, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(app.url + js)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${app.url}/cms-content/calendar/calendar.css`)).headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await fetch(`${app.url}/cms-content/calendar/nope.js`)).status).toBe(404);
    expect((await fetch(`${app.url}/events`, { redirect: 'manual' })).headers.get('location')).toBe('/events/');
    expect((await fetch(`${app.url}/events/`, { method: 'POST' })).status).toBe(405);
  });

  it('shows a signed-in administrator only what a visitor sees', async () => {
    const page = await app.admin('GET', `${app.url}/events/month/${ym}/`);
    expect(page.status).toBe(200);
    for (const hidden of HIDDEN) expect(page.text).not.toContain(hidden);
  });
});
