/**
 * The file storage port of the media library: uploaded files and their generated sizes, addressed by
 * a relative key such as `2026/11/photo-150x150.jpg` (the reference's path under wp-content/uploads).
 * Two adapters, chosen by the store kind: a folder under DATA_DIR next to the embedded SQLite store
 * (one process owns both), and MongoDB GridFS when the store is MongoDB, so that every pod of a
 * cluster (content, calendar, gateway) reads and writes the same files without a shared volume.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from 'mongodb';
import type { Store } from '../store/types';
import { extensionMime } from './mime';

export interface FileInfo {
  key: string;
  size: number;
  contentType: string;
  modified: Date;
}

export interface ByteRange {
  /** First byte (inclusive). */
  start: number;
  /** Last byte (inclusive). */
  end: number;
}

export interface FileStorage {
  readonly kind: 'fs' | 'gridfs';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  stat(key: string): Promise<FileInfo | null>;
  /** Removes the file; false when there was none. */
  delete(key: string): Promise<boolean>;
  /** The file's bytes, or the given inclusive range of them. */
  stream(key: string, range?: ByteRange): Promise<Readable | null>;
}

/** A key is a relative path of plain segments: no `..`, no absolute paths, no empty segments. */
export function isValidKey(key: string): boolean {
  if (!key || key.length > 512 || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function checkKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}

/** Files in a folder; the content type lives in the attachment record, the extension tells it here. */
export class FsStorage implements FileStorage {
  readonly kind = 'fs' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    checkKey(key);
    const p = resolve(join(this.root, key));
    if (!p.startsWith(this.root + sep)) throw new Error('storage key escapes the root');
    return p;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const tmp = `${p}.${process.pid}.${Date.now()}.part`;
    await writeFile(tmp, bytes);
    await rename(tmp, p);
  }

  async get(key: string): Promise<Buffer | null> {
    return readAll(await this.stream(key));
  }

  async stat(key: string): Promise<FileInfo | null> {
    try {
      const s = await stat(this.path(key));
      if (!s.isFile()) return null;
      return { key, size: s.size, contentType: mimeOfKey(key), modified: s.mtime };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<boolean> {
    const info = await this.stat(key);
    if (!info) return false;
    await rm(this.path(key), { force: true });
    return true;
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | null> {
    if (!(await this.stat(key))) return null;
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }
}

const BUCKET = 'uploads';

/** GridFS through the official driver: one bucket, the key as the file name (newest version wins). */
export class GridFsStorage implements FileStorage {
  readonly kind = 'gridfs' as const;
  private bucketP: Promise<import('mongodb').GridFSBucket> | null = null;

  constructor(private readonly db: Db) {}

  private bucket() {
    this.bucketP ??= import('mongodb').then(({ GridFSBucket }) => new GridFSBucket(this.db, { bucketName: BUCKET }));
    return this.bucketP;
  }

  private async latest(key: string) {
    checkKey(key);
    const b = await this.bucket();
    const [f] = await b.find({ filename: key }).sort({ uploadDate: -1 }).limit(1).toArray();
    return f ?? null;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    const b = await this.bucket();
    const old = await b.find({ filename: key }).toArray();
    await new Promise<void>((res, rej) => {
      const up = b.openUploadStream(key, { metadata: { contentType } });
      up.once('finish', () => res());
      up.once('error', rej);
      up.end(bytes);
    });
    // Earlier versions go once the new one is complete.
    for (const f of old) await b.delete(f._id).catch(() => undefined);
  }

  async get(key: string): Promise<Buffer | null> {
    return readAll(await this.stream(key));
  }

  async stat(key: string): Promise<FileInfo | null> {
    const f = await this.latest(key);
    if (!f) return null;
    const ct: unknown = f.metadata?.contentType;
    return { key, size: f.length, contentType: typeof ct === 'string' && ct ? ct : mimeOfKey(key), modified: f.uploadDate };
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    const b = await this.bucket();
    const all = await b.find({ filename: key }).toArray();
    for (const f of all) await b.delete(f._id).catch(() => undefined);
    return all.length > 0;
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | null> {
    const f = await this.latest(key);
    if (!f) return null;
    const b = await this.bucket();
    // The driver's `end` is exclusive.
    return b.openDownloadStream(f._id, range ? { start: range.start, end: range.end + 1 } : {});
  }
}

/** The storage that goes with a store: GridFS beside MongoDB, a folder beside the embedded store. */
export function storageFor(store: Store, dataDir: string): FileStorage {
  if (store.kind === 'mongo') {
    const db = (store as unknown as { db: Db }).db;
    return new GridFsStorage(db);
  }
  // A throwaway in-memory store keeps its files in a throwaway folder too.
  return new FsStorage(dataDir === ':memory:' ? join(tmpdir(), `ecs-uploads-${process.pid}`) : join(dataDir, 'uploads'));
}

/** A content type from the key's extension, for files whose record is not at hand. */
export function mimeOfKey(key: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? '';
  return extensionMime(ext) ?? 'application/octet-stream';
}

/** A stored file's whole content, or null when there is none. */
async function readAll(s: AsyncIterable<Buffer> | null): Promise<Buffer | null> {
  if (!s) return null;
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c);
  return Buffer.concat(chunks);
}
