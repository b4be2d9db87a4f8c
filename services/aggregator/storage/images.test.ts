/**
 * Imported events' `image` URLs are copied into the media library through the outbound guard: the
 * event gets the attachment as its featured image and the batch reports it; a URL imported again
 * reuses it; a refused URL leaves the event without an image and the import goes on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';

let app: TestApp;
let db: AppStore;
let server: http.Server;
let base: string;
const hits: string[] = [];
let n = 0;

beforeAll(async () => {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 5, g: 5, b: 90 } } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.end(png);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
  app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: 'localhost' });
  db = await AppStore.open(app);
});
afterAll(async () => {
  await db?.close();
  await app?.close();
  await new Promise((r) => server.close(r));
});

async function importEvents(events: unknown[]) {
  const id = `img${Date.now()}${++n}`;
  await db.record(id, '2389');
  const res = await app.request('POST', `/vendor/event-aggregator/v1/import/${id}/batch`, { body: batchBody(events) });
  expect(res.status).toBe(200);
  return res.body.activity as Record<string, Record<string, number[]>>;
}

it('copies an event image into the library once, and skips a refused one', async () => {
  const activity = await importEvents([
    eaEvent(undefined, { image: `${base}/poster.png` }),
    eaEvent(undefined, { image: 'http://169.254.169.254/latest/meta-data.png' }),
  ]);
  const [withImage, refused] = activity.vendor_events.created;
  expect(activity.attachment.created).toHaveLength(1);
  const event = await app.request('GET', `/vendor/events/v1/events/${withImage}`);
  expect(event.body.image).toMatchObject({ id: activity.attachment.created[0], width: 300, height: 200 });
  expect(event.body.image.url).toMatch(/\/cms-content\/uploads\/\d{4}\/\d{2}\/poster\.png$/);
  expect((await app.request('GET', `/vendor/events/v1/events/${refused}`)).body.image).toBe(false);

  const again = await importEvents([eaEvent(undefined, { image: `${base}/poster.png` })]);
  expect(again.attachment.created).toEqual([]);
  expect((await app.request('GET', `/vendor/events/v1/events/${again.vendor_events.created[0]}`)).body.image.id).toBe(activity.attachment.created[0]);
  expect(hits.filter((h) => h === '/poster.png')).toHaveLength(1);
});
