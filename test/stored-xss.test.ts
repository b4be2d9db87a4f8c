/**
 * Stored content is filtered by the writer's capability, as the reference filters it, on both stores:
 * for each role that writes (administrator, editor, author, contributor) and each text field of events,
 * venues and organizers (vendor/events/v1, its inline venues and organizers, and ec/v1), posts and
 * pages with their meta, attachments, users, batch sub-requests, abilities and imports, a markup probe
 * (script, onerror, javascript: and data: links, entity-encoded schemes, svg onload) is stored
 * - as sent by a writer with unfiltered_html (administrators, editors),
 * - through the title, content or plain-text filter for any other writer and for imported text,
 * URL fields are stored as esc_url_raw leaves them for every writer, and script URLs are refused or
 * stored empty. No answer about a record of a writer without unfiltered_html carries runnable markup.
 */
import { EVENT_TYPE } from '#libs/calendar/meta';
import { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { siteFrom } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import { ImportRecords } from '../services/aggregator/storage/records';
import { startTestApp, type TestApp, appStores } from './support/app';
import { openAppStore } from './support/authz';
import { batchBody, eaEvent } from './support/imports';
import { createRoleUsers, type RoleUsers } from './support/roles';
import { BAD_URLS, filtered, markupProbe, QUOTED_URL, QUOTED_URL_STORED, xssIn } from './support/xss';

const WRITERS = ['administrator', 'editor', 'author', 'contributor'] as const;
type Writer = (typeof WRITERS)[number];
const RAW = new Set<string>(['administrator', 'editor']);
const DAY = { start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 12:00:00' };

describe.each(appStores('stored_xss'))('stored content filtered by capability (%s)', (_name, env) => {
  let app: TestApp;
  let users: RoleUsers;
  let store: Store;
  let posts: PostsRepository;
  let seq = 0;

  beforeAll(async () => {
    app = await startTestApp(env);
    users = await createRoleUsers(app, 'xs');
    store = await openAppStore(app);
    posts = new PostsRepository(store);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await app?.close();
  });

  const probe = (who: string) => markupProbe(`xss_${who}_${++seq}`);
  /** The stored form of `sent` for a writer: as sent with unfiltered_html, else through the field's filter. */
  function expected(who: string, sent: string, kind: 'title' | 'html' | 'text'): string {
    if (RAW.has(who)) return sent;
    const marker = /xss_[a-z]+_\d+/.exec(sent)![0];
    return filtered(marker)[kind];
  }
  const stored = async (id: number): Promise<PostDoc> => (await posts.byId(id))!;
  /** No runnable markup in what an administrator reads of a record of `who` (the answer a guest gets once it is published). */
  async function answersClean(who: Writer, ...paths: string[]): Promise<void> {
    for (const path of paths) {
      const res = await app.admin('GET', path);
      expect(res.status).toBe(200);
      const found = xssIn(res.body);
      if (RAW.has(who)) expect(found.length).toBeGreaterThan(0);
      else expect([path, found]).toEqual([path, []]);
    }
  }

  it.each(WRITERS)('vendor/events/v1: an event, its inline venue and organizer, written by an %s', async (who) => {
    const p = probe(who);
    const res = await users.as(who, 'POST', '/vendor/events/v1/events', {
      body: {
        ...DAY,
        title: p,
        description: p,
        excerpt: p,
        cost: p,
        website: QUOTED_URL,
        status: 'publish',
        venue: { venue: p, description: p, address: p, city: p, country: p, province: p, state: p, zip: p, phone: p, website: QUOTED_URL },
        organizer: [{ organizer: p, description: p, phone: p, website: QUOTED_URL }],
      },
    });
    expect(res.status).toBe(201);
    const event = await stored(res.body.id);
    expect([event.title, event.content, event.excerpt]).toEqual([expected(who, p, 'title'), expected(who, p, 'html'), expected(who, p, 'html')]);
    expect([event.meta?._EventCost, event.meta?._EventURL]).toEqual([expected(who, p, 'text'), QUOTED_URL_STORED]);
    const venue = await stored(res.body.venue.id);
    expect([venue.title, venue.content]).toEqual([expected(who, p, 'title'), expected(who, p, 'html')]);
    for (const key of ['_VenueAddress', '_VenueCity', '_VenueCountry', '_VenueProvince', '_VenueState', '_VenueZip', '_VenuePhone'])
      expect([key, venue.meta?.[key]]).toEqual([key, expected(who, p, 'text')]);
    expect(venue.meta?._VenueURL).toBe(QUOTED_URL_STORED);
    const organizer = await stored(res.body.organizer[0].id);
    expect([organizer.title, organizer.content, organizer.meta?._OrganizerPhone, organizer.meta?._OrganizerWebsite]).toEqual([
      expected(who, p, 'title'),
      expected(who, p, 'html'),
      expected(who, p, 'text'),
      QUOTED_URL_STORED,
    ]);
    await answersClean(who, `/vendor/events/v1/events/${event.id}`, `/ec/v1/events/${event.id}`, `/vendor/events/v1/venues/${venue.id}`);

    // An update goes through the same filters.
    const q = probe(who);
    const upd = await users.as(who, 'POST', `/vendor/events/v1/venues/${venue.id}`, { body: { venue: q, address: q } });
    expect(upd.status).toBe(200);
    expect([(await stored(venue.id)).title, (await stored(venue.id)).meta?._VenueAddress]).toEqual([expected(who, q, 'title'), expected(who, q, 'text')]);
  });

  it.each(WRITERS)('ec/v1: a venue, an organizer and an event written by an %s, then updated', async (who) => {
    const p = probe(who);
    const venue = await users.as(who, 'POST', '/ec/v1/venues', {
      body: {
        title: p,
        content: p,
        excerpt: p,
        address: p,
        country: p,
        city: p,
        state_province: p,
        state: p,
        province: p,
        zip: p,
        phone: p,
        website: QUOTED_URL,
      },
    });
    const organizer = await users.as(who, 'POST', '/ec/v1/organizers', { body: { title: p, content: p, excerpt: p, phone: p, website: QUOTED_URL } });
    expect([venue.status, organizer.status]).toEqual([201, 201]);
    const v = await stored(venue.body.id);
    expect([v.title, v.content, v.excerpt, v.meta?._VenueStateProvince, v.meta?._VenueURL]).toEqual([
      expected(who, p, 'title'),
      expected(who, p, 'html'),
      expected(who, p, 'html'),
      expected(who, p, 'text'),
      QUOTED_URL_STORED,
    ]);
    const o = await stored(organizer.body.id);
    expect([o.title, o.excerpt, o.meta?._OrganizerPhone, o.meta?._OrganizerWebsite]).toEqual([
      expected(who, p, 'title'),
      expected(who, p, 'html'),
      expected(who, p, 'text'),
      QUOTED_URL_STORED,
    ]);
    const event = await users.as(who, 'POST', '/ec/v1/events', {
      body: { ...DAY, title: p, content: p, excerpt: p, cost: p, template: p, venues: [v.id], organizers: [o.id] },
    });
    expect(event.status).toBe(201);
    const e = await stored(event.body.id);
    // No template is registered: a named one is stored as the default.
    expect(e.template).toBe('');
    expect([e.title, e.content, e.excerpt, e.meta?._EventCost]).toEqual([
      expected(who, p, 'title'),
      expected(who, p, 'html'),
      expected(who, p, 'html'),
      expected(who, p, 'text'),
    ]);
    await answersClean(who, `/ec/v1/events/${e.id}`, `/ec/v1/venues/${v.id}`, `/ec/v1/organizers/${o.id}`, `/vendor/events/v1/organizers/${o.id}`);

    const q = probe(who);
    const upd = await users.as(who, 'PATCH', `/ec/v1/events/${e.id}`, { body: { title: q, content: q } });
    expect(upd.status).toBe(200);
    const after = await stored(e.id);
    expect([after.title, after.content]).toEqual([expected(who, q, 'title'), expected(who, q, 'html')]);
  });

  it('refuses script URLs as websites in both dialects, and stores nothing', async () => {
    const before = await posts.count({});
    for (const url of BAD_URLS) {
      for (const [path, body] of [
        ['/vendor/events/v1/events', { ...DAY, title: 'Bad site', website: url }],
        ['/vendor/events/v1/venues', { venue: 'Bad site', website: url }],
        ['/vendor/events/v1/organizers', { organizer: 'Bad site', website: url }],
        ['/ec/v1/venues', { title: 'Bad site', website: url }],
        ['/ec/v1/organizers', { title: 'Bad site', website: url }],
      ] as const) {
        const res = await users.as('author', 'POST', path, { body });
        expect([path, url, res.status]).toEqual([path, url, 400]);
      }
    }
    expect(await posts.count({})).toBe(before);
  });

  it.each(WRITERS)('cms/v2 posts (and pages, for those who may) with calendar meta and footnotes, written by an %s', async (who) => {
    const p = probe(who);
    const meta = { _VenueAddress: p, _EventCost: p, _OrganizerWebsite: 'javascript:alert(1)', footnotes: JSON.stringify([{ id: 'n1', content: p }]) };
    const res = await users.as(who, 'POST', '/cms/v2/posts', { body: { title: p, content: p, excerpt: p, meta } });
    expect(res.status).toBe(201);
    const doc = await stored(res.body.id);
    expect([doc.title, doc.content, doc.excerpt]).toEqual([expected(who, p, 'title'), expected(who, p, 'html'), expected(who, p, 'html')]);
    expect([doc.meta?._VenueAddress, doc.meta?._EventCost, doc.meta?._OrganizerWebsite]).toEqual([expected(who, p, 'text'), expected(who, p, 'text'), '']);
    expect(JSON.parse(String(doc.meta?.footnotes))).toEqual([{ id: 'n1', content: expected(who, p, 'html') }]);
    await answersClean(who, `/cms/v2/posts/${doc.id}`, `/cms/v2/posts/${doc.id}?context=edit`);

    const page = await users.as(who, 'POST', '/cms/v2/pages', { body: { title: p, content: p } });
    if (RAW.has(who)) expect([page.status, (await stored(page.body.id)).content]).toEqual([201, p]);
    else expect(page.status).toBe(403);
  });

  it('batch sub-requests and abilities write through the same filters', async () => {
    const p = probe('author');
    const batch = await users.as('author', 'POST', '/batch/v1', {
      body: { requests: [{ method: 'POST', path: '/cms/v2/posts', body: { title: p, content: p } }] },
    });
    expect(batch.status).toBe(207);
    const fromBatch = await stored(batch.body.responses[0].body.id);
    expect([fromBatch.title, fromBatch.content]).toEqual([expected('author', p, 'title'), expected('author', p, 'html')]);

    const run = (name: string, input: Record<string, unknown>) =>
      users.as('author', 'POST', `/cms-abilities/v1/abilities/events-calendar/${name}/run`, { body: { input } });
    const event = await run('create-event', { ...DAY, title: p, description: p, cost: p, website: QUOTED_URL });
    expect(event.status).toBe(200);
    const e = await stored(event.body.id);
    expect([e.title, e.content, e.meta?._EventCost, e.meta?._EventURL]).toEqual([
      expected('author', p, 'title'),
      expected('author', p, 'html'),
      expected('author', p, 'text'),
      QUOTED_URL_STORED,
    ]);
    const venue = await run('create-venue', { venue: p, description: p, address: p });
    expect(venue.status).toBe(200);
    const v = await stored(venue.body.id);
    expect([v.title, v.content, v.meta?._VenueAddress]).toEqual([expected('author', p, 'title'), expected('author', p, 'html'), expected('author', p, 'text')]);
  });

  it.each([...WRITERS, 'subscriber'] as const)('a user profile written by a %s is filtered as wp_update_user filters it', async (who) => {
    const p = probe(who);
    const marker = /xss_[a-z]+_\d+/.exec(p)![0];
    const res = await users.as(who, 'POST', '/cms/v2/users/me', {
      // Names are at most 250 characters each: a probe with a short marker.
      body: {
        name: markupProbe('x'),
        first_name: markupProbe('x'),
        last_name: markupProbe('x'),
        nickname: markupProbe('x'),
        description: p,
        url: 'javascript:alert(1)',
      },
    });
    expect(res.status).toBe(200);
    const doc = await store.collection('users').findOne({ id: users.ids[who] });
    // Names are plain text whoever writes them; the description keeps the inline tag set only.
    expect([doc?.name, doc?.first_name, doc?.last_name, doc?.nickname]).toEqual(['Boldabcd', 'Boldabcd', 'Boldabcd', 'Boldabcd']);
    expect([doc?.description, doc?.url]).toEqual([filtered(marker).title, '']);
    const site = await users.as(who, 'POST', '/cms/v2/users/me', { body: { url: QUOTED_URL } });
    expect([site.status, site.body.url]).toEqual([200, QUOTED_URL_STORED]);
    expect(xssIn((await app.admin('GET', `/cms/v2/users/${users.ids[who]}?context=edit`)).body)).toEqual([]);
  });

  it.each(['administrator', 'editor', 'author'] as const)(
    'an attachment written by an %s; HTML and JavaScript files only with unfiltered_html',
    async (who) => {
      const p = probe(who);
      const upload = (name: string, type: string, query = '') =>
        users.as(who, 'POST', `/cms/v2/media${query}`, {
          raw: 'plain text',
          contentType: type,
          headers: { 'Content-Disposition': `attachment; filename="${name}"` },
        });
      const made = await upload('notes.txt', 'text/plain', `?title=${encodeURIComponent(p)}&caption=${encodeURIComponent(p)}`);
      expect(made.status).toBe(201);
      expect([(await stored(made.body.id)).title, (await stored(made.body.id)).excerpt]).toEqual([expected(who, p, 'title'), expected(who, p, 'html')]);
      const upd = await users.as(who, 'POST', `/cms/v2/media/${made.body.id}`, { body: { title: p, caption: p, description: p, alt_text: p } });
      expect(upd.status).toBe(200);
      const doc = await stored(made.body.id);
      expect([doc.title, doc.excerpt, doc.content, doc.meta?._wp_attachment_image_alt]).toEqual([
        expected(who, p, 'title'),
        expected(who, p, 'html'),
        expected(who, p, 'html'),
        'Boldabcd',
      ]);
      for (const [name, type] of [
        ['page.html', 'text/html'],
        ['page.htm', 'text/html'],
        ['app.js', 'application/javascript'],
      ]) {
        const res = await upload(name, type);
        if (RAW.has(who)) expect([name, res.status]).toEqual([name, 201]);
        else expect([name, res.status, res.body.code]).toEqual([name, 400, 'rest_upload_sideload_error']);
      }
    },
  );

  it("filters imported events as an author's text, whoever owns the import", async () => {
    const adminId = (await app.admin('GET', '/cms/v2/users/me')).body.id;
    const p = probe('import');
    const marker = /xss_[a-z]+_\d+/.exec(p)![0];
    const importId = `xss${Date.now()}${++seq}`;
    const site = siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });
    await new ImportRecords(posts, site).create({ importId, origin: 'ical', author: adminId, batchHash: 'xss-hash' });
    const item = eaEvent(++seq, {
      title: p,
      description: p,
      excerpt: p,
      url: 'javascript:alert(1)',
      image: 'data:image/png;base64,AAAA',
      cost: p,
      categories: [`<img src=x onerror=${marker}()>Music`],
      venue: { venue: p, address: p, city: p, website: 'javascript:alert(1)', description: p },
      organizer: [{ organizer: p, phone: p, email: 'o@example.com', website: QUOTED_URL }],
    });
    const res = await app.request('POST', `/vendor/event-aggregator/v1/import/${importId}/batch`, { body: batchBody([item], { batch_hash: 'xss-hash' }) });
    expect(res.status).toBe(200);
    const f = filtered(marker);
    const [event] = await posts.find({ type: EVENT_TYPE, title: f.title });
    expect([event.title, event.content, event.excerpt, event.meta?._EventCost, event.meta?._EventURL]).toEqual([f.title, f.html, f.html, f.text, undefined]);
    const venue = await stored((event.meta?._EventVenueID as number[])[0]);
    expect([venue.title, venue.content, venue.meta?._VenueAddress, venue.meta?._VenueURL]).toEqual([f.title, f.html, f.text, undefined]);
    const organizer = await stored((event.meta?._EventOrganizerID as number[])[0]);
    expect([organizer.title, organizer.meta?._OrganizerPhone, organizer.meta?._OrganizerWebsite]).toEqual([f.title, f.text, QUOTED_URL_STORED]);
    const [category] = await store.collection('terms').find({ id: { $in: event.tax?.vendor_events_cat ?? [] } });
    expect(category?.name).toBe('Music');
    await answersClean('author', `/vendor/events/v1/events/${event.id}`, `/ec/v1/events/${event.id}`);
  });

  it('filters the text of an imported CSV file, whoever owns the source', async () => {
    const p = probe('csv');
    const marker = /xss_[a-z]+_\d+/.exec(p)![0];
    const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const csv = [
      'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Venue Name,Event Website',
      [cell(p), cell(p), '2031-07-01', '10:00', '2031-07-01', '12:00', cell(p), 'javascript:alert(1)'].join(','),
    ].join('\n');
    const created = await app.admin('POST', '/vendor/event-aggregator/v1/sources', { body: { origin: 'csv', file: csv } });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 20_000;
    let run: { status?: string } | undefined;
    while (!run || run.status === 'pending') {
      run = (await app.admin('GET', `/vendor/event-aggregator/v1/sources/${created.body.id}`)).body.last_run;
      if (Date.now() > deadline) throw new Error('the CSV import did not finish');
      await new Promise((r) => setImmediate(r));
    }
    expect(run.status).toBe('success');
    const f = filtered(marker);
    const [event] = await posts.find({ type: EVENT_TYPE, title: f.title });
    expect([event?.content, event?.meta?._EventURL]).toEqual([f.html, undefined]);
    expect((await stored((event.meta?._EventVenueID as number[])[0])).title).toBe(f.title);
  });
});
