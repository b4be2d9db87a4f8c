/**
 * vendor/views/v2/html (reference: tests/views_rest/V2): nonces from the event archive, the permission,
 * and the list, month and day views rendered from the calendar's records.
 */
import { startTestApp, type ApiResponse, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
const ids: Record<string, number> = {};

async function event(title: string, start: string, end: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { title, start_date: start, end_date: end, ...extra } });
  if (res.status !== 201) throw new Error(`event ${title}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** The view nonce the event archive hands this caller. */
async function nonceFor(who: Parameters<RoleUsers['as']>[0]): Promise<string> {
  const res = await users.as(who, 'GET', '/vendor/events/v1/events');
  const nonce = res.headers.get('x-view-nonce');
  if (!nonce) throw new Error('no X-View-Nonce');
  return nonce;
}

function view(query: Record<string, string>, who: Parameters<RoleUsers['as']>[0] = 'guest'): Promise<ApiResponse> {
  return users.as(who, 'GET', `/vendor/views/v2/html?${new URLSearchParams(query).toString()}`);
}

/** The titles of the events a rendered view lists, in order. */
const titles = (html: string) =>
  [...html.matchAll(/class="tribe-events-calendar-(?:list|month|day)__(?:calendar-)?event-title-link[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]);

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'UTC' });
  users = await createRoleUsers(app, 'vw');
  ids.gig = await event('Jazz Night', '2031-01-15 20:00:00', '2031-01-15 22:00:00', {
    description: 'An evening of jazz with <b>friends</b>.',
    cost: '$10',
    venue: { venue: 'Blue Hall', address: '1 Main St', city: 'Springfield', country: 'United States' },
  });
  ids.xss = await event('<script>alert(1)</script> Tom & "Jerry"', '2031-01-15 09:00:00', '2031-01-15 10:00:00');
  ids.multi = await event('Festival', '2031-01-30 10:00:00', '2031-02-02 18:00:00');
  ids.hidden = await event('Hidden', '2031-01-16 10:00:00', '2031-01-16 11:00:00', { hide_from_listings: true });
  ids.draft = await event('Draft', '2031-01-16 10:00:00', '2031-01-16 11:00:00', { status: 'draft' });
  ids.locked = await event('Locked Gala', '2031-01-16 18:00:00', '2031-01-16 20:00:00', { description: 'members only' });
  await app.admin('POST', `/vendor/events/v1/events/${ids.locked}`, { body: { password: 'pw' } });
  ids.past = await event('Old Fair', '2020-05-01 10:00:00', '2020-05-01 12:00:00');
  for (let i = 1; i <= 4; i++) await event(`Busy ${i}`, `2031-03-10 0${i}:00:00`, `2031-03-10 0${i}:30:00`);
});
afterAll(() => app.close());

describe('view nonces', () => {
  it('a GET without a nonce is 401 for a guest and 403 for a user; u is required first', async () => {
    const guest = await view({ u: 'http://example.test/events/' });
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    const user = await view({ u: 'http://example.test/events/' }, 'editor');
    expect(user.status).toBe(403);
    const missing = await view({ tvn1: 'x' });
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['u']]);
  });

  it('the event archive hands out the caller’s nonce, which works for that caller only', async () => {
    const guestNonce = await nonceFor('guest');
    const editorNonce = await nonceFor('editor');
    expect(guestNonce).toMatch(/^[0-9a-f]{16}$/);
    expect(editorNonce).not.toBe(guestNonce);
    expect((await view({ u: '/events/', tvn1: guestNonce })).status).toBe(200);
    expect((await view({ u: '/events/', tvn1: editorNonce }, 'editor')).status).toBe(200);
    expect((await view({ u: '/events/', tvn1: editorNonce })).status).toBe(401);
    expect((await view({ u: '/events/', tvn1: guestNonce }, 'author')).status).toBe(403);
    expect((await view({ u: '/events/', tvn1: 'not-a-nonce', tvn2: guestNonce })).status).toBe(200);
  });

  it('only administrators get the wizard nonce from the archive, and CORS clients may read both headers', async () => {
    const admin = await users.as('administrator', 'GET', '/vendor/events/v1/events');
    expect(admin.headers.get('x-tec-wizard-nonce')).toMatch(/^[0-9a-f]{16}$/);
    const editor = await users.as('editor', 'GET', '/vendor/events/v1/events');
    expect(editor.headers.get('x-tec-wizard-nonce')).toBeNull();
    expect(editor.headers.get('access-control-expose-headers')).toContain('X-View-Nonce');
  });

  it('a rendered view carries the nonces for the next request: the caller’s and, for a user, a visitor’s', async () => {
    const res = await view({ u: '/events/', tvn1: await nonceFor('editor') }, 'editor');
    const data = JSON.parse(/<script data-js="tribe-events-view-nonce-data" type="application\/json">(.*?)<\/script>/.exec(res.text)![1]);
    expect((await view({ u: '/events/', tvn1: data.tvn1 }, 'editor')).status).toBe(200);
    expect((await view({ u: '/events/', tvn2: data.tvn2 })).status).toBe(200);
  });
});

describe('the list view', () => {
  let nonce: string;
  beforeAll(async () => {
    nonce = await nonceFor('guest');
  });

  it('answers the rendered HTML itself with upcoming published listed events in start order, escaped', async () => {
    const res = await view({ u: 'http://example.test/events/list/', tvn1: nonce });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const html: string = res.text;
    expect(html.startsWith('<div class="tribe-common tribe-events tribe-events-view tribe-events-view--list"')).toBe(true);
    // Markup in a title is dropped (a script with its content), the rest texturized and escaped.
    expect(titles(html)).toEqual(['Tom &#038; &#8220;Jerry&#8221;', 'Jazz Night', 'Festival', 'Busy 1', 'Busy 2', 'Busy 3', 'Busy 4']);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('Hidden');
    expect(html).not.toContain('Draft');
    // A password-protected event keeps its details for its readers: the views leave it out.
    expect(html).not.toContain('Locked Gala');
    expect(html).not.toContain('Old Fair');
    expect(html).toContain(
      '<time class="tribe-events-calendar-list__month-separator-text tribe-common-h7 tribe-common-h6--min-medium tribe-common-h--alt" datetime="2031-01">January 2031</time>',
    );
    expect(html).toContain('<span class="tribe-event-date-start">January 15, 2031 @ 8:00 pm</span> - <span class="tribe-event-time">10:00 pm</span>');
    expect(html).toContain(
      '<span class="tribe-events-calendar-list__event-venue-title tribe-common-b2--bold">Blue Hall</span> <span class="tribe-events-calendar-list__event-venue-address">1 Main St, Springfield, United States</span>',
    );
    expect(html).toContain('<p>An evening of jazz with friends.</p>');
    expect(html).toContain('<span class="tribe-events-c-small-cta__price">$10</span>');
    expect(html).toContain(`href="http://example.test/event/jazz-night/"`);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]);
    // What search engines read of an event, and nothing more.
    expect(ld[1]).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Jazz Night',
      startDate: '2031-01-15T20:00:00Z',
      endDate: '2031-01-15T22:00:00Z',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      url: 'http://example.test/event/jazz-night/',
      location: {
        '@type': 'Place',
        name: 'Blue Hall',
        address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'Springfield', addressCountry: 'United States' },
      },
      description: 'An evening of jazz with friends.',
      offers: { '@type': 'Offer', price: '10', url: 'http://example.test/event/jazz-night/' },
    });
    expect(ld[0].name).toBe('Tom & "Jerry"');
  });

  it('pages by twelve, with links to the next page and back to past events', async () => {
    for (let i = 0; i < 6; i++) await event(`Later ${i}`, `2032-0${i + 1}-01 10:00:00`, `2032-0${i + 1}-01 11:00:00`);
    const first = await view({ u: '/events/list/', tvn1: nonce });
    expect(titles(first.text)).toHaveLength(12);
    expect(first.text).toContain('<a href="http://example.test/events/list/page/2/" rel="next"');
    expect(first.text).toContain('<a href="http://example.test/events/list/?eventDisplay=past" rel="prev"');
    const second = await view({ u: 'http://example.test/events/list/page/2/', tvn1: nonce });
    expect(titles(second.text)).toEqual(['Later 5']);
    expect(second.text).toContain('<a href="http://example.test/events/list/" rel="prev"');
    expect(second.text).toContain('<button class="tribe-events-c-nav__next tribe-common-b2" disabled>Next Events</button>');
  });

  it('honours eventDisplay=past, tribe-bar-search and tribe-bar-date from the URL, and view_data over it', async () => {
    const past = await view({ u: '/events/list/?eventDisplay=past', tvn1: nonce });
    expect(titles(past.text)).toEqual(['Old Fair']);
    expect(past.text).toContain('<h2 class="tribe-events-header__title">Past Events</h2>');
    const search = await view({ u: '/events/list/?tribe-bar-search=jazz', tvn1: nonce });
    expect(titles(search.text)).toEqual(['Jazz Night']);
    const nothing = await view({ u: '/events/list/?tribe-bar-search=<nope>', tvn1: nonce });
    expect(nothing.text).toContain('There were no results found for <strong>&quot;&lt;nope&gt;&quot;</strong>.');
    const from = await view({ u: '/events/list/?tribe-bar-date=2031-02-01', tvn1: nonce });
    expect(titles(from.text).slice(0, 2)).toEqual(['Festival', 'Busy 1']);
    const overridden = await users.as('guest', 'POST', '/vendor/views/v2/html', {
      body: { u: '/events/list/?tribe-bar-search=jazz', view_data: { 'tribe-bar-search': 'festival' }, tvn1: nonce },
    });
    expect(titles(overridden.text)).toEqual(['Festival']);
  });

  it('validates the declared types', async () => {
    const bad = await view({ u: '/events/', tvn1: nonce, view_data: 'nope' });
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
  });
});

describe('the month and day views', () => {
  let nonce: string;
  beforeAll(async () => {
    nonce = await nonceFor('guest');
  });

  it('draws the month from Monday to Sunday with each event on every day it spans', async () => {
    const res = await view({ u: 'http://example.test/events/month/2031-01/', tvn1: nonce });
    const html: string = res.text;
    expect(html).toContain('<h2 class="tribe-events-header__title">January 2031</h2>');
    // January 2031 starts on a Wednesday and ends on a Friday: the grid runs from Monday 30 December 2030 to Sunday 2 February.
    expect(html).toContain('<time class="tribe-events-calendar-month__day-date-daynum" datetime="2030-12-30">30</time>');
    expect(html).not.toContain('datetime="2030-12-29"');
    expect(html).toContain('<time class="tribe-events-calendar-month__day-date-daynum" datetime="2031-02-02">2</time>');
    expect(html).not.toContain('datetime="2031-02-03"');
    expect((html.match(/tribe-events-calendar-month__week"/g) ?? []).length).toBe(5);
    // A table: seven weekday column headers, seven cells a week.
    expect((html.match(/<th class="tribe-events-calendar-month__header-column" scope="col"/g) ?? []).length).toBe(7);
    expect((html.match(/<td /g) ?? []).length).toBe(35);
    expect((html.match(/>Festival</g) ?? []).length).toBe(4);
    expect(html).toContain('<span class="tribe-event-date-start">8:00 pm</span> - <span class="tribe-event-time">10:00 pm</span>');
    expect(html).toContain('<a href="http://example.test/events/month/2030-12/" rel="prev"');
    expect(html).toContain('<a href="http://example.test/events/month/2031-02/" rel="next"');
  });

  it('shows three events a day on wide screens, then links to the day; the rest are printed for the phone agenda', async () => {
    const res = await view({ u: '/events/', view: 'month', tvn1: nonce, 'view_data[tribe-bar-date]': '2031-03' });
    const html: string = res.text;
    expect(titles(html)).toEqual(['Busy 1', 'Busy 2', 'Busy 3', 'Busy 4']);
    // Only the fourth is beyond the cell's rows (hidden on wide screens, listed in the narrow agenda).
    expect((html.match(/calendar-event--overflow/g) ?? []).length).toBe(1);
    expect(html).toMatch(/calendar-event--overflow post-\d+"><div[^]*?>Busy 4</);
    // The JSON-LD describes every event the page prints.
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]);
    expect(ld.map((e: { name: string }) => e.name)).toEqual(['Busy 1', 'Busy 2', 'Busy 3', 'Busy 4']);
    expect(html).toContain(
      '<a href="http://example.test/events/day/2031-03-10/" class="tribe-events-calendar-month__more-events-link tribe-common-h8 tribe-common-h--alt" data-js="tribe-events-view-link">+ 1 More<span class="tribe-common-a11y-visual-hide"> events on March 10</span></a>',
    );
  });

  it('shows one day, by its URL or by view and date', async () => {
    const byUrl = await view({ u: 'http://example.test/events/day/2031-03-10/', tvn1: nonce });
    expect(titles(byUrl.text)).toEqual(['Busy 1', 'Busy 2', 'Busy 3', 'Busy 4']);
    const byView = await view({ u: '/events/', view: 'day', 'view_data[tribe-bar-date]': '2031-02-01', tvn1: nonce });
    expect(titles(byView.text)).toEqual(['Festival']);
    expect(byView.text).toContain('<a href="http://example.test/events/day/2031-01-31/" rel="prev"');
    const empty = await view({ u: '/events/2031-04-04/', tvn1: nonce });
    expect(empty.text).toContain('There are no upcoming events on April 4, 2031.');
  });

  it('reads unknown views as the list and bad dates as today', async () => {
    const res = await view({ u: '/events/', view: 'photo', 'view_data[tribe-bar-date]': 'not a date', tvn1: nonce });
    expect(res.status).toBe(200);
    expect(res.text).toContain('tribe-events-view--list');
  });
});
