/**
 * The single event, venue and organizer pages over HTTP: their content (times in the event's own zone
 * with the zone named, cost, terms, venue and directions, organizers' contact, image, add-to-calendar
 * links, previous/next), their JSON-LD, escaping, and who sees what (drafts, private, scheduled,
 * trashed and password-protected records).
 */
import type { TestApp } from '../../../test/support/app';
import { EVENTS, jsonLdOf, makeEvent, makeImage, page, startPagesApp } from './pages.fixtures';

let app: TestApp;
const ev: Record<string, Record<string, any>> = {};
/** A title whose text is markup: stored with character references, so a reader sees `</script><script>…` as text. */
const XSS = '&lt;/script&gt;&lt;script&gt;window.__x=1&lt;/script&gt; Tom &amp; &quot;Jerry&quot;';
/** Markup a writer sends as a title: tags are no text, so none of it may reach the page as markup. */
const TAGS = '</script><script>window.__y=1</script><img src=x onerror=alert(1)>Tagged';

beforeAll(async () => {
  app = await startPagesApp('UTC');
  const image = await makeImage(app, 'stream');
  ev.ny = await makeEvent(app, {
    title: 'New York Live Stream',
    start_date: '2031-12-15 19:00:00',
    end_date: '2031-12-15 21:00:00',
    timezone: 'America/New_York',
    cost: '$10',
    description: 'Jazz from <b>Harlem</b>.\n\nSecond paragraph.',
    image,
    categories: ['Music'],
    tags: ['Jazz Night'],
    show_map_link: true,
    venue: {
      venue: 'Blue Hall',
      address: '1 Main St',
      city: 'New York',
      stateprovince: 'NY',
      zip: '10001',
      country: 'United States',
      phone: '+1 212 555 0100',
    },
    organizer: [{ organizer: 'Harbour Society', phone: '+1 212 555 0199', email: 'hello@harbour.example', website: 'https://harbour.example/' }],
  });
  ev.tokyo = await makeEvent(app, { title: 'Tokyo Morning', start_date: '2031-12-16 09:00:00', end_date: '2031-12-16 10:30:00', timezone: 'Asia/Tokyo' });
  ev.xss = await makeEvent(app, {
    title: XSS,
    start_date: '2031-12-17 10:00:00',
    end_date: '2031-12-17 11:00:00',
    venue: { venue: XSS },
    organizer: [{ organizer: XSS }],
  });
  ev.tags = await makeEvent(app, { title: TAGS, start_date: '2031-12-18 10:00:00', end_date: '2031-12-18 11:00:00', venue: { venue: TAGS } });
  ev.hidden = await makeEvent(app, {
    title: 'Unlisted Rehearsal',
    start_date: '2031-12-15 20:00:00',
    end_date: '2031-12-15 21:00:00',
    hide_from_listings: true,
  });
  ev.draft = await makeEvent(app, { title: 'Secret Draft Party', status: 'draft' });
  ev.private = await makeEvent(app, { title: 'Private Board Meeting', status: 'private' });
  ev.future = await makeEvent(app, { title: 'Scheduled Announcement', status: 'future', date: '2040-01-01 00:00:00' });
  ev.trash = await makeEvent(app, { title: 'Binned Bazaar' });
  await app.admin('DELETE', `${EVENTS}/${ev.trash.id}`);
  ev.locked = await makeEvent(app, { title: 'Members Only Gala', description: 'the secret menu', cost: '$99', venue: { venue: 'Locked Hall' } });
  await app.admin('POST', `${EVENTS}/${ev.locked.id}`, { body: { password: 'pw' } });
});
afterAll(() => app?.close());

describe('the event page', () => {
  it('answers at the REST record’s url with the event’s content', async () => {
    expect(ev.ny.url).toBe(`${app.url}/event/new-york-live-stream/`);
    const res = await page(app, ev.ny.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).toContain('<h1 class="calendar-single__title">New York Live Stream</h1>');
    expect(html).toContain('<p>Jazz from <b>Harlem</b>.</p>');
    expect(html).toContain('$10');
    expect(html).toMatch(/<a href="[^"]*\/events\/category\/music\/" rel="tag">Music<\/a>/);
    expect(html).toMatch(/<a href="[^"]*\/events\/tag\/jazz-night\/" rel="tag">Jazz Night<\/a>/);
    expect(html).toContain(`href="${app.url}/venue/blue-hall/"`);
    expect(html).toContain('1 Main St, New York, NY, 10001, United States');
    expect(html).toContain('href="https://maps.google.com/maps?f=q&amp;source=s_q&amp;hl=en&amp;geocode=&amp;q=1+Main+St+New+York+NY+10001+United+States"');
    expect(html).toContain(`href="${app.url}/organizer/harbour-society/"`);
    expect(html).toContain('href="tel:+12125550199"');
    expect(html).toContain('href="mailto:hello@harbour.example"');
    expect(html).toContain('href="https://harbour.example/"');
    expect(html).toMatch(/<img src="http:\/\/127\.0\.0\.1:\d+\/cms-content\/uploads\/[^"]+stream[^"]*\.png" alt="New York Live Stream"/);
    expect(html).toContain(`<link rel="alternate" type="text/calendar" title="Riverside Arts Centre » iCal Feed" href="${app.url}/events/?ical=1">`);
    expect(html).toContain(`<link rel="canonical" href="${ev.ny.url}">`);
    // Landmarks.
    for (const tag of ['<header', '<main', '<nav', '<footer']) expect(html).toContain(tag);
  });

  it('prints the time in the event’s own zone and names the zone', async () => {
    const ny = (await page(app, ev.ny.url)).text;
    expect(ny).toContain('Monday, December 15, 2031, 7:00 pm</time> – <time datetime="2031-12-15T21:00:00-05:00">9:00 pm</time>');
    expect(ny).toContain('(EST, America/New_York)');
    const tokyo = (await page(app, ev.tokyo.url)).text;
    expect(tokyo).toContain('<time datetime="2031-12-16T09:00:00+09:00">Tuesday, December 16, 2031, 9:00 am</time>');
    expect(tokyo).toContain('(JST, Asia/Tokyo)');
  });

  it('has add-to-calendar links: Google, the event’s own .ics, Outlook', async () => {
    const html = (await page(app, ev.ny.url)).text;
    const google = /href="(https:\/\/calendar\.google\.com\/calendar\/render\?[^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
    const g = new URL(google).searchParams;
    expect([g.get('action'), g.get('text'), g.get('dates'), g.get('ctz')]).toEqual([
      'TEMPLATE',
      'New York Live Stream',
      '20311216T000000Z/20311216T020000Z',
      'America/New_York',
    ]);
    expect(g.get('location')).toBe('Blue Hall, 1 Main St, New York, NY, 10001, United States');
    expect(g.get('details')).toContain('Jazz from Harlem');
    const outlook = /href="(https:\/\/outlook\.live\.com\/calendar\/0\/deeplink\/compose\?[^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
    const o = new URL(outlook).searchParams;
    expect([o.get('subject'), o.get('startdt'), o.get('enddt'), o.get('allday')]).toEqual([
      'New York Live Stream',
      '2031-12-15T19:00:00-05:00',
      '2031-12-15T21:00:00-05:00',
      'false',
    ]);
    const ics = /href="([^"]+)"[^>]*>Download \.ics</.exec(html)![1].replace(/&amp;/g, '&');
    const file = await page(app, ics);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(file.text).toContain('SUMMARY:New York Live Stream');
    expect(file.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toBe(`${ev.ny.url}ical/`);
    expect((await page(app, `/event/${ev.draft.slug}/ical/`)).status).toBe(404);
    expect((await page(app, `/event/${ev.draft.slug}/ical/`, 'admin')).status).toBe(200);
    const locked = await page(app, `${ev.locked.url}ical/`);
    expect(locked.status).toBe(200);
    expect(locked.text).toContain('SUMMARY:Members Only Gala');
    expect(locked.text).not.toContain('secret menu');
  });

  it('links the previous and next published, listed events by start', async () => {
    const html = (await page(app, ev.ny.url)).text;
    expect(html).toContain(`<a href="${ev.tokyo.url}" rel="next">`);
    expect(html).not.toContain('Unlisted Rehearsal');
    const tokyo = (await page(app, ev.tokyo.url)).text;
    expect(tokyo).toContain(`<a href="${ev.ny.url}" rel="prev">`);
    expect(tokyo).toContain(`<a href="${ev.xss.url}" rel="next">`);
  });

  it('carries the event’s JSON-LD with location, organizer, offers, status and zoned dates', async () => {
    const [ld] = jsonLdOf((await page(app, ev.ny.url)).text) as any[][];
    expect(ld[0]).toMatchObject({
      '@type': 'Event',
      name: 'New York Live Stream',
      startDate: '2031-12-15T19:00:00-05:00',
      endDate: '2031-12-15T21:00:00-05:00',
      eventStatus: 'https://schema.org/EventScheduled',
      url: ev.ny.url,
      location: { '@type': 'Place', name: 'Blue Hall', address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'New York' } },
      organizer: { '@type': 'Organization', name: 'Harbour Society' },
      offers: { '@type': 'Offer', price: '10' },
    });
  });

  it('keeps a title and venue name with </script> inert', async () => {
    for (const e of [ev.xss, ev.tags]) {
      for (const url of [e.url, e.venue.url]) {
        const html = (await page(app, url)).text;
        expect(html).not.toMatch(/<script>window|<img src=x/);
        // Every script element on the page is JSON-LD, and it parses (its `<` are escaped).
        expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="application/ld+json">']);
        expect(jsonLdOf(html)).toHaveLength(1);
      }
    }
    const html = (await page(app, ev.xss.url)).text;
    expect(html).toContain('<h1 class="calendar-single__title">&lt;/script&gt;&lt;script&gt;window.__x=1&lt;/script&gt; Tom &amp; &quot;Jerry&quot;</h1>');
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;window.__x=1&lt;/script&gt; Tom &amp; &quot;Jerry&quot; – Riverside Arts Centre</title>');
    expect((await page(app, ev.tags.url)).text).toContain('<h1 class="calendar-single__title">Tagged</h1>');
  });

  it('stays out of HTML for a missing, malformed or foreign slug, and adds the trailing slash', async () => {
    expect((await page(app, '/event/no-such-event/')).status).toBe(404);
    expect((await page(app, '/event/%E0%A4%A/')).status).toBe(404);
    expect((await page(app, `/event/${ev.ny.venue.slug}/`)).status).toBe(404);
    const bare = await page(app, '/event/new-york-live-stream');
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/event/new-york-live-stream/']);
    expect((await fetch(`${app.url}/event/new-york-live-stream/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('who sees which event page', () => {
  it.each(['draft', 'private', 'future', 'trash'])('a %s event is 404 for guests', async (which) => {
    const e = ev[which];
    const byId = await page(app, `/?post_type=vendor_events&p=${e.id}`);
    expect(byId.status).toBe(404);
    expect(byId.text).not.toContain(e.title.rendered ?? e.title);
    if (e.slug) expect((await page(app, `/event/${e.slug}/`)).status).toBe(404);
  });

  it('the administrator reads a draft and a private event through Basic credentials, never a trashed one', async () => {
    const draft = await page(app, `/?post_type=vendor_events&p=${ev.draft.id}`, 'admin');
    expect(draft.status).toBe(200);
    expect(draft.text).toContain('Secret Draft Party');
    expect(draft.headers.get('cache-control')).toBe('private, no-store');
    expect((await page(app, `/event/${ev.private.slug}/`, 'admin')).status).toBe(200);
    expect((await page(app, `/?post_type=vendor_events&p=${ev.trash.id}`, 'admin')).status).toBe(404);
  });

  it('the id form of a published event redirects to its pretty address', async () => {
    const res = await page(app, `/?post_type=vendor_events&p=${ev.ny.id}`);
    expect([res.status, res.headers.get('location')]).toEqual([301, ev.ny.url]);
  });

  it('a password-protected event shows that it is protected, not its details', async () => {
    const res = await page(app, ev.locked.url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Members Only Gala');
    expect(res.text).toContain('password protected');
    for (const secret of ['the secret menu', '$99', 'Locked Hall', 'ld+json']) expect(res.text).not.toContain(secret);
  });
});

describe('venue and organizer pages', () => {
  it('a venue page has its address, directions, JSON-LD and upcoming published events only', async () => {
    await makeEvent(app, { title: 'Blue Hall Draft', status: 'draft', venue: ev.ny.venue.id });
    const res = await page(app, ev.ny.venue.url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Blue Hall');
    expect(res.text).toContain('1 Main St, New York, NY, 10001, United States');
    expect(res.text).toContain('Get directions');
    expect(res.text).toContain(`<a class="calendar-single__event-link" href="${ev.ny.url}">New York Live Stream</a>`);
    expect(res.text).not.toContain('Blue Hall Draft');
    const [ld] = jsonLdOf(res.text) as any[];
    expect(ld).toMatchObject({ '@type': 'Place', name: 'Blue Hall', address: { '@type': 'PostalAddress', postalCode: '10001' } });
  });

  it('an organizer page has its contact and its events', async () => {
    const res = await page(app, ev.ny.organizer[0].url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="mailto:hello@harbour.example"');
    expect(res.text).toContain(`href="${ev.ny.url}"`);
  });

  it('a draft venue is 404 for guests', async () => {
    const v = await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Draft Venue', status: 'draft' } });
    expect(v.status).toBe(201);
    expect((await page(app, `/?post_type=vendor_venue&p=${v.body.id}`)).status).toBe(404);
    expect((await page(app, `/venue/${v.body.slug}/`)).status).toBe(404);
  });
});
