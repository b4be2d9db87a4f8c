/**
 * Import sources over HTTP (vendor/event-imports/v1) in the all-in-one process: an iCalendar feed
 * served on loopback (allowed through OUTBOUND_ALLOW_HOSTS, as an intranet host would be) is imported by
 * a worker job, re-imports update instead of duplicating, an unchanged feed (ETag) stores nothing, an
 * edited event updates, events that leave the feed follow the source's policy, uploaded ICS and CSV
 * files import, and only administrators reach the routes. A feed on a loopback address that is not
 * allowed is refused without being requested.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from './support/app';
import { createRoleUsers, type RoleUsers } from './support/roles';

const NS = '/vendor/event-aggregator/v1';

let app: TestApp;
let roles: RoleUsers;
let feed: http.Server;
let feedUrl = '';
let feedBody = '';
let feedEtag = '"v1"';
let feedHits = 0;

function vevent(uid: string, summary: string, start: string, end: string, extra = ''): string {
  return [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;TZID=Europe/Paris:${start}`,
    `DTEND;TZID=Europe/Paris:${end}`,
    `SUMMARY:${summary}`,
    extra,
    'END:VEVENT',
  ]
    .filter(Boolean)
    .join('\r\n');
}

function calendar(...events: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tests//Feed//EN', 'X-WR-CALNAME:Test feed', ...events, 'END:VCALENDAR', ''].join('\r\n');
}

const year = new Date().getUTCFullYear() + 1;
const CONCERT = vevent(
  'concert-1@tests',
  'Concert',
  `${year}0310T200000`,
  `${year}0310T220000`,
  'LOCATION:Salle Pleyel\\, 252 Rue du Faubourg Saint-Honoré\\, Paris',
);
const TALK = vevent('talk-1@tests', 'Talk', `${year}0311T090000`, `${year}0311T100000`, 'CATEGORIES:Science,Talks');

async function waitForRun(sourceId: number): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await app.admin('GET', `${NS}/sources/${sourceId}`);
    const run = res.body.last_run;
    if (run && run.status !== 'pending') return run;
    if (Date.now() > deadline) throw new Error(`run still pending: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runAgain(sourceId: number): Promise<any> {
  const started = await app.admin('POST', `${NS}/sources/${sourceId}/runs`);
  expect(started.status).toBe(202);
  expect(started.body.status).toBe('pending');
  return waitForRun(sourceId);
}

async function eventsTitled(title: string, status = 'publish'): Promise<any[]> {
  const res = await app.admin(
    'GET',
    `/vendor/events/v1/events?search=${encodeURIComponent(title)}&start_date=${year}-01-01&end_date=${year}-12-31&status=${status}&per_page=50`,
  );
  return (res.body.events ?? []).filter((e: any) => e.title === title);
}

beforeAll(async () => {
  feed = http.createServer((req, res) => {
    feedHits++;
    if (req.headers['if-none-match'] === feedEtag) {
      res.writeHead(304, { ETag: feedEtag }).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8', ETag: feedEtag }).end(feedBody);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/calendar.ics`;
  app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  roles = await createRoleUsers(app, 'imp');
});

afterAll(async () => {
  await app.close();
  await new Promise((resolve) => feed.close(resolve));
});

describe('an iCalendar feed by URL', () => {
  let id = 0;

  it('is created by an administrator and imported at once by a worker', async () => {
    feedBody = calendar(CONCERT, TALK);
    const created = await app.admin('POST', `${NS}/sources`, {
      body: { origin: 'ical', source: feedUrl, title: 'City feed', schedule: 'daily', on_removed: 'trash' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(new RegExp(`${NS}/sources/${created.body.id}$`));
    expect(created.body).toMatchObject({
      title: 'City feed',
      origin: 'ical',
      source: feedUrl,
      schedule: 'daily',
      on_removed: 'trash',
      post_status: 'publish',
      has_file: false,
    });
    id = created.body.id;
    const run = await waitForRun(id);
    expect(run).toMatchObject({ status: 'success', percentage_complete: 100, total_events: 2 });
    expect(run.counts.vendor_events).toEqual({ created: 2, updated: 0, skipped: 0, unchanged: 0 });

    const [concert] = await eventsTitled('Concert');
    expect(concert).toBeDefined();
    expect(concert.timezone).toBe('Europe/Paris');
    expect(concert.utc_start_date).toBe(`${year}-03-10 19:00:00`);
    expect(concert.venue.venue).toBe('Salle Pleyel');
    const [talk] = await eventsTitled('Talk');
    expect(talk.categories.map((c: any) => c.name).sort()).toEqual(['Science', 'Talks']);
  });

  it('stores nothing when the feed has not changed (ETag)', async () => {
    const hits = feedHits;
    const run = await runAgain(id);
    expect(run.status).toBe('success');
    expect(run.message).toMatch(/not changed/);
    expect(feedHits).toBe(hits + 1);
    expect(await eventsTitled('Concert')).toHaveLength(1);
  });

  it('reports the events of a feed read again unchanged as unchanged, and writes none of them', async () => {
    const before = await eventsTitled('Concert');
    feedEtag = '"v1-again"';
    const run = await runAgain(id);
    expect(run.status).toBe('success');
    expect(run.counts.vendor_events).toEqual({ created: 0, updated: 0, skipped: 0, unchanged: 2 });
    expect(run.message).toMatch(/0 created, 0 updated, 2 unchanged/);
    const after = await eventsTitled('Concert');
    expect(after).toHaveLength(1);
    expect(after[0].modified).toBe(before[0].modified);
  });

  it('updates an edited event, trashes one that left the feed, duplicates nothing', async () => {
    feedEtag = '"v2"';
    feedBody = calendar(vevent('concert-1@tests', 'Concert', `${year}0310T203000`, `${year}0310T223000`));
    const run = await runAgain(id);
    expect(run.status).toBe('success');
    expect(run.counts.vendor_events.updated).toBe(1);
    expect(run.counts.removed).toBe(1);
    const concerts = await eventsTitled('Concert');
    expect(concerts).toHaveLength(1);
    expect(concerts[0].utc_start_date).toBe(`${year}-03-10 19:30:00`);
    expect(await eventsTitled('Talk')).toHaveLength(0);
    expect(await eventsTitled('Talk', 'trash')).toHaveLength(1);
  });

  it('lists its runs and the sources, and is deleted with its runs (its events stay)', async () => {
    const runs = await app.admin('GET', `${NS}/sources/${id}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.length).toBe(4);
    expect(runs.headers.get('x-wp-total')).toBe('4');
    const second = await app.admin('GET', `${NS}/sources/${id}/runs?per_page=3&page=2`);
    expect(second.body.length).toBe(1);
    expect(second.headers.get('x-wp-totalpages')).toBe('2');
    expect(second.headers.get('link')).toContain('rel="prev"');
    const list = await app.admin('GET', `${NS}/sources`);
    expect(list.body.map((s: any) => s.id)).toContain(id);
    expect(list.headers.get('x-wp-total')).toBeDefined();
    const gone = await app.admin('DELETE', `${NS}/sources/${id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect((await app.admin('GET', `${NS}/sources/${id}`)).status).toBe(404);
    expect(await eventsTitled('Concert')).toHaveLength(1);
  });
});

it('imports an uploaded ICS file and a CSV file', async () => {
  const ics = await app.admin('POST', `${NS}/sources`, {
    body: { origin: 'ics', file: calendar(vevent('file-1@tests', 'Uploaded talk', `${year}0401T100000`, `${year}0401T110000`)), post_status: 'draft' },
  });
  expect(ics.status).toBe(201);
  expect((await waitForRun(ics.body.id)).status).toBe('success');
  expect(await eventsTitled('Uploaded talk', 'draft')).toHaveLength(1);

  const csv = [
    'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Venue Name,Event Category',
    `CSV picnic,Bring food,${year}-05-02,12:00,${year}-05-02,15:00,FALSE,City Park,Outdoors`,
    `CSV fair,,${year}-05-03,,${year}-05-04,,TRUE,,`,
  ].join('\n');
  const fromCsv = await app.admin('POST', `${NS}/sources`, { body: { origin: 'csv', file: csv, timezone: 'America/New_York' } });
  expect(fromCsv.status).toBe(201);
  const run = await waitForRun(fromCsv.body.id);
  expect(run).toMatchObject({ status: 'success', total_events: 2 });
  const [picnic] = await eventsTitled('CSV picnic');
  expect(picnic.timezone).toBe('America/New_York');
  expect(picnic.venue.venue).toBe('City Park');
  const [fair] = await eventsTitled('CSV fair');
  expect(fair.all_day).toBe(true);
});

it('drafts the events that left an uploaded file when the source says so, and keeps the others', async () => {
  const keep = vevent('stay-1@tests', 'Staying fair', `${year}0601T100000`, `${year}0601T110000`, 'CATEGORIES:Fairs');
  const leave = vevent('leave-1@tests', 'Leaving fair', `${year}0602T100000`, `${year}0602T110000`, 'CATEGORIES:Fairs');
  const created = await app.admin('POST', `${NS}/sources`, { body: { origin: 'ics', file: calendar(keep, leave), on_removed: 'draft', title: 'Fairs' } });
  expect((await waitForRun(created.body.id)).status).toBe('success');
  const changed = await app.admin('PATCH', `${NS}/sources/${created.body.id}`, { body: { file: calendar(keep) } });
  expect(changed.status).toBe(200);
  expect(changed.body.title).toBe('Fairs');
  expect(changed.body.has_file).toBe(true);
  const run = await runAgain(created.body.id);
  expect(run.counts.removed).toBe(1);
  expect(await eventsTitled('Staying fair')).toHaveLength(1);
  expect(await eventsTitled('Leaving fair')).toHaveLength(0);
  expect(await eventsTitled('Leaving fair', 'draft')).toHaveLength(1);
  const fairs = (await app.admin('GET', '/vendor/events/v1/categories?search=Fairs&hide_empty=false')).body.categories[0];
  expect(fairs.count).toBe(1);
});

it('refuses a feed on a loopback address that is not allowed, without requesting it', async () => {
  const other = await startTestApp();
  try {
    const hits = feedHits;
    const created = await other.admin('POST', `${NS}/sources`, { body: { origin: 'ical', source: feedUrl } });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 10_000;
    let run;
    for (;;) {
      run = (await other.admin('GET', `${NS}/sources/${created.body.id}`)).body.last_run;
      if (run.status !== 'pending' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run.status).toBe('failed');
    expect(run.errors[0].code).toBe('feed_refused');
    expect(feedHits).toBe(hits);
  } finally {
    await other.close();
  }
});

describe('bad input and permissions', () => {
  it('answers 400 naming the argument, and stores nothing', async () => {
    const before = (await app.admin('GET', `${NS}/sources`)).headers.get('x-wp-total');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ origin: 'ical' }, 'source'],
      [{ origin: 'ics' }, 'file'],
      [{ origin: 'rss', source: feedUrl }, 'origin'],
      [{ origin: 'ical', source: feedUrl, schedule: 'minutely' }, 'schedule'],
      [{ origin: 'ical', source: feedUrl, categories: [987654] }, 'categories'],
      [{ origin: 'ical', source: feedUrl, timezone: 'Mars/Olympus' }, 'timezone'],
      [{ origin: 'ical', source: 'ftp://example.org/feed.ics' }, 'source'],
    ];
    for (const [body, param] of cases) {
      const res = await app.admin('POST', `${NS}/sources`, { body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toContain(param);
    }
    expect((await app.admin('GET', `${NS}/sources`)).headers.get('x-wp-total')).toBe(before);
  });

  it('is for administrators only: 401 for a guest, 403 for an editor', async () => {
    const body = { origin: 'ical', source: feedUrl };
    expect((await roles.as('guest', 'POST', `${NS}/sources`, { body })).status).toBe(401);
    expect((await roles.as('editor', 'POST', `${NS}/sources`, { body })).status).toBe(403);
    expect((await roles.as('editor', 'GET', `${NS}/sources`)).status).toBe(403);
    expect((await roles.as('administrator', 'GET', `${NS}/sources`)).status).toBe(200);
  });

  it('answers 404 for a source that does not exist', async () => {
    const res = await app.admin('POST', `${NS}/sources/99999/runs`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_import_source_invalid_id');
  });
});
