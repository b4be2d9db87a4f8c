/**
 * The file types the media library accepts: the reference's wp_get_mime_types() as filtered by
 * get_allowed_mime_types() (no Flash, no executables; HTML and JavaScript only for users with unfiltered_html), and
 * wp_check_filetype_and_ext(): the type comes from the file name's extension, never from the client's
 * Content-Type, and an image's real format (read from its bytes) overrides a wrong extension.
 */
import { can, type Caller } from '../auth/user';

/** Extension pattern → MIME type, in the reference's order. */
export const MIME_TYPES: Array<[string, string]> = [
  ['jpg|jpeg|jpe', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['png', 'image/png'],
  ['bmp', 'image/bmp'],
  ['tiff|tif', 'image/tiff'],
  ['webp', 'image/webp'],
  ['avif', 'image/avif'],
  ['ico', 'image/x-icon'],
  ['heic', 'image/heic'],
  ['heif', 'image/heif'],
  ['heics', 'image/heic-sequence'],
  ['heifs', 'image/heif-sequence'],
  ['asf|asx', 'video/x-ms-asf'],
  ['wmv', 'video/x-ms-wmv'],
  ['wmx', 'video/x-ms-wmx'],
  ['wm', 'video/x-ms-wm'],
  ['avi', 'video/avi'],
  ['divx', 'video/divx'],
  ['flv', 'video/x-flv'],
  ['mov|qt', 'video/quicktime'],
  ['mpeg|mpg|mpe', 'video/mpeg'],
  ['mp4|m4v', 'video/mp4'],
  ['ogv', 'video/ogg'],
  ['webm', 'video/webm'],
  ['mkv', 'video/x-matroska'],
  ['3gp|3gpp', 'video/3gpp'],
  ['3g2|3gp2', 'video/3gpp2'],
  ['txt|asc|c|cc|h|srt', 'text/plain'],
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
  ['ics', 'text/calendar'],
  ['rtx', 'text/richtext'],
  ['css', 'text/css'],
  ['htm|html', 'text/html'],
  ['vtt', 'text/vtt'],
  ['dfxp', 'application/ttaf+xml'],
  ['mp3|m4a|m4b', 'audio/mpeg'],
  ['aac', 'audio/aac'],
  ['ra|ram', 'audio/x-realaudio'],
  ['wav|x-wav', 'audio/wav'],
  ['ogg|oga', 'audio/ogg'],
  ['flac', 'audio/flac'],
  ['mid|midi', 'audio/midi'],
  ['wma', 'audio/x-ms-wma'],
  ['wax', 'audio/x-ms-wax'],
  ['mka', 'audio/x-matroska'],
  ['rtf', 'application/rtf'],
  ['js', 'application/javascript'],
  ['pdf', 'application/pdf'],
  ['swf', 'application/x-shockwave-flash'],
  ['class', 'application/java'],
  ['tar', 'application/x-tar'],
  ['zip', 'application/zip'],
  ['gz|gzip', 'application/x-gzip'],
  ['rar', 'application/rar'],
  ['7z', 'application/x-7z-compressed'],
  ['exe', 'application/x-msdownload'],
  ['psd', 'application/octet-stream'],
  ['xcf', 'application/octet-stream'],
  ['doc', 'application/msword'],
  ['pot|pps|ppt', 'application/vnd.ms-powerpoint'],
  ['wri', 'application/vnd.ms-write'],
  ['xla|xls|xlt|xlw', 'application/vnd.ms-excel'],
  ['mdb', 'application/vnd.ms-access'],
  ['mpp', 'application/vnd.ms-project'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['docm', 'application/vnd.ms-word.document.macroEnabled.12'],
  ['dotx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.template'],
  ['dotm', 'application/vnd.ms-word.template.macroEnabled.12'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
  ['xlsb', 'application/vnd.ms-excel.sheet.binary.macroEnabled.12'],
  ['xltx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.template'],
  ['xltm', 'application/vnd.ms-excel.template.macroEnabled.12'],
  ['xlam', 'application/vnd.ms-excel.addin.macroEnabled.12'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['pptm', 'application/vnd.ms-powerpoint.presentation.macroEnabled.12'],
  ['ppsx', 'application/vnd.openxmlformats-officedocument.presentationml.slideshow'],
  ['ppsm', 'application/vnd.ms-powerpoint.slideshow.macroEnabled.12'],
  ['potx', 'application/vnd.openxmlformats-officedocument.presentationml.template'],
  ['potm', 'application/vnd.ms-powerpoint.template.macroEnabled.12'],
  ['ppam', 'application/vnd.ms-powerpoint.addin.macroEnabled.12'],
  ['sldx', 'application/vnd.openxmlformats-officedocument.presentationml.slide'],
  ['sldm', 'application/vnd.ms-powerpoint.slide.macroEnabled.12'],
  ['onetoc|onetoc2|onetmp|onepkg', 'application/onenote'],
  ['oxps', 'application/oxps'],
  ['xps', 'application/vnd.ms-xpsdocument'],
  ['odt', 'application/vnd.oasis.opendocument.text'],
  ['odp', 'application/vnd.oasis.opendocument.presentation'],
  ['ods', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['odg', 'application/vnd.oasis.opendocument.graphics'],
  ['odc', 'application/vnd.oasis.opendocument.chart'],
  ['odb', 'application/vnd.oasis.opendocument.database'],
  ['odf', 'application/vnd.oasis.opendocument.formula'],
  ['wp|wpd', 'application/wordperfect'],
  ['key', 'application/vnd.apple.keynote'],
  ['numbers', 'application/vnd.apple.numbers'],
  ['pages', 'application/vnd.apple.pages'],
];

const BY_EXT = new Map<string, string>();
for (const [exts, mime] of MIME_TYPES) for (const e of exts.split('|')) if (!BY_EXT.has(e)) BY_EXT.set(e, mime);

export function extensionMime(ext: string): string | undefined {
  return BY_EXT.get(ext.toLowerCase());
}

/** Types only a caller with unfiltered_html may upload: pages and scripts a browser would run from the site. */
const UNFILTERED_TYPES = new Set(['htm|html', 'js']);

/** get_allowed_mime_types() for a caller (`true`: one with unfiltered_html): never Flash or executables. */
export function allowedMimeTypes(user: Caller | true): Array<[string, string]> {
  const unfiltered = user === true || can(user, 'unfiltered_html');
  return MIME_TYPES.filter(([exts]) => exts !== 'swf' && exts !== 'exe' && (unfiltered || !UNFILTERED_TYPES.has(exts)));
}

/** The media types (MIME top-level parts) of every allowed type: the list filter's `media_type` values. */
export function mediaTypes(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [, mime] of allowedMimeTypes(true)) {
    const top = mime.split('/')[0];
    const list = (out[top] ??= []);
    if (!list.includes(mime)) list.push(mime);
  }
  return out;
}

/** Image formats read from the first bytes; the reference trusts these over the extension. */
export function sniffImage(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp') {
    const brand = b.toString('latin1', 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'heim', 'heis'].includes(brand)) return 'image/heic';
    if (brand === 'mif1' || brand === 'msf1') return 'image/heif';
  }
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'image/bmp';
  if (b.length >= 4 && (b.readUInt32BE(0) === 0x49492a00 || b.readUInt32BE(0) === 0x4d4d002a)) return 'image/tiff';
  return null;
}

export interface CheckedFile {
  /** The file name to store (extension corrected for a mislabelled image). */
  name: string;
  ext: string;
  mime: string;
}

/**
 * wp_check_filetype_and_ext(): the extension must name an allowed type; an image whose bytes say
 * another image format gets that format's extension; a file named as an image that is none is refused.
 * Returns null when the type is not allowed.
 */
export function checkFileType(name: string, bytes: Buffer, user: Caller): CheckedFile | null {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  if (!m) return null;
  const ext = m[1].toLowerCase();
  const allowed = allowedMimeTypes(user);
  const find = (e: string) => allowed.find(([exts]) => exts.split('|').includes(e))?.[1];
  const mime = find(ext);
  if (!mime) return null;
  const real = sniffImage(bytes);
  if (mime.startsWith('image/') && mime !== 'image/x-icon') {
    if (!real) return null;
    if (real !== mime) {
      const entry = allowed.find(([, t]) => t === real);
      if (!entry) return null;
      const newExt = entry[0].split('|')[0];
      return { name: name.slice(0, -ext.length) + newExt, ext: newExt, mime: real };
    }
  } else if (real && !mime.startsWith('image/')) {
    // An image under another extension: the reference refuses the mismatch.
    return null;
  }
  return { name, ext, mime };
}
