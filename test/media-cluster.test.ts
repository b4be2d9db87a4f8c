/**
 * The media library in cluster mode: an upload crosses the gateway to the content service process
 * (the file travels in the signed service call), is kept in GridFS on the shared MongoDB, and the
 * gateway process serves it from there.
 */
import sharp from 'sharp';
import { startCluster, type Cluster } from './support/cluster';

let cluster: Cluster;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 250, g: 200, b: 0 } } })
    .png()
    .toBuffer();
  cluster = await startCluster();
}, 180000);

afterAll(async () => {
  await cluster?.stop();
}, 60000);

it('uploads by raw body and by multipart through the gateway and serves the files from GridFS', async () => {
  const rawUpload = await cluster.admin('POST', '/cms/v2/media', {
    raw: png,
    contentType: 'image/png',
    headers: { 'Content-Disposition': 'attachment; filename=yellow.png' },
  });
  expect(rawUpload.status).toBe(201);
  expect(rawUpload.body.media_details).toMatchObject({ width: 640, height: 480, filesize: png.length });
  expect(rawUpload.body.source_url.startsWith(`${cluster.gatewayUrl}/cms-content/uploads/`)).toBe(true);

  const form = new FormData();
  form.append('title', 'Yellow again');
  form.append('file', new Blob([png], { type: 'image/png' }), 'yellow.png');
  const multipart = await cluster.admin('POST', '/cms/v2/media', { raw: form });
  expect(multipart.status).toBe(201);
  expect(multipart.body.title.raw).toBe('Yellow again');
  // The same name in the same month gets a suffix.
  expect(multipart.body.source_url).toMatch(/\/yellow-1\.png$/);

  const file = await fetch(rawUpload.body.source_url);
  expect([file.status, file.headers.get('content-type'), file.headers.get('x-content-type-options')]).toEqual([200, 'image/png', 'nosniff']);
  expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  const part = await fetch(rawUpload.body.source_url, { headers: { Range: 'bytes=8-15' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(8, 16))).toBe(true);
  const thumb = await fetch(rawUpload.body.media_details.sizes.thumbnail.source_url);
  expect(thumb.status).toBe(200);

  const gone = await cluster.admin('DELETE', `/cms/v2/media/${rawUpload.body.id}?force=true`);
  expect(gone.status).toBe(200);
  expect((await fetch(rawUpload.body.source_url)).status).toBe(404);
});
