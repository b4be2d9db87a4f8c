/**
 * The calendar page's search, filters, subscribe menu and month bars over real HTTP: keywords are
 * literal text (regex metacharacters and query operators match themselves), filters by category, tag,
 * venue and organizer through the reference's addresses, a filter naming nothing is a 404 page, the
 * subscribe links carry the view's filters, and a multi-day event is one bar per week.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;
const ids: Record<string, number> = {};

async function event(title: string, start: string, end: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { title, start_date: start, end_date: end, ...extra } });
  if (res.status !== 201) throw new Error(`event ${title}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const get = (path: string) => app.request('GET', `${app.url}${path}`);
const titles = (html: string) => [...new Set([...html.matchAll(/event-title-link[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]))];

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'UTC' });
  ids.jazz = await event('Jazz (.*) Night', '2031-05-05 20:00:00', '2031-05-05 22:00:00', {
    categories: 'music',
    tags: 'late',
    venue: { venue: 'Blue Hall', city: 'Springfield' },
    organizer: [{ organizer: 'Ann Org' }],
    description: 'Bring your $where friends.',
  });
  ids.fair = await event('Spring Fair', '2031-05-06 10:00:00', '2031-05-08 18:00:00', { categories: 'festival' });
  // Sunday to Tuesday: one bar at the end of one week, another at the start of the next.
  ids.camp = await event('Camp', '2031-05-11 09:00:00', '2031-05-13 17:00:00', { all_day: true });
});
afterAll(() => app.close());

describe('search', () => {
  it('matches keywords as literal text, escaped in the page and the form', async () => {
    for (const [kw, found] of [
      ['(.*)', ['Jazz (.*) Night']],
      ['.*', ['Jazz (.*) Night']],
      ['$where', ['Jazz (.*) Night']],
      ['[a-z]+', []],
      ['{"$gt":""}', []],
    ] as const) {
      const res = await get(`/events/list/?tribe-bar-date=2031-05-01&tribe-bar-search=${encodeURIComponent(kw)}`);
      expect([kw, res.status, titles(res.text)]).toEqual([kw, 200, found]);
    }
    const none = await get(`/events/list/?tribe-bar-search=${encodeURIComponent('<b>"x"</b>')}`);
    expect(none.text).toContain('There were no results found for <strong>&quot;&lt;b&gt;&quot;x&quot;&lt;/b&gt;&quot;</strong>.');
    expect(none.text).toContain('name="tribe-bar-search" value="&lt;b&gt;&quot;x&quot;&lt;/b&gt;"');
    expect(none.text).not.toContain('<b>"x"</b>');
  });

  it('the bar is a GET form with the reference names, keeping the view and its filters', async () => {
    const html = (await get('/events/category/music/month/2031-05/?tribe_venue=' + ids.jazz)).text;
    expect(html).toContain(
      '<form class="tribe-events-c-events-bar__search-form" method="get" action="http://example.test/events/category/music/" data-js="tribe-events-view-form">',
    );
    expect(html).toContain('type="date" id="tribe-events-events-bar-date" name="tribe-bar-date" value="2031-05-01"');
    expect(html).toContain('<input type="hidden" name="eventDisplay" value="month">');
    // A date picked in the form opens that date's month.
    const picked = await get('/events/?eventDisplay=month&tribe-bar-date=2031-05-11');
    expect(picked.text).toContain('<h2 class="tribe-events-header__title">May 2031</h2>');
  });
});

describe('filters', () => {
  it('by category (path and query), tag, venue and organizer, by slug or id', async () => {
    const list = (q: string) => get(`/events/${q}`).then((r) => [r.status, titles(r.text)]);
    expect(await list('category/music/list/?tribe-bar-date=2031-05-01')).toEqual([200, ['Jazz (.*) Night']]);
    expect(await list('category/festival/month/2031-05/')).toEqual([200, ['Spring Fair']]);
    expect(await list('list/?tribe-bar-date=2031-05-01&tribe_eventcategory=festival')).toEqual([200, ['Spring Fair']]);
    expect(await list('tag/late/?tribe-bar-date=2031-05-01')).toEqual([200, ['Jazz (.*) Night']]);
    const jazz = (await app.request('GET', `/vendor/events/v1/events/${ids.jazz}`)).body;
    expect(await list(`list/?tribe-bar-date=2031-05-01&tribe_venue=${jazz.venue.id}`)).toEqual([200, ['Jazz (.*) Night']]);
    expect(await list(`list/?tribe-bar-date=2031-05-01&tribe_venue=blue-hall`)).toEqual([200, ['Jazz (.*) Night']]);
    expect(await list(`list/?tribe-bar-date=2031-05-01&tribe_organizer=${jazz.organizer[0].id}`)).toEqual([200, ['Jazz (.*) Night']]);
    const shown = await get('/events/category/music/list/?tribe-bar-date=2031-05-01');
    expect(shown.text).toContain('Showing results for events in the category <strong>music</strong>.');
  });

  it('a category, tag, venue or organizer that does not exist is a 404 page that says so', async () => {
    for (const path of ['/events/category/nope/', '/events/tag/nope/month/', '/events/?tribe_venue=999999', '/events/list/?tribe_organizer=%24where']) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=UTF-8']);
      expect(res.text).toContain('Nothing was found for events in the');
    }
  });
});

describe('subscribe', () => {
  it('every view has the menu and the head link, with the view filters in the feed', async () => {
    for (const path of ['/events/list/', '/events/month/2031-05/', '/events/day/2031-05-05/', '/events/category/music/']) {
      const html = (await get(path)).text;
      expect(html).toContain('<summary class="tribe-events-c-subscribe-dropdown__button tribe-common-c-btn-border-small">Subscribe to calendar</summary>');
      expect(html).toMatch(/<head>.*<link rel="alternate" type="text\/calendar" title="[^"]*" href="http:\/\/example\.test\/events\/\?ical=1[^"]*">.*<\/head>/);
    }
    const html = (await get('/events/category/music/?tribe-bar-search=jazz')).text;
    const feed = 'http://example.test/events/?ical=1&amp;categories=music&amp;search=jazz';
    const webcal = encodeURIComponent('webcal://example.test/events/?ical=1&categories=music&search=jazz');
    expect(html).toContain(`href="${feed}"`);
    expect(html).toContain(`href="${feed.replace('http:', 'webcal:')}"`);
    expect(html).toContain(`href="https://calendar.google.com/calendar/r?cid=${webcal}"`);
    expect(html).toContain(`href="https://outlook.office.com/calendar/0/addfromweb?url=${webcal}&amp;name=Events%20Calendar"`);
    expect(html).toContain(`href="https://outlook.live.com/calendar/0/addfromweb?url=${webcal}&amp;name=Events%20Calendar"`);
    expect(html).toContain('data-subscribe="export" download>Export .ics file</a>');
    // The feed answers iCalendar with the filtered events.
    const res = await get('/events/?ical=1&categories=music&search=jazz&start_date=2031-05-01&end_date=2031-05-31');
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(res.text).toContain('SUMMARY:Jazz (.*) Night');
    expect(res.text).not.toContain('Spring Fair');
  });
});

describe('month bars', () => {
  it('a multi-day event is one bar per week with copies in the days it crosses, and a tooltip', async () => {
    const html = (await get('/events/month/2031-05/')).text;
    const bar = (id: number, width: number) =>
      new RegExp(
        `calendar-event--multiday calendar-event--bar calendar-event--width-${width} post-${id}"`.replace(
          /calendar-event/g,
          'tribe-events-calendar-month__calendar-event',
        ),
      );
    expect(html).toMatch(bar(ids.fair, 3));
    // Camp: Sunday 11 (a bar of one day ending its week), then Monday 12 to Tuesday 13 (two days).
    expect(html).toMatch(bar(ids.camp, 1));
    expect(html).toMatch(bar(ids.camp, 2));
    expect((html.match(new RegExp(`--continued post-${ids.fair}"`, 'g')) ?? []).length).toBe(2);
    expect((html.match(new RegExp(`--continued post-${ids.camp}"`, 'g')) ?? []).length).toBe(1);
    expect(html).toContain('title="May 5, 2031 @ 8:00 pm - 10:00 pm · Blue Hall · Bring your $where friends.">Jazz (.*) Night</a>');
  });
});
