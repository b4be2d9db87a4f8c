/**
 * cms/v2 media over HTTP: uploads by raw body and multipart with real image processing, the list
 * filters, updates, deletes (files gone), permissions per role, refused uploads, serving the files
 * (types, validators, ranges) and URL sideloads through the outbound guard.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;
let images: { base: string; close: () => Promise<void>; hits: string[] };
let jpeg: Buffer;
let png: Buffer;

/** A JPEG stored sideways: 400x200 pixels with EXIF orientation 6 (shown as 200x400). */
const makeJpeg = () =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
const makePng = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

const raw = (bytes: Buffer, name: string, type: string) => ({
  raw: bytes,
  contentType: type,
  headers: { 'Content-Disposition': `attachment; filename="${name}"` },
});

function form(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  return f;
}

/** Serves test images on localhost (an allowed host) and a redirect to a loopback address. */
async function startImageServer(): Promise<typeof images> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/photo.png' || req.url === '/event.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(png);
    } else if (req.url === '/to-loopback.png') {
      const port = (server.address() as AddressInfo).port;
      res.writeHead(302, { Location: `http://127.0.0.1:${port}/photo.png` });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://localhost:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  jpeg = await makeJpeg();
  png = await makePng();
  images = await startImageServer();
  app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: 'localhost' });
  users = await createRoleUsers(app, 'm');
});
afterAll(async () => {
  await app?.close();
  await images?.close();
});

const sitePath = (url: string) => new URL(url).pathname;

describe('uploads', () => {
  it('takes a JPEG as a raw body: EXIF orientation applied, sizes smaller than the image made', async () => {
    const res = await app.admin('POST', '/cms/v2/media?title=Sideways', raw(jpeg, 'sideways.jpg', 'image/jpeg'));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${app.config.SITE_URL}/index.php/cms-json/cms/v2/media/${res.body.id}`);
    const m = res.body;
    expect(m).toMatchObject({
      type: 'attachment',
      status: 'inherit',
      media_type: 'image',
      mime_type: 'image/jpeg',
      title: { raw: 'Sideways' },
      post: null,
      alt_text: '',
    });
    expect(m.media_details).toMatchObject({ width: 200, height: 400, original_image: 'sideways.jpg', image_meta: { orientation: '6' } });
    expect(m.media_details.file).toMatch(/^\d{4}\/\d{2}\/sideways-rotated\.jpg$/);
    expect(Object.keys(m.media_details.sizes).sort()).toEqual(['full', 'medium', 'thumbnail']);
    expect(m.media_details.sizes.thumbnail).toMatchObject({ width: 150, height: 150, mime_type: 'image/jpeg', file: 'sideways-rotated-150x150.jpg' });
    expect(m.media_details.sizes.medium).toMatchObject({ width: 150, height: 300 });
    expect(m.media_details.sizes.full).toMatchObject({ width: 200, height: 400, source_url: m.source_url });
    expect(m.source_url).toMatch(/\/cms-content\/uploads\/\d{4}\/\d{2}\/sideways-rotated\.jpg$/);
    expect(m.missing_image_sizes).toEqual([]);
    expect(m.exif_orientation).toBe(6);
    expect(m.filename).toBe('sideways.jpg');
    // The stored thumbnail really is 150x150.
    const thumb = await fetch(app.url + sitePath(m.media_details.sizes.thumbnail.source_url));
    const dims = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([dims.width, dims.height]).toEqual([150, 150]);
  });

  it("reads the camera's EXIF tags into image_meta as the reference does; a short description is the title and the caption", async () => {
    const shot = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .jpeg()
      .withExif({
        IFD0: { Model: 'Test Cam', Artist: 'Ann Example', Copyright: '(c) Ann', ImageDescription: 'Night street' },
        IFD2: { DateTimeDigitized: '2024:05:06 07:08:09', FNumber: '28/10', ISOSpeedRatings: '200', ExposureTime: '1/250', FocalLength: '35/1' },
      })
      .toBuffer();
    const res = await app.admin('POST', '/cms/v2/media', { raw: form({}, { bytes: shot, name: 'dsc0001.jpg', type: 'image/jpeg' }) });
    expect(res.status).toBe(201);
    expect(res.body.title.raw).toBe('Night street');
    expect(res.body.media_details.image_meta).toEqual({
      aperture: '2.8',
      credit: 'Ann Example',
      camera: 'Test Cam',
      caption: 'Night street',
      created_timestamp: String(Date.UTC(2024, 4, 6, 7, 8, 9) / 1000),
      copyright: '(c) Ann',
      focal_length: '35',
      iso: '200',
      shutter_speed: '0.004',
      title: 'Night street',
      orientation: '1',
      keywords: [],
    });
  });

  it('takes a PNG by multipart with its fields; the title defaults to the file name', async () => {
    const res = await app.admin('POST', '/cms/v2/media', {
      raw: form({ alt_text: 'A blue square', caption: 'Blue', description: 'A <b>blue</b> one' }, { bytes: png, name: 'Blue Square.png', type: 'image/png' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: { raw: 'Blue Square' },
      alt_text: 'A blue square',
      caption: { raw: 'Blue' },
      description: { raw: 'A <b>blue</b> one' },
      mime_type: 'image/png',
    });
    expect(res.body.media_details).toMatchObject({ width: 1600, height: 1200, filesize: png.length });
    const sizes = res.body.media_details.sizes;
    expect(Object.fromEntries(Object.entries(sizes).map(([k, v]: [string, any]) => [k, `${v.width}x${v.height}`]))).toEqual({
      thumbnail: '150x150',
      medium: '300x225',
      medium_large: '768x576',
      large: '1024x768',
      '1536x1536': '1536x1152',
      full: '1600x1200',
    });
    expect(res.body.source_url).toMatch(/\/Blue-Square\.png$/);
  });

  it('refuses no data, a bad disposition, a type that is not allowed and a file that is not what it says', async () => {
    const none = await app.admin('POST', '/cms/v2/media');
    expect([none.status, none.body.code]).toEqual([400, 'rest_upload_no_data']);
    const noDisposition = await app.admin('POST', '/cms/v2/media', { raw: jpeg, contentType: 'image/jpeg' });
    expect([noDisposition.status, noDisposition.body.code]).toEqual([400, 'rest_upload_no_content_disposition']);
    const badDisposition = await app.admin('POST', '/cms/v2/media', { raw: jpeg, contentType: 'image/jpeg', headers: { 'Content-Disposition': 'attachment' } });
    expect([badDisposition.status, badDisposition.body.code]).toEqual([400, 'rest_upload_invalid_disposition']);
    const exe = await app.admin('POST', '/cms/v2/media', raw(Buffer.from('MZ...'), 'tool.exe', 'application/octet-stream'));
    expect([exe.status, exe.body.code]).toEqual([400, 'rest_upload_sideload_error']);
    const fake = await app.admin('POST', '/cms/v2/media', { raw: form({}, { bytes: Buffer.from('just text'), name: 'fake.jpg', type: 'image/jpeg' }) });
    expect([fake.status, fake.body.code]).toEqual([400, 'rest_upload_unknown_error']);
    const md5 = await app.admin('POST', '/cms/v2/media', {
      ...raw(jpeg, 'a.jpg', 'image/jpeg'),
      headers: { 'Content-Disposition': 'attachment; filename=a.jpg', 'Content-MD5': '0'.repeat(32) },
    });
    expect([md5.status, md5.body.code]).toEqual([412, 'rest_upload_hash_mismatch']);
    // A text file is a file, not an image.
    const txt = await app.admin('POST', '/cms/v2/media', raw(Buffer.from('hello'), 'notes.txt', 'text/plain'));
    expect(txt.status).toBe(201);
    expect(txt.body).toMatchObject({ media_type: 'file', mime_type: 'text/plain', media_details: { filesize: 5, sizes: {} } });
  });

  it('answers 413 for a body over the limit, and rest_upload_file_too_big for a fetched file over it', async () => {
    const small = await startTestApp({ MAX_BODY_BYTES: '4096', OUTBOUND_ALLOW_HOSTS: 'localhost' });
    try {
      const res = await small.admin('POST', '/cms/v2/media', raw(png, 'big.png', 'image/png'));
      expect([res.status, res.body.code]).toEqual([413, 'rest_request_too_large']);
      // A fetched file has the same limit.
      const fetched = await small.admin('POST', '/cms/v2/media', { body: { url: `${images.base}/photo.png` } });
      expect([fetched.status, fetched.body.code, fetched.body.message]).toEqual([
        400,
        'rest_upload_file_too_big',
        'This file is too big. Files must be less than 4 KB in size.',
      ]);
    } finally {
      await small.close();
    }
  });

  it('needs upload_files: 401 for a guest, 403 for a subscriber or contributor', async () => {
    const send = (who: Parameters<RoleUsers['as']>[0]) => users.as(who, 'POST', '/cms/v2/media', raw(jpeg, `by-${who}.jpg`, 'image/jpeg'));
    expect([(await send('guest')).status, (await send('guest')).body.code]).toEqual([401, 'rest_cannot_create']);
    expect((await send('subscriber')).status).toBe(403);
    expect((await send('contributor')).status).toBe(403);
    expect((await send('author')).status).toBe(201);
    expect((await send('editor')).status).toBe(201);
  });
});

describe('list, update, delete', () => {
  it('filters by media_type, mime_type and parent', async () => {
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Has media', status: 'publish' } })).body;
    const attached = (await app.admin('POST', `/cms/v2/media?post=${post.id}`, raw(jpeg, 'attached.jpg', 'image/jpeg'))).body;
    expect(attached.post).toBe(post.id);
    const images = await app.request('GET', '/cms/v2/media?media_type=image&per_page=100');
    expect(images.body.every((m: any) => m.media_type === 'image')).toBe(true);
    const pngs = await app.request('GET', '/cms/v2/media?mime_type=image/png');
    expect(pngs.body.length).toBeGreaterThan(0);
    expect(pngs.body.every((m: any) => m.mime_type === 'image/png')).toBe(true);
    const texts = await app.request('GET', '/cms/v2/media?media_type=text');
    expect(texts.body.map((m: any) => m.mime_type)).toEqual(['text/plain']);
    const children = await app.request('GET', `/cms/v2/media?parent=${post.id}`);
    expect(children.body.map((m: any) => m.id)).toEqual([attached.id]);
    const others = await app.request('GET', `/cms/v2/media?parent_exclude=${post.id}&per_page=100`);
    expect(others.body.map((m: any) => m.id)).not.toContain(attached.id);
    expect(Number(others.headers.get('x-wp-total'))).toBe(others.body.length);
    const bad = await app.request('GET', '/cms/v2/media?media_type=spreadsheet');
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
    const trash = await app.request('GET', '/cms/v2/media?status=trash');
    expect([trash.status, trash.body.data.params.status]).toEqual([400, 'Status is forbidden.']);
    // A post links its attachments and, once set, its featured image.
    const links = (await app.request('GET', `/cms/v2/posts/${post.id}`)).body._links;
    expect(links['wp:attachment'][0].href).toContain(`/cms/v2/media?parent=${post.id}`);
    expect(links['wp:featuredmedia']).toBeUndefined();
    // Deleting the post leaves its attachment unattached.
    await app.admin('DELETE', `/cms/v2/posts/${post.id}?force=true`);
    expect((await app.request('GET', `/cms/v2/media/${attached.id}`)).body.post).toBeNull();
  });

  it('an attachment of a draft is as private as the draft', async () => {
    const draft = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Secret draft' } })).body;
    const m = (await app.admin('POST', `/cms/v2/media?post=${draft.id}`, raw(jpeg, 'secret.jpg', 'image/jpeg'))).body;
    expect((await app.request('GET', `/cms/v2/media/${m.id}`)).status).toBe(401);
    expect((await users.as('subscriber', 'GET', `/cms/v2/media/${m.id}`)).status).toBe(403);
    expect((await app.admin('GET', `/cms/v2/media/${m.id}`)).status).toBe(200);
    const listed = await app.request('GET', `/cms/v2/media?parent=${draft.id}`);
    expect(listed.body).toEqual([]);
    expect((await app.admin('GET', `/cms/v2/media?parent=${draft.id}`)).body.map((x: any) => x.id)).toEqual([m.id]);
  });

  it('updates alt text, caption and title', async () => {
    const m = (await app.admin('POST', '/cms/v2/media', raw(jpeg, 'edit-me.jpg', 'image/jpeg'))).body;
    const res = await app.admin('POST', `/cms/v2/media/${m.id}`, { body: { alt_text: 'New <i>alt</i>', caption: 'New caption', title: 'New title' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ alt_text: 'New alt', caption: { raw: 'New caption' }, title: { raw: 'New title' } });
    const view = await app.request('GET', `/cms/v2/media/${m.id}`);
    expect(view.body.alt_text).toBe('New alt');
    expect(view.body.caption).toEqual({ rendered: '<p>New caption</p>\n' });
    expect(view.body).not.toHaveProperty('missing_image_sizes');
    const sub = await users.as('subscriber', 'POST', `/cms/v2/media/${m.id}`, { body: { alt_text: 'x' } });
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_cannot_edit']);
  });

  it('deletes only with force, and the files go with the record', async () => {
    const m = (await app.admin('POST', '/cms/v2/media', raw(jpeg, 'doomed.jpg', 'image/jpeg'))).body;
    const files = [m.source_url, m.media_details.sizes.thumbnail.source_url].map(sitePath);
    for (const f of files) expect((await app.request('GET', f)).status).toBe(200);
    const soft = await app.admin('DELETE', `/cms/v2/media/${m.id}`);
    expect([soft.status, soft.body.code]).toEqual([501, 'rest_trash_not_supported']);
    const guest = await app.request('DELETE', `/cms/v2/media/${m.id}?force=true`);
    expect(guest.status).toBe(401);
    const hard = await app.admin('DELETE', `/cms/v2/media/${m.id}?force=true`);
    expect(hard.status).toBe(200);
    expect(hard.body).toMatchObject({ deleted: true, previous: { id: m.id } });
    for (const f of files) expect((await app.request('GET', f)).status).toBe(404);
    expect((await app.request('GET', `/cms/v2/media/${m.id}`)).status).toBe(404);
  });
});

describe('serving files', () => {
  let m: any;
  beforeAll(async () => {
    m = (await app.admin('POST', '/cms/v2/media', raw(png, 'served.png', 'image/png'))).body;
  });

  it('with its type, validators and nosniff; 304 on a matching validator', async () => {
    const path = sitePath(m.source_url);
    const res = await fetch(app.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await fetch(app.url + path, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(app.url + path, { headers: { 'If-Modified-Since': res.headers.get('last-modified')! } })).status).toBe(304);
    expect((await fetch(app.url + path, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    const head = await fetch(app.url + path, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(png.length), '']);
    expect((await fetch(`${app.url}/cms-content/uploads/2020/01/missing.png`)).status).toBe(404);
    expect((await fetch(`${app.url}/cms-content/uploads/%2e%2e/store.sqlite`)).status).toBe(404);
  });

  it('ranges: 206 with the bytes asked for, 416 beyond the end', async () => {
    const path = sitePath(m.source_url);
    const part = await fetch(app.url + path, { headers: { Range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${png.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(0, 10))).toBe(true);
    const tail = await fetch(app.url + path, { headers: { Range: 'bytes=-4' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(png.subarray(png.length - 4))).toBe(true);
    const beyond = await fetch(app.url + path, { headers: { Range: `bytes=${png.length + 10}-` } });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${png.length}`]);
  });
});

describe('images from URLs', () => {
  it('sideloads an allowed URL into the library (media `url`)', async () => {
    const res = await app.admin('POST', '/cms/v2/media', { body: { url: `${images.base}/photo.png` } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: { raw: 'photo' }, mime_type: 'image/png', media_details: { width: 1600, height: 1200 } });
  });

  it.each([
    ['a loopback address', () => 'http://127.0.0.1/x.png'],
    ['a private address', () => 'http://10.0.0.1/x.png'],
    ['the metadata address', () => 'http://169.254.169.254/latest/x.png'],
    ['a redirect to loopback', () => `${images.base}/to-loopback.png`],
  ])('refuses %s with a clear 400', async (_label, url) => {
    const res = await app.admin('POST', '/cms/v2/media', { body: { url: url() } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_url');
    expect(res.body.message).toMatch(/refused/);
  });

  it('an event image by URL is copied into the library; refused URLs are a 400 naming the reason', async () => {
    const ok = await app.admin('POST', '/vendor/events/v1/events', {
      body: { title: 'With image', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 12:00:00', image: `${images.base}/event.png`, status: 'publish' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.image).toMatchObject({ width: 1600, height: 1200, extension: 'png' });
    expect(ok.body.image.url).toMatch(/\/cms-content\/uploads\/\d{4}\/\d{2}\/event\.png$/);
    expect(ok.body.image.sizes.thumbnail).toMatchObject({ width: 150, height: 150 });
    expect((await fetch(app.url + sitePath(ok.body.image.sizes.thumbnail.url))).status).toBe(200);
    const media = await app.request('GET', `/cms/v2/media/${ok.body.image.id}`);
    expect(media.body.post).toBe(ok.body.id);
    // The same URL again is the same attachment, not a second download.
    const again = await app.admin('POST', '/vendor/events/v1/events', {
      body: { title: 'Same image', start_date: '2030-01-02 10:00:00', end_date: '2030-01-02 12:00:00', image: `${images.base}/event.png` },
    });
    expect(again.body.image.id).toBe(ok.body.image.id);
    expect(images.hits.filter((h) => h === '/event.png')).toHaveLength(1);
    for (const url of ['http://127.0.0.1/x.png', 'http://169.254.169.254/x.png', `${images.base}/to-loopback.png`]) {
      const bad = await app.admin('POST', '/vendor/events/v1/events', {
        body: { title: 'Bad image', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 12:00:00', image: url },
      });
      expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
      expect(bad.body.data.params.image).toMatch(/refused/);
    }
  });

  it('a featured image comes with a post through _embed', async () => {
    const m = (await app.admin('POST', '/cms/v2/media', raw(jpeg, 'featured.jpg', 'image/jpeg'))).body;
    const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Featured', status: 'publish', featured_media: m.id } })).body;
    const res = await app.request('GET', `/cms/v2/posts/${post.id}?_embed=1`);
    expect(res.body._links['wp:featuredmedia'][0].href).toContain(`/cms/v2/media/${m.id}`);
    const embedded = res.body._embedded['wp:featuredmedia'][0];
    expect(embedded).toMatchObject({ id: m.id, media_type: 'image', source_url: m.source_url });
    expect(embedded).not.toHaveProperty('description');
    // Deleting the image clears it from the post.
    await app.admin('DELETE', `/cms/v2/media/${m.id}?force=true`);
    expect((await app.request('GET', `/cms/v2/posts/${post.id}`)).body.featured_media).toBe(0);
  });
});
