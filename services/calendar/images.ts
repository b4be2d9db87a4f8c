/**
 * Featured images of calendar records. The reference takes an attachment id (it must be an image) or
 * an image URL, which it fetches and keeps as a new attachment (the caller needs `upload_files`).
 * Here an attachment is a post record of type `attachment` holding the URL, MIME type and whatever
 * size the first bytes of the file tell (PNG, GIF, JPEG, WebP headers).
 */
import { can, type Caller } from '../../libs/auth/user';
import { newPostRecord } from '../../libs/posts/record';
import type { PostDoc } from '../../libs/posts/types';
import { sanitizeTitle, uniquePostSlug } from '../../libs/posts/slug';
import { isPositiveInt, isUrl } from '../../libs/routes/vendor-events/args';
import type { CalendarDeps } from './deps';

export const ATTACHMENT_TYPE = 'attachment';
const FETCH_TIMEOUT_MS = 5000;
/** Enough of the file to find its dimensions in any of the formats read below. */
const HEAD_BYTES = 65536;

export interface ImageMeta {
  width?: number;
  height?: number;
  filesize?: number;
  sizes: Record<string, unknown>;
}

/** An image reference that passed the checks: an existing attachment, a URL to keep, or removal. */
export type ImageRef = { attachment: PostDoc } | { url: string; mime: string; meta: ImageMeta } | { none: true };

const isImage = (doc: PostDoc | null): doc is PostDoc => !!doc && doc.type === ATTACHMENT_TYPE && typeof doc.mime_type === 'string' && doc.mime_type.startsWith('image/');

/** Width and height from the first bytes of a PNG, GIF, JPEG or WebP file. */
export function imageSize(b: Buffer): { width: number; height: number } | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('ascii', 0, 3) === 'GIF') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 30 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP') {
    const chunk = b.toString('ascii', 12, 16);
    if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      const len = b.readUInt16BE(i + 2);
      // Start-of-frame markers carry the size; DHT, JPG and DAC share the range but do not.
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      i += 2 + len;
    }
  }
  return null;
}

/** Fetches the start of a remote image: it must answer 200 (or 206) with an image MIME type. */
async function probe(url: string): Promise<{ mime: string; meta: ImageMeta } | null> {
  try {
    const res = await fetch(url, { headers: { Range: `bytes=0-${HEAD_BYTES - 1}` }, redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const mime = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if ((res.status !== 200 && res.status !== 206) || !mime.startsWith('image/')) {
      await res.body?.cancel();
      return null;
    }
    const reader = res.body?.getReader();
    const chunks: Buffer[] = [];
    let size = 0;
    while (reader && size < HEAD_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.length;
    }
    await reader?.cancel();
    const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? (res.status === 200 ? res.headers.get('content-length') : null);
    const dims = imageSize(Buffer.concat(chunks));
    return { mime, meta: { ...(dims ?? {}), ...(total ? { filesize: Number(total) } : {}), sizes: {} } };
  } catch {
    return null;
  }
}

/**
 * Checks an image argument: an id must name an image attachment, a URL must be fetchable as an image by
 * a caller who may upload files. Returns the reference to store, or null when it is invalid.
 */
export async function checkImage(deps: CalendarDeps, user: Caller, value: unknown): Promise<ImageRef | null> {
  if (value === '' || value === 0 || value === false || value === '0') return { none: true };
  if (isPositiveInt(value)) {
    const doc = await deps.posts.byId(Number(value));
    return isImage(doc) ? { attachment: doc } : null;
  }
  if (typeof value === 'string' && isUrl(value)) {
    if (!can(user, 'upload_files')) return null;
    const url = value.trim();
    const known = await deps.posts.collection.findOne({ type: ATTACHMENT_TYPE, guid: url });
    if (isImage(known)) return { attachment: known };
    const found = await probe(url);
    return found ? { url, ...found } : null;
  }
  return null;
}

/** The attachment id to store for a checked reference (0 removes the image), keeping a fetched URL as a new attachment. */
export async function storeImage(deps: CalendarDeps, user: Caller, ref: ImageRef, parent: number): Promise<number> {
  if ('none' in ref) return 0;
  if ('attachment' in ref) return ref.attachment.id;
  const now = deps.now();
  const file = decodeURIComponent(new URL(ref.url).pathname.split('/').pop() || 'image');
  const title = file.replace(/\.[a-z0-9]+$/i, '');
  const id = await deps.posts.nextId();
  await deps.posts.create(
    newPostRecord(deps.site, now, {
      id,
      type: ATTACHMENT_TYPE,
      status: 'inherit',
      slug: await uniquePostSlug(deps.posts.collection, sanitizeTitle(title) || 'image', { type: ATTACHMENT_TYPE, hierarchical: false }),
      title,
      author: user?.id ?? 0,
      parent,
      // An attachment's guid is the file's address.
      guid: ref.url,
      mime_type: ref.mime,
      meta: { _wp_attached_file: ref.url, _wp_attachment_metadata: ref.meta },
    }),
  );
  return id;
}

/** The reference's image object: the attachment's URL, id, extension and metadata, empty values left out. */
export function presentImage(doc: PostDoc | undefined): Record<string, unknown> | false {
  if (!isImage(doc ?? null)) return false;
  const meta = (doc!.meta?._wp_attachment_metadata ?? {}) as ImageMeta;
  const url = doc!.guid;
  const ext = /\.([a-z0-9]+)(?:$|\?)/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? (doc!.mime_type as string).split('/')[1];
  const out: Record<string, unknown> = { url, id: doc!.id, extension: ext, width: meta.width, height: meta.height, filesize: meta.filesize, sizes: meta.sizes };
  for (const [k, v] of Object.entries(out)) {
    if (v === undefined || v === null || v === '' || v === 0 || (typeof v === 'object' && Object.keys(v as object).length === 0)) delete out[k];
  }
  return out;
}
