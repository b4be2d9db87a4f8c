/**
 * The names of an upload's files, as the reference's wp_unique_filename() picks them: the sanitized
 * name, else `name-1.ext`, `name-2.ext`, ... until the upload and every file made from it (the rotated
 * or `-scaled` copy and the `-WxH` sizes) are free. Each candidate is taken with the storage's atomic
 * create, so two uploads of one name at once end with a name each.
 *
 * File systems keep a name in 255 bytes. As the reference's wp_tempnam() does for its files, a name too
 * long for that is shortened at the end of its stem (whole characters, the extension kept), here so that
 * the longest name the upload makes, suffixes included, fits.
 */
import type { ProcessedImage } from './images';

/** The most bytes a file name may have (ext4, XFS, APFS, NTFS in UTF-16 units; GridFS keeps what the folder adapter can). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * The longest suffix an image's derived files add to the stem: `-rotated` (8 bytes, longer than
 * `-scaled`) and a size `-2560x2560` (sizes are made from a copy scaled to at most 2560 px).
 */
export const DERIVED_SUFFIX_BYTES = '-rotated'.length + '-2560x2560'.length;

export interface NameParts {
  stem: string;
  /** The extension with its dot, or ''. */
  ext: string;
}

export function splitName(name: string): NameParts {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: '' };
}

/** The stem cut at its end, by whole characters, to at most `bytes` UTF-8 bytes. */
function cutTo(stem: string, bytes: number): string {
  if (Buffer.byteLength(stem) <= bytes) return stem;
  let out = '';
  let used = 0;
  for (const ch of stem) {
    const n = Buffer.byteLength(ch);
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  // A cut that ends on a separator reads as a fragment; sanitize_file_name trims those too.
  return out.replace(/[.\-_]+$/, '');
}

/**
 * A candidate name of an upload: the stem, a `suffix` (none, then `-1`, `-2`, ...) and the extension,
 * the stem shortened so that the name and the names derived from it (`reserve` more bytes:
 * DERIVED_SUFFIX_BYTES for images that get sizes) fit in MAX_FILE_NAME_BYTES.
 */
export function candidateName({ stem, ext }: NameParts, suffix: string, reserve: number): string {
  const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(suffix + ext) - reserve;
  const cut = cutTo(stem, Math.max(1, room)) || stem.slice(0, 1);
  return `${cut}${suffix}${ext}`;
}

const stemOf = (name: string) => splitName(name).stem;

/**
 * The processed image with its files named after another name of the upload: every derived name
 * starts with the stem of the name it was made for, which is swapped for the new one.
 */
export function renameProcessed(p: ProcessedImage, from: string, to: string): ProcessedImage {
  const [a, b] = [stemOf(from), stemOf(to)];
  const swap = (name: string) => (name === from ? to : name.startsWith(a) ? b + name.slice(a.length) : name);
  const meta = p.metadata;
  const sizes = Object.fromEntries(Object.entries(meta.sizes).map(([k, s]) => [k, { ...s, file: swap(s.file) }]));
  const file = meta.file === undefined ? undefined : meta.file.replace(/[^/]*$/, (base) => swap(base));
  return {
    files: p.files.map((f) => ({ ...f, name: swap(f.name) })),
    attached: swap(p.attached),
    metadata: {
      ...meta,
      sizes,
      ...(file !== undefined ? { file } : {}),
      ...(meta.original_image !== undefined ? { original_image: swap(meta.original_image) } : {}),
    },
  };
}
