/**
 * wp_read_image_metadata(): the title, caption, credit, copyright, camera, date taken, aperture, focal
 * length, ISO, shutter speed, orientation and keywords of a photo, read with exifr from its IPTC block
 * first and its EXIF tags after, as the reference reads them (JPEG and TIFF only, as the reference's
 * wp_read_image_metadata_types), every value written as the reference stores it: text, each string
 * through the post HTML filter (wp_kses_post_deep). GPS position is not read: the reference does not
 * report it. Unreadable metadata reads as none.
 */
import exifr from 'exifr';
import { kses } from '../posts/kses';

export interface ImageMetaData {
  aperture: string;
  credit: string;
  camera: string;
  caption: string;
  created_timestamp: string;
  copyright: string;
  focal_length: string;
  iso: string;
  shutter_speed: string;
  title: string;
  orientation: string;
  keywords: string[];
}

/** The image types the reference reads metadata from. */
const READ_TYPES = new Set(['image/jpeg', 'image/tiff']);

/** exifr's settings: IPTC and the TIFF/EXIF directories only, raw values (dates as written), no GPS. */
const OPTIONS = {
  tiff: true,
  exif: true,
  iptc: true,
  gps: false,
  interop: false,
  ifd1: false,
  xmp: false,
  icc: false,
  jfif: false,
  ihdr: false,
  makerNote: false,
  userComment: true,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  mergeOutput: true,
  silentErrors: true,
};

type Tags = Record<string, unknown>;

/** A tag as trimmed text: strings, the first of a list, numbers; bytes (UserComment) without their charset prefix. */
function text(v: unknown): string {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'number') return String(v);
  if (v instanceof Uint8Array) {
    const body = /^(ASCII|UNICODE|JIS|\0{5})/.test(Buffer.from(v.subarray(0, 8)).toString('latin1')) ? v.subarray(8) : v;
    return Buffer.from(body).toString('utf8').replace(/\0+$/, '').trim();
  }
  return typeof v === 'string' ? v.replace(/\0+$/, '').trim() : '';
}

/** wp_exif_frac2dec: a rational as a number (`28/10` → 2.8); 0 when it is not one. */
function frac2dec(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:\/\s*(\d+(?:\.\d+)?))?\s*$/.exec(text(v));
  if (!m) return 0;
  return m[2] === undefined ? Number(m[1]) : Number(m[2]) ? Number(m[1]) / Number(m[2]) : 0;
}

/** A number printed as PHP prints a float (14 significant digits). */
const php = (n: number): string => String(Number(n.toPrecision(14)));

/** wp_exif_date2ts(): `YYYY:MM:DD HH:MM:SS` read as UTC, in seconds; 0 for anything else. */
export function exifDateToTimestamp(s: string | undefined): number {
  const m = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(s ?? '');
  if (!m) return 0;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

/** IPTC's date created (`YYYYMMDD`) and time created (`HHMMSS`, an offset after it), in seconds; 0 when unreadable. */
function iptcTimestamp(date: string, time: string): number {
  const d = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date);
  const t = /^(\d{2}):?(\d{2}):?(\d{2})(?:([+-])(\d{2}):?(\d{2}))?$/.exec(time);
  if (!d || !t) return 0;
  const offset = t[4] ? (t[4] === '-' ? -1 : 1) * (Number(t[5]) * 60 + Number(t[6])) : 0;
  const ms = Date.UTC(+d[1], +d[2] - 1, +d[3], +t[1], +t[2], +t[3]) - offset * 60_000;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

/** The reference's reading: IPTC first (headline, caption, credit, date, copyright, keywords), then EXIF for what is left. */
function fromTags(x: Tags): ImageMetaData {
  const meta = {
    aperture: 0,
    credit: '',
    camera: '',
    caption: '',
    created_timestamp: 0,
    copyright: '',
    focal_length: '0',
    iso: '0',
    shutter_speed: '0',
    title: '',
    orientation: 0,
  };
  meta.title = text(x.Headline) || text(x.ObjectName);
  const iptcCaption = text(x.Caption);
  if (iptcCaption) {
    if (!meta.title && Buffer.byteLength(iptcCaption) < 80) meta.title = iptcCaption;
    meta.caption = iptcCaption;
  }
  meta.credit = text(x.Credit) || text(x.Byline);
  if (text(x.DateCreated) && text(x.TimeCreated)) meta.created_timestamp = iptcTimestamp(text(x.DateCreated), text(x.TimeCreated));
  meta.copyright = text(x.CopyrightNotice);
  const keywords = (Array.isArray(x.Keywords) ? x.Keywords : x.Keywords === undefined ? [] : [x.Keywords]).map(text).filter(Boolean);

  const description = text(x.ImageDescription);
  const comment = text(x.UserComment);
  if (description) {
    if (!meta.title && Buffer.byteLength(description) < 80) meta.title = description;
    if (!meta.caption && comment)
      meta.caption = meta.title && description === meta.title ? comment : description === comment ? description : `${description} ${comment}`.trim();
    if (!meta.caption) meta.caption = description;
  } else if (!meta.caption && comment) {
    meta.caption = comment;
    if (!meta.title && Buffer.byteLength(comment) < 80) meta.title = comment;
  } else if (!meta.caption && text(x.XPComment)) {
    meta.caption = text(x.XPComment);
  }
  if (!meta.credit) meta.credit = text(x.Artist) || text(x.XPAuthor);
  if (!meta.copyright) meta.copyright = text(x.Copyright);
  if (frac2dec(x.FNumber)) meta.aperture = Math.round(frac2dec(x.FNumber) * 100) / 100;
  if (text(x.Model)) meta.camera = text(x.Model);
  if (!meta.created_timestamp && text(x.CreateDate)) meta.created_timestamp = exifDateToTimestamp(text(x.CreateDate));
  if (frac2dec(x.FocalLength)) meta.focal_length = php(frac2dec(x.FocalLength));
  if (text(x.ISO)) meta.iso = text(x.ISO);
  if (frac2dec(x.ExposureTime)) meta.shutter_speed = php(frac2dec(x.ExposureTime));
  if (typeof x.Orientation === 'number') meta.orientation = x.Orientation;

  // wp_kses_post_deep: every value is text through the post filter.
  const out = (v: string | number) => kses(typeof v === 'number' ? php(v) : v);
  return {
    aperture: out(meta.aperture),
    credit: out(meta.credit),
    camera: out(meta.camera),
    caption: out(meta.caption),
    created_timestamp: out(meta.created_timestamp),
    copyright: out(meta.copyright),
    focal_length: out(meta.focal_length),
    iso: out(meta.iso),
    shutter_speed: out(meta.shutter_speed),
    title: out(meta.title),
    orientation: out(meta.orientation),
    keywords: keywords.map(out),
  };
}

/** The metadata of an uploaded image of type `mime`; images the reference does not read report none. */
export async function readImageMeta(bytes: Buffer, mime: string): Promise<ImageMetaData> {
  const tags: unknown = READ_TYPES.has(mime) ? await exifr.parse(bytes, OPTIONS).catch(() => undefined) : undefined;
  return fromTags(tags && typeof tags === 'object' ? { ...tags } : {});
}
