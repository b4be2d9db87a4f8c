/**
 * Scheduled imports in cluster mode: an iCalendar feed served on loopback (an allowed intranet host)
 * is imported on its schedule by two worker processes over real Redis. Each period runs once whatever
 * the number of workers, a re-import of an unchanged feed stores nothing, and an event edited in the
 * feed is updated in place.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCluster, type Cluster } from './support/cluster';

const NS = '/vendor/event-aggregator/v1';
const INTERVAL_S = 2;

let cluster: Cluster;
let feed: http.Server;
let feedUrl = '';
let etag = '"a"';
let title = 'Harbour festival';
const hits: number[] = [];
const year = new Date().getUTCFullYear() + 1;

function body(): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tests//Cluster feed//EN',
    'BEGIN:VEVENT',
    'UID:harbour@tests',
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${year}0601T100000Z`,
    `DTEND:${year}0601T180000Z`,
    `SUMMARY:${title}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

beforeAll(async () => {
  feed = http.createServer((req, res) => {
    hits.push(Date.now());
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { ETag: etag }).end();
    res.writeHead(200, { 'Content-Type': 'text/calendar', ETag: etag }).end(body());
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.ics`;
  cluster = await startCluster({ env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', IMPORT_MIN_INTERVAL_SECONDS: '1' } });
  await cluster.startProcess('worker', 'worker-2');
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await new Promise((resolve) => feed.close(resolve));
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks every 200 ms until `check` answers true; fails after `ms` (a bound for a stuck run, not a timing window). */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${ms} ms`);
    await sleep(200);
  }
}

async function runs(id: number): Promise<any[]> {
  const res = await cluster.admin('GET', `${NS}/sources/${id}/runs?per_page=100`);
  expect(res.status).toBe(200);
  return res.body;
}

async function festivals(): Promise<any[]> {
  const res = await cluster.admin('GET', `/vendor/events/v1/events?start_date=${year}-05-01&end_date=${year}-07-01&per_page=50`);
  return res.body.events ?? [];
}

it('runs each period once across two workers; unchanged feeds store nothing; edits update', async () => {
  const created = await cluster.admin('POST', `${NS}/sources`, { body: { origin: 'ical', source: feedUrl, schedule: 'hourly', interval: INTERVAL_S } });
  expect(created.status).toBe(201);
  const id = created.body.id;
  const started = Date.now();
  const succeeded = async (n: number) => (await runs(id)).filter((r) => r.status === 'success').length >= n;
  await until(() => succeeded(3), INTERVAL_S * 1000 * 15, 'three successful runs');

  const first = await runs(id);
  const elapsed = (Date.now() - started) / 1000;
  // The run at creation plus one per elapsed period, never more.
  expect(first.length).toBeGreaterThanOrEqual(3);
  expect(first.length).toBeLessThanOrEqual(Math.floor(elapsed / INTERVAL_S) + 1);
  expect(hits.length).toBe(first.filter((r) => r.status !== 'pending').length);
  const done = first.filter((r) => r.status === 'success');
  expect(done.length).toBeGreaterThanOrEqual(3);
  // The first run stored the event; the later ones found the feed unchanged.
  const oldest = done[done.length - 1];
  expect(oldest.counts.vendor_events.created).toBe(1);
  for (const r of done.slice(0, -1)) expect(r.message).toMatch(/not changed/);
  expect((await festivals()).map((e) => e.title)).toEqual(['Harbour festival']);

  etag = '"b"';
  title = 'Harbour festival (moved indoors)';
  const before = hits.length;
  const deadline = Date.now() + INTERVAL_S * 1000 * 4;
  while (hits.length === before && Date.now() < deadline) await sleep(200);
  // The run that read the edited feed updates the event and records its counts.
  const updatedRun = async () => (await runs(id)).find((r) => r.status === 'success' && r.counts.vendor_events?.updated);
  await until(async () => Boolean(await updatedRun()), INTERVAL_S * 1000 * 10, 'a run that updated the event');
  const events = await festivals();
  expect(events.map((e) => e.title)).toEqual(['Harbour festival (moved indoors)']);
  const latest = (await runs(id)).find((r) => r.status === 'success' && r.counts.vendor_events);
  expect(latest.counts.vendor_events.updated).toBe(1);

  // Deleting the source ends its schedule.
  expect((await cluster.admin('DELETE', `${NS}/sources/${id}`)).status).toBe(200);
  const after = hits.length;
  await sleep(INTERVAL_S * 1000 * 2 + 500);
  expect(hits.length).toBe(after);
}, 90_000);
