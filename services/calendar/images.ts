/**
 * Featured images of calendar records. The reference takes an attachment id (it must be an image) or
 * an image URL, which it fetches and keeps as a new attachment (the caller needs `upload_files`), as
 * media_sideload_image does: here through the media library and the one outbound guard, so a URL on a
 * private, loopback, link-local or metadata address (or redirecting to one) is refused.
 */
import { can, type Caller } from '#libs/auth/user';
import { isImageAttachment } from '#libs/media/library';
import { sniffImage } from '#libs/media/mime';
import { fetchImage } from '#libs/media/sideload';
import type { PostDoc } from '#libs/posts/types';
import { isPositiveInt, isRecord, isUrl } from '#libs/rest/args';
import { RestError } from '#libs/rest/errors';
import type { CalendarDeps } from './deps';
import { INVALID } from './errors';

export interface ImageMeta {
  width?: number;
  height?: number;
  filesize?: number;
  sizes: Record<string, unknown>;
}

/**
 * An image reference that passed the checks: an existing attachment (`attach` when it was kept for this
 * write and still needs its parent), a fetched image to keep, or removal.
 */
export type ImageRef = { attachment: PostDoc; attach?: true } | { url: string; name: string; bytes: Buffer } | { none: true };

/**
 * Checks an image argument: an id must name an image attachment; a URL needs a caller who may upload
 * files and is fetched now, through the outbound guard, as an image the library accepts (the same URL
 * fetched before gives its attachment again). Returns the reference to store, or why it is invalid.
 */
export async function checkImage(deps: CalendarDeps, user: Caller, value: unknown): Promise<ImageRef | { invalid: string }> {
  if (value === '' || value === 0 || value === false || value === '0') return { none: true };
  if (isPositiveInt(value)) {
    const doc = await deps.posts.byId(Number(value));
    return isImageAttachment(doc) ? { attachment: doc } : { invalid: INVALID };
  }
  if (typeof value === 'string' && isUrl(value)) {
    if (!can(user, 'upload_files')) return { invalid: INVALID };
    const url = value.trim();
    const known = await deps.media.bySourceUrl(url);
    if (known) return { attachment: known };
    try {
      const got = await fetchImage(url, deps.imagePolicy, () => deps.media.tooBig());
      const mime = sniffImage(got.bytes);
      if (!mime) return { invalid: `${INVALID} The URL does not answer with an image.` };
      return { url, name: got.name, bytes: got.bytes };
    } catch (e) {
      if (e instanceof RestError) return { invalid: `${INVALID} ${e.message}` };
      throw e;
    }
  }
  return { invalid: INVALID };
}

/**
 * Keeps a fetched image in the media library ahead of the write that uses it, unattached: a write that is
 * a unit of work only touches the store (files and image processing come first), and attaches the image
 * (storeImage). Other references are returned as they are.
 */
export async function keepImage(deps: CalendarDeps, user: Caller, ref: ImageRef): Promise<ImageRef> {
  if (!('url' in ref)) return ref;
  return { attachment: await deps.media.add({ bytes: ref.bytes, name: ref.name, user, parent: 0, sourceUrl: ref.url }), attach: true };
}

/** The attachment id to store for a checked reference (0 removes the image), keeping a fetched image in the media library. */
export async function storeImage(deps: CalendarDeps, user: Caller, ref: ImageRef, parent: number): Promise<number> {
  if ('none' in ref) return 0;
  if ('attachment' in ref) {
    if (ref.attach) await deps.posts.setFields(ref.attachment.id, { parent });
    return ref.attachment.id;
  }
  const doc = await deps.media.add({ bytes: ref.bytes, name: ref.name, user, parent, sourceUrl: ref.url });
  return doc.id;
}

/** The reference's image object: the attachment's URL, id, extension and metadata (each size with its URL), empty values left out. */
export function presentImage(doc: PostDoc | undefined): Record<string, unknown> | false {
  if (!isImageAttachment(doc)) return false;
  const stored = doc.meta?._wp_attachment_metadata;
  const meta: Record<string, unknown> = isRecord(stored) ? stored : {};
  const url = doc.guid;
  // An image attachment's mime_type is a string (isImageAttachment).
  const ext = /\.([a-z0-9]+)(?:$|\?)/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? String(doc.mime_type).split('/')[1];
  // Sizes live beside the attached file, whose address is the guid.
  const dir = url.slice(0, url.lastIndexOf('/') + 1);
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(isRecord(meta.sizes) ? meta.sizes : {})) {
    const { file, ...rest } = isRecord(s) ? s : {};
    sizes[name] = file ? { ...rest, url: dir + encodeURIComponent(String(file)) } : rest;
  }
  const out: Record<string, unknown> = { url, id: doc.id, extension: ext, width: meta.width, height: meta.height, filesize: meta.filesize, sizes };
  for (const [k, v] of Object.entries(out)) {
    if (v === undefined || v === null || v === '' || v === 0 || (typeof v === 'object' && Object.keys(v).length === 0)) delete out[k];
  }
  return out;
}
