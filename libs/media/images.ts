/**
 * What the reference's wp_generate_attachment_metadata() does to an uploaded image, with sharp: the
 * EXIF orientation applied (a `-rotated` copy becomes the attached file, the upload is kept as
 * `original_image`), images beyond the big-image threshold scaled to a `-scaled` copy, and the
 * registered intermediate sizes made (only those smaller than the image, as the reference).
 */
import sharp, { type Sharp } from 'sharp';
import { readImageMeta, type ImageMetaData } from './exif';

export type { ImageMetaData } from './exif';

export interface SizeSpec {
  width: number;
  height: number;
  crop: boolean;
}

/** The reference's default sizes (thumbnail, medium, medium_large, large and the two core extra sizes). */
export const IMAGE_SIZES: Record<string, SizeSpec> = {
  thumbnail: { width: 150, height: 150, crop: true },
  medium: { width: 300, height: 300, crop: false },
  medium_large: { width: 768, height: 0, crop: false },
  large: { width: 1024, height: 1024, crop: false },
  '1536x1536': { width: 1536, height: 1536, crop: false },
  '2048x2048': { width: 2048, height: 2048, crop: false },
};

/** big_image_size_threshold. */
export const BIG_IMAGE_THRESHOLD = 2560;

/** Formats sharp can resize and write back in the same format (the reference's image editor support). */
export const EDITABLE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);

export interface SizeMeta {
  file: string;
  width: number;
  height: number;
  'mime-type': string;
  filesize: number;
}

export interface AttachmentMetadata {
  width?: number;
  height?: number;
  /** Path of the attached file relative to the uploads root. */
  file?: string;
  filesize?: number;
  sizes: Record<string, SizeMeta>;
  image_meta?: ImageMetaData;
  /** Basename of the uploaded file when the attached one is a rotated or scaled copy. */
  original_image?: string;
}

/** image_resize_dimensions(): the size of a derived image, or null when none should be made. */
export function resizeDimensions(ow: number, oh: number, spec: SizeSpec): { width: number; height: number } | null {
  if (ow <= 0 || oh <= 0) return null;
  let w: number;
  let h: number;
  if (spec.crop) {
    w = Math.min(spec.width || ow, ow);
    h = Math.min(spec.height || oh, oh);
  } else {
    // wp_constrain_dimensions: fit inside the box, 0 meaning unbounded.
    const rw = spec.width ? spec.width / ow : 1;
    const rh = spec.height ? spec.height / oh : 1;
    const r = Math.min(rw, rh, 1);
    w = Math.max(1, Math.round(ow * r));
    h = Math.max(1, Math.round(oh * r));
  }
  // A size the same as the original is not made.
  if (w >= ow && h >= oh) return null;
  return { width: w, height: h };
}

type Encoder = (s: Sharp) => Sharp;
const ENCODERS: Record<string, Encoder> = {
  'image/jpeg': (s) => s.jpeg({ quality: 82 }),
  'image/png': (s) => s.png(),
  'image/gif': (s) => s.gif(),
  'image/webp': (s) => s.webp({ quality: 86 }),
  'image/avif': (s) => s.avif(),
  'image/tiff': (s) => s.tiff(),
};

export interface ProcessedImage {
  /** Files to store besides the upload itself: relative name → bytes. */
  files: Array<{ name: string; bytes: Buffer; mime: string }>;
  /** Name of the attached file (the upload, or its rotated or scaled copy). */
  attached: string;
  metadata: AttachmentMetadata;
}

const stem = (name: string) => name.replace(/\.[^.]+$/, '');
const extOf = (name: string) => /\.[^.]+$/.exec(name)?.[0] ?? '';

/**
 * Makes the metadata and derived files of an image upload named `name` (a basename) in folder `dir`
 * (`2026/11`). Throws when sharp cannot read the image.
 */
export async function processImage(bytes: Buffer, name: string, dir: string, mime: string, opts: { subSizes?: boolean } = {}): Promise<ProcessedImage> {
  // Without sub-sizes (a client that makes its own) the reference leaves orientation and size alone too.
  const derive = opts.subSizes !== false;
  const sizes = derive ? IMAGE_SIZES : {};
  const meta = await sharp(bytes, { failOn: 'none' }).metadata();
  const orientation = meta.orientation ?? 1;
  let width = meta.width ?? 0;
  let height = meta.height ?? 0;
  const files: ProcessedImage['files'] = [];
  let attached = name;
  let base: Buffer = bytes;
  const encode = ENCODERS[mime];
  const rel = (n: string) => (dir ? `${dir}/${n}` : n);

  if (encode && derive && orientation > 1) {
    // The reference rotates to upright and keeps the upload as the original image.
    base = await encode(sharp(bytes, { failOn: 'none' }).rotate()).toBuffer();
    const m = await sharp(base).metadata();
    width = m.width ?? width;
    height = m.height ?? height;
    attached = `${stem(name)}-rotated${extOf(name)}`;
    files.push({ name: attached, bytes: base, mime });
  }
  if (encode && derive && (width > BIG_IMAGE_THRESHOLD || height > BIG_IMAGE_THRESHOLD)) {
    const scaled = await encode(sharp(base, { failOn: 'none' }).resize(BIG_IMAGE_THRESHOLD, BIG_IMAGE_THRESHOLD, { fit: 'inside' })).toBuffer();
    const m = await sharp(scaled).metadata();
    width = m.width ?? width;
    height = m.height ?? height;
    base = scaled;
    const scaledName = `${stem(name)}-scaled${extOf(name)}`;
    // A rotated copy is only a step on the way; the scaled one replaces it.
    if (attached !== name) files.pop();
    attached = scaledName;
    files.push({ name: attached, bytes: scaled, mime });
  }

  const out: AttachmentMetadata = {
    width,
    height,
    file: rel(attached),
    filesize: base.length,
    sizes: {},
    image_meta: await readImageMeta(bytes, mime),
  };
  if (attached !== name) out.original_image = name;

  if (encode) {
    const attachedStem = stem(attached);
    for (const [size, spec] of Object.entries(sizes)) {
      const dims = resizeDimensions(width, height, spec);
      if (!dims) continue;
      const resized = await encode(
        sharp(base, { failOn: 'none' }).resize(dims.width, dims.height, { fit: spec.crop ? 'cover' : 'fill', position: 'centre' }),
      ).toBuffer();
      const file = `${attachedStem}-${dims.width}x${dims.height}${extOf(name)}`;
      // Sizes of the same dimensions share one file, as the reference's do.
      if (!files.some((f) => f.name === file)) files.push({ name: file, bytes: resized, mime });
      out.sizes[size] = { file, width: dims.width, height: dims.height, 'mime-type': mime, filesize: resized.length };
    }
  }
  return { files, attached, metadata: out };
}
