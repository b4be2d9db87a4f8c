/**
 * Right day, right time: every calendar view places an event by its start in its own zone (the
 * reference's default time-zone mode), names the zone when it is not the site's, and reads a window
 * wide enough that an event near a grid's edge in a far zone is not dropped; the iCalendar exports
 * carry each event's own zone. Events in zones either side of UTC, across midnight and on DST change
 * days. The site-wide mode is checked on the cards every view reads.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { siteFrom } from '#libs/rest/site';
import { EVENT_META } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import { EMPTY_RELATED } from '../related';
import { cardsOf } from './cards';

let app: TestApp;

async function event(title: string, start: string, end: string, timezone: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.admin('POST', '/vendor/events/v1/events', { body: { title, start_date: start, end_date: end, timezone, ...extra } });
  if (res.status !== 201) throw new Error(`event ${title}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const page = async (path: string) => {
  const res = await app.request('GET', `${app.url}${path}`);
  expect(res.status).toBe(200);
  return res.text;
};

/** Titles per month cell, by the cell's date. */
function cells(html: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const td of html.split('<td ').slice(1)) {
    const day = /datetime="(\d{4}-\d{2}-\d{2})"/.exec(td)?.[1];
    const titles = [...td.matchAll(/calendar-event-title-link[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]);
    if (day && titles.length) out[day] = titles;
  }
  return out;
}

const titles = (html: string) => [...html.matchAll(/event-title-link[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]);

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'UTC' });
  // 7 pm in New York is midnight UTC: the case the issue names.
  await event('New York Live Stream', '2030-12-15 19:00:00', '2030-12-15 21:00:00', 'America/New_York');
  await event('LA Late Show', '2030-12-15 22:00:00', '2030-12-15 23:30:00', 'America/Los_Angeles');
  await event('Tokyo Breakfast', '2030-12-16 07:00:00', '2030-12-16 08:00:00', 'Asia/Tokyo');
  await event('Auckland Dawn', '2030-12-17 06:00:00', '2030-12-17 07:00:00', 'Pacific/Auckland');
  // Across midnight in Berlin: the 17th and the 18th.
  await event('Berlin Night', '2030-12-17 23:30:00', '2030-12-18 01:00:00', 'Europe/Berlin');
  await event('UTC Lunch', '2030-12-16 12:00:00', '2030-12-16 13:00:00', 'UTC');
  // DST change days: New York springs forward on 9 March 2031, Berlin on 30 March, Auckland falls back on 6 April.
  await event('NY Spring Forward', '2031-03-09 01:30:00', '2031-03-09 03:30:00', 'America/New_York');
  await event('Berlin Spring Forward', '2031-03-30 01:30:00', '2031-03-30 04:00:00', 'Europe/Berlin');
  await event('Auckland Fall Back', '2031-04-06 01:30:00', '2031-04-06 04:00:00', 'Pacific/Auckland');
  // Grid edges of February 2031 (Monday 27 January to Sunday 2 March): UTC instants outside the grid.
  await event('Tokyo Edge', '2031-01-27 05:00:00', '2031-01-27 06:00:00', 'Asia/Tokyo');
  await event('LA Edge', '2031-03-02 20:00:00', '2031-03-02 21:00:00', 'America/Los_Angeles');
});
afterAll(() => app.close());

describe('each event on its own day, in its own zone', () => {
  it('month: every event in the cell of its local start date, labelled with its zone', async () => {
    const html = await page('/events/month/2030-12/');
    expect(cells(html)).toMatchObject({
      '2030-12-15': ['New York Live Stream', 'LA Late Show'],
      '2030-12-16': ['Tokyo Breakfast', 'UTC Lunch'],
      '2030-12-17': ['Berlin Night', 'Auckland Dawn'],
      '2030-12-18': ['Berlin Night'],
    });
    expect(html).toContain(
      '<span class="tribe-event-date-start">7:00 pm</span> - <span class="tribe-event-time">9:00 pm</span> <abbr class="tribe-events-timezone" title="America/New_York">EST</abbr>',
    );
    expect(html).toContain('<abbr class="tribe-events-timezone" title="Asia/Tokyo">JST</abbr>');
    expect(html).toContain('From <span class="tribe-event-date-start">11:30 pm</span> <abbr class="tribe-events-timezone" title="Europe/Berlin">CET</abbr>');
    // The site's own zone needs no label.
    const lunch = html.slice(html.indexOf('UTC Lunch') - 600, html.indexOf('UTC Lunch'));
    expect(lunch).toContain('<span class="tribe-event-date-start">12:00 pm</span> - <span class="tribe-event-time">1:00 pm</span></time>');
  });

  it('month: events at the grid edges whose instants fall outside it are still read', async () => {
    const c = cells(await page('/events/month/2031-02/'));
    expect(c['2031-01-27']).toEqual(['Tokyo Edge']);
    expect(c['2031-03-02']).toEqual(['LA Edge']);
  });

  it('day: the local date decides, and the label says the zone', async () => {
    const d15 = await page('/events/day/2030-12-15/');
    expect(titles(d15)).toEqual(['New York Live Stream', 'LA Late Show']);
    expect(d15).toContain(
      'December 15, 2030 @ 7:00 pm</span> - <span class="tribe-event-time">9:00 pm</span> <abbr class="tribe-events-timezone" title="America/New_York">EST</abbr>',
    );
    expect(titles(await page('/events/day/2030-12-16/'))).toEqual(['Tokyo Breakfast', 'UTC Lunch']);
    expect(titles(await page('/events/day/2030-12-18/'))).toEqual(['Berlin Night']);
    const dst = await page('/events/day/2031-03-09/');
    expect(titles(dst)).toEqual(['NY Spring Forward']);
    // 3:30 am is after the clocks went forward: the zone's abbreviation is that of the start.
    expect(dst).toContain(
      'March 9, 2031 @ 1:30 am</span> - <span class="tribe-event-time">3:30 am</span> <abbr class="tribe-events-timezone" title="America/New_York">EST</abbr>',
    );
    expect(titles(await page('/events/day/2031-03-30/'))).toEqual(['Berlin Spring Forward']);
    expect(titles(await page('/events/day/2031-04-06/'))).toEqual(['Auckland Fall Back']);
    expect(titles(await page('/events/day/2031-04-05/'))).toEqual([]);
  });

  it('list: grouped under each local date, in local start order', async () => {
    const html = await page('/events/list/?tribe-bar-date=2030-12-15');
    expect(titles(html).slice(0, 6)).toEqual(['New York Live Stream', 'LA Late Show', 'Tokyo Breakfast', 'UTC Lunch', 'Auckland Dawn', 'Berlin Night']);
    const tags = [...html.matchAll(/event-date-tag-datetime" datetime="([\d-]+)"/g)].map((m) => m[1]);
    expect(tags.slice(0, 3)).toEqual(['2030-12-15', '2030-12-16', '2030-12-17']);
    // The search-engine data states each start with its own offset.
    expect(html).toContain('"startDate":"2030-12-15T19:00:00-05:00"');
    expect(html).toContain('"startDate":"2030-12-17T06:00:00+13:00"');
  });
});

describe('the iCalendar exports carry each event in its own zone', () => {
  const check = (text: string) => {
    expect(text).toContain('DTSTART;TZID=America/New_York:20301215T190000');
    expect(text).toContain('DTSTART;TZID=America/Los_Angeles:20301215T220000');
    expect(text).toContain('DTSTART;TZID=Asia/Tokyo:20301216T070000');
    expect(text).toContain('DTSTART;TZID=Pacific/Auckland:20301217T060000');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20301217T233000');
    expect(text).toContain('DTEND;TZID=Europe/Berlin:20301218T010000');
    expect(text).toContain('DTSTART;TZID=America/New_York:20310309T013000');
    expect(text).toContain('DTEND;TZID=America/New_York:20310309T033000');
    for (const zone of ['America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Pacific/Auckland', 'Europe/Berlin']) expect(text).toContain(`TZID:${zone}`);
  };
  it('the front-end feed /events/?ical=1', async () => {
    const res = await app.request('GET', `${app.url}/events/?ical=1&start_date=2030-12-01&end_date=2031-04-30`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    check(res.text);
  });
  it('the REST export', async () => {
    const res = await app.request('GET', '/vendor/events/v1/events/ical?start_date=2030-12-01&end_date=2031-04-30');
    expect(res.status).toBe(200);
    check(res.text);
  });
});

describe('the site-wide time-zone mode', () => {
  const site = siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'T', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'Europe/Berlin' });
  const doc = (id: number, zone: string, start: string, end: string, startUtc: string, endUtc: string, allDay = false) =>
    ({
      id,
      type: 'vendor_events',
      status: 'publish',
      title: `Event ${id}`,
      password: '',
      meta: {
        [EVENT_META.start]: start,
        [EVENT_META.end]: end,
        [EVENT_META.startUtc]: startUtc,
        [EVENT_META.endUtc]: endUtc,
        [EVENT_META.timezone]: zone,
        ...(allDay ? { [EVENT_META.allDay]: 'yes' } : {}),
      },
    }) as unknown as PostDoc;
  const docs = [
    doc(1, 'America/New_York', '2030-12-15 19:00:00', '2030-12-15 21:00:00', '2030-12-16 00:00:00', '2030-12-16 02:00:00'),
    doc(2, 'Europe/Berlin', '2030-12-15 10:00:00', '2030-12-15 11:00:00', '2030-12-15 09:00:00', '2030-12-15 10:00:00'),
    doc(3, 'Asia/Tokyo', '2030-12-20 00:00:00', '2030-12-20 23:59:59', '2030-12-19 15:00:00', '2030-12-20 14:59:59', true),
  ];
  const now = new Date('2030-01-01T00:00:00Z');

  it('event mode (the default): own zone and date, with the zone named', () => {
    const [ny, berlin, tokyo] = cardsOf(site, docs, EMPTY_RELATED, now);
    expect([ny.days, ny.start.toFormat('HH:mm'), ny.zone]).toEqual([['2030-12-15'], '19:00', { name: 'America/New_York', abbr: 'EST' }]);
    expect([berlin.days, berlin.zone]).toEqual([['2030-12-15'], undefined]);
    expect([tokyo.days, tokyo.zone, tokyo.shortSchedule]).toEqual([['2030-12-20'], undefined, 'All day']);
  });

  it('site mode: every timed event converted to the site zone, all-day events keep their dates', () => {
    const [ny, berlin, tokyo] = cardsOf(site, docs, EMPTY_RELATED, now, 'site');
    expect([ny.days, ny.start.toFormat('HH:mm'), ny.zone]).toEqual([['2030-12-16'], '01:00', undefined]);
    expect(ny.schedule).toBe('<span class="tribe-event-date-start">December 16 @ 1:00 am</span> - <span class="tribe-event-time">3:00 am</span>');
    expect(berlin.days).toEqual(['2030-12-15']);
    expect(tokyo.days).toEqual(['2030-12-20']);
  });
});
