/**
 * The media library: turns a file (uploaded, or fetched from a URL as the reference's
 * media_sideload_image does) into an attachment record plus its stored files, and removes both.
 * cms/v2 media and the calendar's image arguments share it, so an attachment has one shape:
 * a post record of type `attachment`, status `inherit`, the file's URL as guid, `mime_type` (indexed),
 * and the reference's meta `_wp_attached_file` (path under the uploads root),
 * `_wp_attachment_metadata` and `_wp_attachment_image_alt`.
 */
import { randomBytes } from 'node:crypto';
import type { Caller } from '../auth/user';
import { mysqlLocal } from '../dates/format';
import { sanitizeTextField } from '../html/text';
import { newPostRecord } from '../posts/record';
import type { PostsRepository } from '../posts/repository';
import { ALT_TEXT_META, textFilterFor } from '../posts/save-filter';
import { sanitizeTitle } from '../posts/slug';
import type { PostDoc } from '../posts/types';
import type { Site } from '../rest/site';
import { RestError } from '../rest/errors';
import { processImage, EDITABLE_IMAGES, type AttachmentMetadata, type ProcessedImage } from './images';
import { DERIVED_SUFFIX_BYTES, candidateName, renameProcessed, splitName } from './names';
import { checkFileType } from './mime';
import type { FileStorage } from './storage';

export const ATTACHMENT_TYPE = 'attachment';
/** Site path of the uploads root (the reference's /wp-content/uploads). */
export const UPLOADS_PATH = '/cms-content/uploads';

export function uploadsBase(site: Pick<Site, 'url'>): string {
  return `${site.url}${UPLOADS_PATH}`;
}

/** The attached file's path under the uploads root; null for records that point elsewhere. */
export function attachedFile(doc: PostDoc): string | null {
  const f = doc.meta?._wp_attached_file;
  return typeof f === 'string' && f && !/^[a-z][a-z0-9+.-]*:/i.test(f) ? f : null;
}

export function attachmentMetadata(doc: PostDoc): AttachmentMetadata | null {
  const m = doc.meta?._wp_attachment_metadata;
  return m && typeof m === 'object' ? (m as AttachmentMetadata) : null;
}

/** wp_get_attachment_url(): the uploads URL of the attached file, else the stored address. */
export function attachmentUrl(site: Pick<Site, 'url'>, doc: PostDoc): string {
  const f = attachedFile(doc);
  if (f) return `${uploadsBase(site)}/${f.split('/').map(encodeURIComponent).join('/')}`;
  const raw = doc.meta?._wp_attached_file;
  return typeof raw === 'string' && raw ? raw : doc.guid;
}

/** The URL of a file beside the attached one (a size or the original). */
export function siblingUrl(site: Pick<Site, 'url'>, doc: PostDoc, name: string): string | null {
  const f = attachedFile(doc);
  if (!f) return null;
  const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : '';
  return `${uploadsBase(site)}/${(dir + name).split('/').map(encodeURIComponent).join('/')}`;
}

export const isImageAttachment = (doc: PostDoc | null | undefined): doc is PostDoc =>
  !!doc && doc.type === ATTACHMENT_TYPE && typeof doc.mime_type === 'string' && doc.mime_type.startsWith('image/');

/** sanitize_file_name(): no path, no special characters, spaces to dashes; the extension kept. */
export function sanitizeFileName(name: string): string {
  let n = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are among the ones removed
  n = n.normalize('NFC').replace(/[?[\]/\\=<>:;,'"&$#*()|~`!{}%+’«»”“\u0000-\u001f\u007f]/g, '');
  n = n.replace(/[\s-]+/g, '-').replace(/^[.\-_]+|[.\-_]+$/g, '');
  return n;
}

export interface NewFile {
  bytes: Buffer;
  /** The client's file name (from Content-Disposition, the multipart part or the URL). */
  name: string;
  user: Caller;
  parent: number;
  title?: string;
  /** The title when neither the request nor the image's own metadata gives one (a form upload's file name). */
  fallbackTitle?: string;
  caption?: string;
  description?: string;
  alt?: string;
  /** The address the file was fetched from (sideloads), so the same URL is not fetched twice. */
  sourceUrl?: string;
  /** The reference files an upload under its parent post's month (not for pages). */
  time?: Date;
  /** false: no intermediate sizes, no rotation or scaling (generate_sub_sizes). */
  subSizes?: boolean;
}

const typeRefused = () => new RestError('rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.', 400);

export class MediaLibrary {
  constructor(
    private readonly site: Site,
    private readonly posts: PostsRepository,
    readonly files: FileStorage,
    /** Largest file accepted (the request body limit: the reference's wp_max_upload_size). */
    readonly maxBytes: number,
  ) {}

  tooBig(): RestError {
    return new RestError('rest_upload_file_too_big', `This file is too big. Files must be less than ${Math.floor(this.maxBytes / 1024)} KB in size.`, 400);
  }

  /**
   * Stores an upload and the files made from it under the first free candidate name (libs/media/names:
   * `name.ext`, `name-1.ext`, ...), each file created only where none is, so the attachment owns them
   * all; a candidate with any file taken is given back whole. Returns the name, the image's files named
   * after it, and the keys stored.
   */
  private async storeUnique(
    dir: string,
    upload: string,
    reserve: number,
    bytes: Buffer,
    mime: string,
    made: ProcessedImage | null,
  ): Promise<{ name: string; made: ProcessedImage | null; keys: string[] }> {
    const parts = splitName(upload);
    const first = candidateName(parts, '', reserve);
    for (let n = 0; ; n++) {
      // Past a thousand taken names, a random suffix rather than counting on (wp_unique_filename counts on).
      const name = candidateName(parts, n === 0 ? '' : n <= 1000 ? `-${n}` : `-${randomBytes(4).toString('hex')}`, reserve);
      const mine = made && name !== first ? renameProcessed(made, first, name) : made;
      const keys: string[] = [];
      try {
        for (const x of [{ name, bytes, mime }, ...(mine?.files ?? [])]) {
          if (!(await this.files.create(`${dir}/${x.name}`, x.bytes, x.mime))) break;
          keys.push(`${dir}/${x.name}`);
        }
      } catch (e) {
        await this.removeKeys(keys);
        throw e;
      }
      if (keys.length === 1 + (mine?.files.length ?? 0)) return { name, made: mine, keys };
      await this.removeKeys(keys);
    }
  }

  private async removeKeys(keys: string[]): Promise<void> {
    for (const k of keys) await this.files.delete(k).catch(() => undefined);
  }

  /**
   * Checks and stores a file and creates its attachment (the reference's wp_handle_upload,
   * wp_insert_attachment and wp_generate_attachment_metadata in one). Throws RestError for a refused
   * file; stores nothing then.
   */
  async add(f: NewFile): Promise<PostDoc> {
    if (!f.bytes.length) throw new RestError('rest_upload_no_data', 'No data supplied.', 400);
    if (f.bytes.length > this.maxBytes) throw this.tooBig();
    const clean = sanitizeFileName(f.name);
    const checked = clean ? checkFileType(clean, f.bytes, f.user) : null;
    if (!checked) throw typeRefused();
    const when = f.time ?? new Date();
    const dir = `${when.getUTCFullYear()}/${String(when.getUTCMonth() + 1).padStart(2, '0')}`;

    let made: ProcessedImage | null = null;
    // Images the library resizes keep room in their names for the suffixes of their derived files.
    const reserve = EDITABLE_IMAGES.has(checked.mime) ? DERIVED_SUFFIX_BYTES : 0;
    if (EDITABLE_IMAGES.has(checked.mime)) {
      // Made once, for the name the upload would have first (shortened to fit); renamed if that is taken.
      try {
        made = await processImage(f.bytes, candidateName(splitName(checked.name), '', reserve), dir, checked.mime, { subSizes: f.subSizes });
      } catch {
        // Bytes that look like an image but do not decode.
        throw new RestError('rest_upload_sideload_error', 'The uploaded file could not be read as an image.', 400);
      }
    }
    const { name, made: mine, keys: stored } = await this.storeUnique(dir, checked.name, reserve, f.bytes, checked.mime, made);
    const key = `${dir}/${name}`;
    let metadata: AttachmentMetadata = mine?.metadata ?? { filesize: f.bytes.length, sizes: {} };
    const attached = mine?.attached ?? name;
    if (!mine && checked.mime.startsWith('image/')) metadata = { ...metadata, file: key };
    try {
      // As insert_attachment: the request's title, else the image's own, else the file's name.
      const own = metadata.image_meta?.title?.trim() && !/^\d+$/.test(sanitizeTitle(metadata.image_meta.title)) ? metadata.image_meta.title : '';
      // The uploader's filter applies to the file's own metadata too (an image's title and caption).
      const filter = textFilterFor(f.user);
      const title = filter.title(f.title?.trim() ? f.title : own || f.fallbackTitle || name.replace(/\.[^.]+$/, ''));
      const caption = filter.html(f.caption?.trim() ? f.caption : metadata.image_meta?.caption?.trim() || '');
      const now = new Date();
      const id = await this.posts.nextId();
      const meta: Record<string, unknown> = { _wp_attached_file: `${dir}/${attached}`, _wp_attachment_metadata: metadata };
      const alt = sanitizeTextField(f.alt ?? '');
      if (alt) meta[ALT_TEXT_META] = alt;
      const doc = newPostRecord(this.site, now, {
        id,
        type: ATTACHMENT_TYPE,
        status: 'inherit',
        slug: await this.posts.uniqueSlug(sanitizeTitle(title) || String(id), { type: ATTACHMENT_TYPE, hierarchical: false }),
        title,
        content: filter.html(f.description ?? ''),
        excerpt: caption,
        author: f.user?.id ?? 0,
        parent: f.parent,
        comment_status: 'open',
        ping_status: 'closed',
        guid: `${uploadsBase(this.site)}/${dir}/${attached}`,
        mime_type: checked.mime,
        meta,
        ...(f.sourceUrl ? { source_url: f.sourceUrl } : {}),
        date: mysqlLocal(now, this.site.timezone),
        date_gmt: now,
      });
      return await this.posts.create(doc);
    } catch (e) {
      await this.removeKeys(stored);
      throw e;
    }
  }

  /** The image attachment an earlier fetch of this URL made, if any (so a URL is fetched once). */
  async bySourceUrl(url: string): Promise<PostDoc | null> {
    const doc = await this.posts.findOne({ source_url: url, type: ATTACHMENT_TYPE });
    return isImageAttachment(doc) ? doc : null;
  }

  /** Every stored file of an attachment: the attached one, the original and each size. */
  filesOf(doc: PostDoc): string[] {
    const f = attachedFile(doc);
    if (!f) return [];
    const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : '';
    const meta = attachmentMetadata(doc);
    const names = new Set<string>([f]);
    if (meta?.original_image) names.add(dir + meta.original_image);
    for (const s of Object.values(meta?.sizes ?? {})) if (s?.file) names.add(dir + s.file);
    return [...names];
  }

  /** Removes an attachment's files (wp_delete_attachment_files). */
  async deleteFiles(doc: PostDoc): Promise<void> {
    for (const k of this.filesOf(doc)) await this.files.delete(k).catch(() => undefined);
  }
}
