/**
 * The few EXIF tags the reference's wp_read_image_metadata() reports (camera, credit, copyright,
 * caption, date taken, aperture, focal length, ISO, shutter speed), read from the TIFF structure of
 * an EXIF block (as sharp hands it over: `Exif\0\0` then the TIFF header). Unknown or malformed data
 * reads as no tags.
 */

export interface ExifTags {
  Make?: string;
  Model?: string;
  Artist?: string;
  Copyright?: string;
  ImageDescription?: string;
  DateTimeOriginal?: string;
  FNumber?: number;
  FocalLength?: number;
  ISOSpeedRatings?: number;
  ExposureTime?: number;
}

const NAMES: Record<number, keyof ExifTags> = {
  0x010e: 'ImageDescription',
  0x010f: 'Make',
  0x0110: 'Model',
  0x013b: 'Artist',
  0x8298: 'Copyright',
  0x9003: 'DateTimeOriginal',
  0x829d: 'FNumber',
  0x920a: 'FocalLength',
  0x8827: 'ISOSpeedRatings',
  0x829a: 'ExposureTime',
};
const EXIF_IFD = 0x8769;
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

export function readExif(block: Buffer | undefined): ExifTags {
  const out: ExifTags = {};
  if (!block || block.length < 14) return out;
  const start = block.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0;
  const t = block.subarray(start);
  if (t.length < 8) return out;
  const le = t.toString('latin1', 0, 2) === 'II';
  if (!le && t.toString('latin1', 0, 2) !== 'MM') return out;
  const u16 = (o: number) => (le ? t.readUInt16LE(o) : t.readUInt16BE(o));
  const u32 = (o: number) => (le ? t.readUInt32LE(o) : t.readUInt32BE(o));
  const seen = new Set<number>();
  const walk = (ifd: number): void => {
    if (seen.has(ifd) || ifd + 2 > t.length) return;
    seen.add(ifd);
    const count = u16(ifd);
    for (let i = 0; i < count; i++) {
      const e = ifd + 2 + i * 12;
      if (e + 12 > t.length) return;
      const tag = u16(e);
      const type = u16(e + 2);
      const n = u32(e + 4);
      const size = (TYPE_SIZE[type] ?? 0) * n;
      const at = size > 4 ? u32(e + 8) : e + 8;
      if (tag === EXIF_IFD) {
        walk(u32(e + 8));
        continue;
      }
      const name = NAMES[tag];
      if (!name || !size || at + size > t.length) continue;
      let value: string | number | undefined;
      if (type === 2)
        value = t
          .toString('latin1', at, at + size)
          .replace(/\0[\s\S]*$/, '')
          .trim();
      else if (type === 3) value = u16(at);
      else if (type === 4) value = u32(at);
      else if (type === 5 || type === 10) {
        const den = u32(at + 4);
        value = den ? u32(at) / den : undefined;
      }
      if (value !== undefined && value !== '') (out as Record<string, unknown>)[name] = value;
    }
  };
  try {
    walk(u32(4));
  } catch {
    // A truncated block: keep what was read.
  }
  return out;
}

/** wp_exif_date2ts(): `YYYY:MM:DD HH:MM:SS` read as UTC, in seconds. */
export function exifDateToTimestamp(s: string | undefined): number {
  const m = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(s ?? '');
  if (!m) return 0;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}
