/**
 * The file storage port against both adapters: a folder, and GridFS on the MongoDB the tests use
 * (TEST_MONGO_URL: a real server, a container, or the wire-compatible test server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store';
import type { Store } from '../store/types';
import { FsStorage, isValidKey, storageFor, type FileStorage } from './storage';

async function readAll(s: NodeJS.ReadableStream | null): Promise<Buffer | null> {
  if (!s) return null;
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));

describe.each([
  [
    'folder',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ecs-files-'));
      return { storage: new FsStorage(dir) as FileStorage, close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'GridFS',
    async () => {
      const url = process.env.TEST_MONGO_URL;
      if (!url) throw new Error('TEST_MONGO_URL is not set; run the tests through jest so its globalSetup starts MongoDB');
      const store: Store = await openStore({ mongoUrl: url, mongoDb: `files_${process.pid}`, dataDir: ':memory:' });
      const storage = storageFor(store, ':memory:');
      expect(storage.kind).toBe('gridfs');
      return { storage, close: () => store.close() };
    },
  ],
])('%s storage', (_name, open) => {
  let storage: FileStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await open());
  });
  afterAll(async () => close());

  it('creates, stats, gets and deletes a file', async () => {
    expect(await storage.create('2026/11/a.png', bytes, 'image/png')).toBe(true);
    const info = await storage.stat('2026/11/a.png');
    expect(info).toMatchObject({ key: '2026/11/a.png', size: bytes.length, contentType: 'image/png' });
    expect(Number.isFinite(info!.modified.getTime())).toBe(true);
    expect((await storage.get('2026/11/a.png'))!.equals(bytes)).toBe(true);
    expect(await storage.delete('2026/11/a.png')).toBe(true);
    expect(await storage.stat('2026/11/a.png')).toBeNull();
    expect(await storage.get('2026/11/a.png')).toBeNull();
    expect(await storage.delete('2026/11/a.png')).toBe(false);
  });

  it('streams the whole file or an inclusive range', async () => {
    expect(await storage.create('2026/11/r.bin', bytes, 'application/octet-stream')).toBe(true);
    expect((await readAll(await storage.stream('2026/11/r.bin')))!.equals(bytes)).toBe(true);
    expect((await readAll(await storage.stream('2026/11/r.bin', { start: 10, end: 19 })))!.equals(bytes.subarray(10, 20))).toBe(true);
    expect((await readAll(await storage.stream('2026/11/r.bin', { start: 2990, end: 2999 })))!.equals(bytes.subarray(2990))).toBe(true);
    expect(await storage.stream('2026/11/none.bin')).toBeNull();
  });

  it('creates a file only where none is, and again once it is deleted', async () => {
    expect(await storage.create('2026/11/twice.txt', Buffer.from('first'), 'text/plain')).toBe(true);
    expect(await storage.create('2026/11/twice.txt', Buffer.from('second'), 'text/plain')).toBe(false);
    expect((await storage.get('2026/11/twice.txt'))!.toString()).toBe('first');
    expect(await storage.delete('2026/11/twice.txt')).toBe(true);
    expect(await storage.create('2026/11/twice.txt', Buffer.from('third'), 'text/plain')).toBe(true);
    expect((await storage.get('2026/11/twice.txt'))!.toString()).toBe('third');
  });

  it('gives a key to exactly one of many creates at once, whole', async () => {
    const bodies = Array.from({ length: 16 }, (_, i) => Buffer.from(`writer ${i} `.repeat(200 + i)));
    const won = await Promise.all(bodies.map((b) => storage.create('2026/11/race.txt', b, 'text/plain')));
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = bodies[won.indexOf(true)];
    expect((await storage.get('2026/11/race.txt'))!.equals(winner)).toBe(true);
  });

  it('takes a name of 255 bytes', async () => {
    const name = `${'é'.repeat(125)}.txt`;
    expect(Buffer.byteLength(name)).toBe(254);
    expect(await storage.create(`2026/11/${name}`, bytes, 'text/plain')).toBe(true);
    expect((await storage.stat(`2026/11/${name}`))!.size).toBe(bytes.length);
  });

  it('refuses keys that leave the root', async () => {
    for (const key of ['../x', '/etc/passwd', 'a//b', 'a/./b', '']) {
      expect(isValidKey(key)).toBe(false);
      await expect(storage.create(key, bytes, 'text/plain')).rejects.toThrow();
    }
  });
});
