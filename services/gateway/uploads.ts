/**
 * The gateway's part of the media library: multipart/form-data bodies split into form fields (the
 * reference's $_POST) and files ($_FILES), and the uploaded files served under the site URL
 * (`/cms-content/uploads/...`, the reference's /wp-content/uploads/) with validators, ranges and HEAD.
 */
import { PassThrough } from 'node:stream';
import busboy from 'busboy';
import type Koa from 'koa';
import qs from 'qs';
import type { FileStorage } from '#libs/media/storage';
import { isValidKey } from '#libs/media/storage';
import { UPLOADS_PATH } from '#libs/media/library';
import type { UploadedFile } from '#libs/rest/service';

/**
 * Whether a conditional GET of a static file may be answered 304: its ETag is among If-None-Match, or
 * (without one) it did not change since If-Modified-Since. Unlike Koa's `ctx.fresh`, a request's
 * `Cache-Control: no-cache` does not prevent it: the origin itself is revalidating.
 */
export function notModified(ctx: Koa.Context, etag: string, lastModified?: Date): boolean {
  const inm = ctx.get('If-None-Match');
  if (inm) return inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
  const ims = ctx.get('If-Modified-Since');
  return !!lastModified && !!ims && !Number.isNaN(Date.parse(ims)) && lastModified.getTime() <= Date.parse(ims);
}

export function isMultipart(contentType: string): boolean {
  return /^multipart\/form-data\b/i.test(contentType);
}

/** Splits a multipart body; null when it does not parse. Field names keep their bracket syntax (`meta[a]`). */
export function parseMultipart(raw: Buffer, contentType: string): Promise<{ fields: Record<string, unknown>; files: Record<string, UploadedFile> } | null> {
  return new Promise((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { 'content-type': contentType }, limits: { files: 20, fields: 2000, fieldSize: raw.length } });
    } catch {
      resolve(null);
      return;
    }
    const pairs: string[] = [];
    const files: Record<string, UploadedFile> = {};
    bb.on('field', (name, value) => pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // The reference keeps the first file of a field name; an empty part is no file.
        if (!files[name] && info.filename) files[name] = { name: info.filename, type: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    bb.on('close', () => resolve({ fields: qs.parse(pairs.join('&'), { depth: 5, arrayLimit: 1000, parameterLimit: 2000 }), files }));
    bb.on('error', () => resolve(null));
    const src = new PassThrough();
    src.pipe(bb);
    src.end(raw);
  });
}

function httpDate(d: Date): string {
  return d.toUTCString();
}

/** Parses a single `bytes=` range against a size; 'unsatisfiable' or null (ignore the header). */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answered with the whole file, as a server may.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/** Serves GET/HEAD of an uploaded file; false when the path is not under the uploads root. */
export async function serveUpload(ctx: Koa.Context, storage: FileStorage): Promise<boolean> {
  if (!ctx.path.startsWith(`${UPLOADS_PATH}/`)) return false;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.status = 405;
    ctx.set('Allow', 'GET, HEAD');
    return true;
  }
  let key: string;
  try {
    key = decodeURIComponent(ctx.path.slice(UPLOADS_PATH.length + 1));
  } catch {
    key = '';
  }
  const info = isValidKey(key) ? await storage.stat(key) : null;
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (!info) {
    ctx.status = 404;
    ctx.type = 'text/plain; charset=UTF-8';
    ctx.body = 'Not Found';
    return true;
  }
  const etag = `"${info.size.toString(16)}-${info.modified.getTime().toString(16)}"`;
  const lastModified = new Date(Math.floor(info.modified.getTime() / 1000) * 1000);
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', httpDate(lastModified));
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'public, max-age=31536000');
  if (notModified(ctx, etag, lastModified)) {
    ctx.status = 304;
    return true;
  }
  ctx.type = info.contentType;
  let range: { start: number; end: number } | 'unsatisfiable' | null = null;
  const rangeHeader = ctx.get('Range');
  const ifRange = ctx.get('If-Range');
  if (rangeHeader && (!ifRange || ifRange === etag || ifRange === httpDate(lastModified))) range = parseRange(rangeHeader, info.size);
  if (range === 'unsatisfiable') {
    // A null body resets the status and drops the entity headers, so they come after it.
    ctx.body = null;
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${info.size}`);
    return true;
  }
  const status = range ? 206 : 200;
  const length = range ? range.end - range.start + 1 : info.size;
  if (ctx.method === 'HEAD') {
    ctx.body = null;
    ctx.status = status;
    ctx.type = info.contentType;
    ctx.set('Content-Length', String(length));
    if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    return true;
  }
  ctx.status = status;
  if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  const stream = await storage.stream(key, range ?? undefined);
  if (!stream) {
    ctx.status = 404;
    return true;
  }
  ctx.body = stream;
  ctx.length = length;
  return true;
}
