/**
 * The file storage port of the media library: uploaded files and their generated sizes, addressed by
 * a relative key such as `2026/11/photo-150x150.jpg` (the reference's path under wp-content/uploads).
 * Two adapters, chosen by the store kind: a folder under DATA_DIR next to the embedded SQLite store
 * (one process owns both), and MongoDB GridFS when the store is MongoDB, so that every pod of a
 * cluster (content, calendar, gateway) reads and writes the same files without a shared volume.
 *
 * A file is created under a key only when no file holds it, in one step on both adapters (`create`), so
 * two uploads of one name never share a file: each attachment owns the files it names, and deleting one
 * never removes another's.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
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
  /**
   * Stores a file under a key no file holds yet, and returns true; returns false, storing nothing, when
   * the key is taken. The check and the creation are one step, also between processes.
   */
  create(key: string, bytes: Buffer, contentType: string): Promise<boolean>;
  get(key: string): Promise<Buffer | null>;
  stat(key: string): Promise<FileInfo | null>;
  /** Removes the file, so its key can be created again; false when there was none. */
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

  async create(key: string, bytes: Buffer): Promise<boolean> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    // Written aside under a short name of its own (a long key leaves no room for a suffix within the
    // file system's 255 bytes), then linked to the key: link() fails when the key exists, so a reader
    // never sees half a file and two writers never share one.
    const tmp = join(dirname(p), `.part-${randomBytes(12).toString('hex')}`);
    await writeFile(tmp, bytes, { flag: 'wx' });
    try {
      await link(tmp, p);
      return true;
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return false;
      // File systems without hard links: an exclusive create, which a reader may see while it is written.
      if (errorCode(e) === 'EPERM' || errorCode(e) === 'ENOTSUP') return writeExclusive(p, bytes);
      throw e;
    } finally {
      await rm(tmp, { force: true });
    }
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

function errorCode(e: unknown): unknown {
  return typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
}

async function writeExclusive(path: string, bytes: Buffer): Promise<boolean> {
  try {
    await writeFile(path, bytes, { flag: 'wx' });
    return true;
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return false;
    throw e;
  }
}

const BUCKET = 'uploads';
/** The keys files hold in the GridFS bucket, one document each: `{key, claims}`, unique by key. */
const NAMES = `${BUCKET}.names`;

/**
 * GridFS through the official driver: one bucket, the key as the file name. GridFS lets many files
 * share a name, so a key is claimed first in the bucket's `names` collection: an atomic upsert counts
 * the claims of a key, and only the claim that made it 1 holds the key, until the file is deleted.
 */
export class GridFsStorage implements FileStorage {
  readonly kind = 'gridfs' as const;
  private bucketP: Promise<import('mongodb').GridFSBucket> | null = null;
  private namesReady: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  private names() {
    return this.db.collection<{ key: string; claims: number }>(NAMES);
  }

  /** Whether this caller now holds the key. */
  private async claim(key: string): Promise<boolean> {
    this.namesReady ??= this.names()
      .createIndex({ key: 1 }, { unique: true })
      .then(() => undefined)
      .catch((e) => {
        this.namesReady = null;
        throw e;
      });
    await this.namesReady;
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.names().findOneAndUpdate(
          { key },
          { $inc: { claims: 1 } },
          { upsert: true, returnDocument: 'after', projection: { _id: 0, claims: 1 }, includeResultMetadata: false },
        );
        return doc?.claims === 1;
      } catch (e) {
        // Two first claims of one key can race to insert it; the unique index refuses one, which counts again.
        if (errorCode(e) !== 11000 || attempt >= 3) throw e;
      }
    }
  }

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

  async create(key: string, bytes: Buffer, contentType: string): Promise<boolean> {
    checkKey(key);
    if (!(await this.claim(key))) return false;
    try {
      // A file stored before keys were claimed holds its key too (its claim now stays until it is deleted).
      if (await this.latest(key)) return false;
      const b = await this.bucket();
      await new Promise<void>((res, rej) => {
        const up = b.openUploadStream(key, { metadata: { contentType } });
        up.once('finish', () => res());
        up.once('error', rej);
        up.end(bytes);
      });
      return true;
    } catch (e) {
      await this.names().deleteOne({ key });
      throw e;
    }
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
    // The key is free again once its file is gone.
    await this.names().deleteOne({ key });
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
