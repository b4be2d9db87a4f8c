/**
 * Upload file names on both stores (a folder beside SQLite, GridFS beside MongoDB): uploads of one name
 * at once each get a name of their own (`name.ext`, `name-1.ext`, ...), and so do their derived image
 * files, so every attachment owns its files and deleting one leaves the others whole; long names are
 * shortened so that every file an upload makes fits the file system's 255 bytes.
 */
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../../../test/support/app';

const STORES: Array<[string, Record<string, string | undefined>]> = [
  ['sqlite', {}],
  ['mongo', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `media_names_${process.pid}_${Date.now()}` }],
];

const CONCURRENT = 12;

const raw = (bytes: Buffer, name: string, type: string) => ({
  raw: bytes,
  contentType: type,
  headers: { 'Content-Disposition': `attachment; filename="${name}"` },
});

/** A PNG of 400x300 in its own colour, so each upload's files differ. */
const png = (i: number) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r: (i * 40) % 256, g: 90, b: 200 } } })
    .png()
    .toBuffer();

interface Attachment {
  id: number;
  source_url: string;
  media_details: { file?: string; sizes?: Record<string, { file: string; source_url: string }> };
}

/** Every URL an attachment's files are served at. */
const filesOf = (a: Attachment): string[] => [...new Set([a.source_url, ...Object.values(a.media_details.sizes ?? {}).map((s) => s.source_url)])];
const baseName = (url: string) => decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));

describe.each(STORES)('upload names on %s', (_name, env) => {
  let app: TestApp;
  const served = async (url: string): Promise<Buffer | null> => {
    const res = await fetch(app.url + new URL(url).pathname);
    // Read whatever the answer is, so no connection stays open.
    const body = Buffer.from(await res.arrayBuffer());
    return res.status === 200 ? body : null;
  };
  const upload = async (bytes: Buffer, name: string, type: string): Promise<Attachment> => {
    const res = await app.admin('POST', '/cms/v2/media', raw(bytes, name, type));
    if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };

  beforeAll(async () => {
    app = await startTestApp(env);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it(`gives ${CONCURRENT} uploads of one name at once a file each, and deleting one leaves the others`, async () => {
    const bodies = Array.from({ length: CONCURRENT }, (_, i) => Buffer.from(`notes of upload ${i}\n`.repeat(50 + i)));
    const made = await Promise.all(bodies.map((b) => upload(b, 'notes.txt', 'text/plain')));
    const names = made.map((a) => baseName(a.source_url));
    expect(new Set(names)).toEqual(new Set(['notes.txt', ...Array.from({ length: CONCURRENT - 1 }, (_, i) => `notes-${i + 1}.txt`)]));
    for (const [i, a] of made.entries()) expect((await served(a.source_url))?.equals(bodies[i])).toBe(true);

    const gone = made[0];
    expect((await app.admin('DELETE', `/cms/v2/media/${gone.id}?force=true`)).status).toBe(200);
    expect(await served(gone.source_url)).toBeNull();
    for (const [i, a] of made.entries()) if (i > 0) expect((await served(a.source_url))?.equals(bodies[i])).toBe(true);
    // The freed name is taken again by the next upload of it.
    const again = await upload(Buffer.from('again'), 'notes.txt', 'text/plain');
    expect(baseName(again.source_url)).toBe(baseName(gone.source_url));
  }, 60_000);

  it('gives images uploaded at once sizes of their own', async () => {
    const bodies = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => png(i)));
    const made = await Promise.all(bodies.map((b) => upload(b, 'photo.png', 'image/png')));
    const all = made.flatMap(filesOf);
    expect(made.every((a) => Object.keys(a.media_details.sizes ?? {}).length >= 2)).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    for (const url of all) expect(await served(url)).not.toBeNull();
    // Each attachment's thumbnail is made from its own upload: its colour.
    for (const [i, a] of made.entries()) {
      const thumb = await served(a.media_details.sizes!.thumbnail.source_url);
      const { dominant } = await sharp(thumb!).stats();
      expect(dominant.r).toBeCloseTo((i * 40) % 256, -1.5);
    }
    expect((await app.admin('DELETE', `/cms/v2/media/${made[3].id}?force=true`)).status).toBe(200);
    for (const [i, a] of made.entries()) {
      for (const url of filesOf(a)) expect([i, url, (await served(url)) !== null]).toEqual([i, url, i !== 3]);
    }
  }, 120_000);

  it('moves an image to the next name when a size it would make is taken by another file', async () => {
    const first = await upload(await png(1), 'shot-150x150.png', 'image/png');
    const image = await upload(await png(2), 'shot.png', 'image/png');
    expect(baseName(image.source_url)).toBe('shot-1.png');
    expect(baseName(image.media_details.sizes!.thumbnail.source_url)).toBe('shot-1-150x150.png');
    expect((await served(first.source_url))?.equals(await png(1))).toBe(true);
  }, 60_000);

  it('shortens long names so every file of the upload fits 255 bytes, also at once', async () => {
    const long = `${'a'.repeat(246)}.txt`;
    expect(long).toHaveLength(250);
    const text = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => upload(Buffer.from(`long ${i}`), long, 'text/plain')));
    const names = text.map((a) => baseName(a.source_url));
    expect(new Set(names).size).toBe(CONCURRENT);
    for (const n of names) expect(Buffer.byteLength(n)).toBeLessThanOrEqual(255);
    expect(names).toContain(long);
    for (const [i, a] of text.entries()) expect((await served(a.source_url))?.toString()).toBe(`long ${i}`);

    // Two bytes a character: 250 characters are 504 bytes.
    const wide = `${'é'.repeat(246)}.png`;
    const images = await Promise.all([0, 1, 2].map(async (i) => upload(await png(i), wide, 'image/png')));
    const files = images.flatMap(filesOf);
    expect(new Set(files).size).toBe(files.length);
    for (const url of files) {
      expect(Buffer.byteLength(baseName(url))).toBeLessThanOrEqual(255);
      expect(baseName(url).startsWith('é'.repeat(100))).toBe(true);
      expect(await served(url)).not.toBeNull();
    }
  }, 120_000);
});
