/**
 * A link checker over what the service prints for 50 events with venues, organizers, categories and
 * tags: every href of their event, venue and organizer pages, the `link`/`url` fields of the REST
 * answers (vendor/events/v1 with a single read's JSON-LD, ec/v1, and cms/v2's search), the
 * JSON-LD on the pages and the URL lines of the iCalendar feed. Every same-origin address must answer
 * (a redirect is followed to its end): none is a 404.
 */
import type { TestApp } from '../../../test/support/app';
import { EVENTS, hrefsOf, jsonLdOf, makeEvent, page, startPagesApp } from './pages.fixtures';

let app: TestApp;
const COUNT = 50;

/**
 * Term archives are requested too: the calendar views' filtered addresses (`/events/category/{slug}/`,
 * `/events/tag/{slug}/`) and the tag archive the REST answers' event `tags` name (`/tag/{slug}/`, which
 * leads to the calendar filtered by the tag).
 */

/** Every string under a key named `link` or `url`, at any depth. */
function linkFields(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) linkFields(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'link' || k === 'url') && typeof v === 'string') out.push(v);
      else linkFields(v, out);
    }
  }
  return out;
}

beforeAll(async () => {
  app = await startPagesApp('America/Chicago');
  const zones = ['America/New_York', 'Asia/Tokyo', 'Europe/Berlin', 'Australia/Sydney', 'America/Los_Angeles'];
  for (let i = 0; i < COUNT; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    await makeEvent(app, {
      title: `Linked Event ${i}`,
      start_date: `2031-0${1 + (i % 9)}-${day} 1${i % 10}:00:00`,
      end_date: `2031-0${1 + (i % 9)}-${day} 1${i % 10}:45:00`,
      timezone: zones[i % zones.length],
      description: `Event ${i}: <a href="${app.url}/event/linked-event-${(i + 1) % COUNT}/">the next one</a>.`,
      cost: i % 3 ? `$${i}` : '',
      categories: [`Category ${i % 4}`],
      tags: [`Tag ${i % 6}`],
      show_map_link: true,
      venue: { venue: `Venue ${i % 7}`, address: `${i} Linked St`, city: 'Chicago', country: 'United States' },
      organizer: [{ organizer: `Organizer ${i % 5}`, email: `org${i % 5}@example.test`, website: 'https://organizer.example/' }],
    });
  }
}, 120_000);
afterAll(() => app?.close());

it('no link the pages, the REST answers, the JSON-LD or the iCalendar feed print is a 404', async () => {
  const found = new Map<string, string>();
  const add = (urls: string[], where: string) => {
    for (const u of urls) if (!found.has(u)) found.set(u, where);
  };
  const v1 = await app.request('GET', `${EVENTS}?per_page=${COUNT}&start_date=2031-01-01&end_date=2032-01-01`);
  expect(v1.body.events).toHaveLength(COUNT);
  add(linkFields(v1.body.events), 'vendor/events/v1 list');
  const single = await app.request('GET', `${EVENTS}/${v1.body.events[0].id}`);
  add(linkFields(single.body), 'vendor/events/v1 single (json_ld)');
  for (const kind of ['venues', 'organizers'])
    add(linkFields((await app.request('GET', `/vendor/events/v1/${kind}?per_page=50`)).body), `vendor/events/v1 ${kind}`);
  const ec = await app.request('GET', `/ec/v1/events?per_page=${COUNT}&starts_after=2031-01-01`);
  expect(ec.status).toBe(200);
  add(linkFields(ec.body), 'ec/v1 events');
  for (const kind of ['venues', 'organizers']) add(linkFields((await app.request('GET', `/ec/v1/${kind}?per_page=50`)).body), `ec/v1 ${kind}`);
  // cms/v2 has no vendor_events route; its search lists the events with their `url`.
  const cms = await app.admin('GET', `/cms/v2/search?search=Linked&per_page=100&subtype=any`);
  expect(cms.status).toBe(200);
  add(linkFields(cms.body), 'cms/v2 search');
  const feed = await page(app, '/events/?ical=1&start_date=2031-01-01&end_date=2032-01-01');
  expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
  const icalUrls = [...feed.text.replace(/\r\n[ \t]/g, '').matchAll(/^URL(?:;[^:]*)?:(.+)$/gm)].map((m) => m[1].trim());
  expect(icalUrls.length).toBeGreaterThanOrEqual(COUNT);
  add(icalUrls, 'iCalendar feed');

  // The pages themselves: every event's, and the venue and organizer pages they link to.
  const pages = [...found.keys()].filter((u) => /\/(event|venue|organizer)\/[^/]+\/$/.test(new URL(u).pathname));
  const seen = new Set<string>();
  for (const url of pages) {
    if (seen.has(url) || !url.startsWith(app.url)) continue;
    seen.add(url);
    const res = await page(app, url);
    expect([url, res.status]).toEqual([url, 200]);
    add(
      hrefsOf(res.text).map((h) => new URL(h, url).toString()),
      `page ${url}`,
    );
    add(
      jsonLdOf(res.text).flatMap((ld) => linkFields(ld)),
      `JSON-LD of ${url}`,
    );
  }
  expect(seen.size).toBeGreaterThanOrEqual(COUNT + 7 + 5);

  const broken: string[] = [];
  let checked = 0;
  for (const [url, where] of found) {
    const u = new URL(url);
    if (u.origin !== app.url) continue;
    let res = await page(app, url);
    for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) res = await page(app, new URL(res.headers.get('location')!, url).toString());
    checked++;
    if (res.status !== 200) broken.push(`${res.status} ${url} (from ${where})`);
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(COUNT * 2);
  // Term archives were among them, and the tag archive the reference's REST answers name leads to the
  // calendar filtered by the tag.
  const paths = [...found.keys()].map((u) => new URL(u).pathname);
  expect(paths.some((p) => p.startsWith('/events/category/'))).toBe(true);
  expect(paths.some((p) => p.startsWith('/events/tag/'))).toBe(true);
  const tagged = await page(app, `${app.url}/tag/tag-0/`);
  expect([tagged.status, tagged.headers.get('location')]).toEqual([302, '/events/tag/tag-0/']);
  expect((await page(app, `${app.url}/events/tag/tag-0/`)).status).toBe(200);
}, 120_000);
