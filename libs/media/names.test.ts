import type { ProcessedImage } from './images';
import { DERIVED_SUFFIX_BYTES, MAX_FILE_NAME_BYTES, candidateName, renameProcessed, splitName } from './names';

describe('upload file names', () => {
  it('counts candidates as wp_unique_filename does', () => {
    const parts = splitName('photo.jpg');
    expect(['', '-1', '-2'].map((s) => candidateName(parts, s, 0))).toEqual(['photo.jpg', 'photo-1.jpg', 'photo-2.jpg']);
    expect(splitName('archive.tar.gz')).toEqual({ stem: 'archive.tar', ext: '.gz' });
  });

  it('shortens the stem by whole characters so the name and its derived names fit 255 bytes', () => {
    const long = splitName(`${'a'.repeat(300)}.txt`);
    expect(Buffer.byteLength(candidateName(long, '', 0))).toBe(MAX_FILE_NAME_BYTES);
    expect(Buffer.byteLength(candidateName(long, '-12', 0))).toBe(MAX_FILE_NAME_BYTES);
    expect(Buffer.byteLength(candidateName(long, '', DERIVED_SUFFIX_BYTES))).toBe(MAX_FILE_NAME_BYTES - DERIVED_SUFFIX_BYTES);
    // Two-byte characters are never split.
    const wide = candidateName(splitName(`${'é'.repeat(200)}.png`), '-1', DERIVED_SUFFIX_BYTES);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES - DERIVED_SUFFIX_BYTES);
    expect(wide).toMatch(/^é+-1\.png$/);
    // A short name is left alone, and a cut never ends the stem on a separator.
    expect(candidateName(splitName('short.txt'), '', DERIVED_SUFFIX_BYTES)).toBe('short.txt');
    expect(candidateName(splitName(`${'a'.repeat(250)}-${'b'.repeat(10)}.txt`), '', 0)).toBe(`${'a'.repeat(250)}.txt`);
  });

  it("renames an image's derived files and metadata after another name", () => {
    const made: ProcessedImage = {
      files: [
        { name: 'photo-scaled.jpg', bytes: Buffer.from('s'), mime: 'image/jpeg' },
        { name: 'photo-scaled-150x150.jpg', bytes: Buffer.from('t'), mime: 'image/jpeg' },
      ],
      attached: 'photo-scaled.jpg',
      metadata: {
        file: '2026/11/photo-scaled.jpg',
        original_image: 'photo.jpg',
        sizes: { thumbnail: { file: 'photo-scaled-150x150.jpg', width: 150, height: 150, 'mime-type': 'image/jpeg', filesize: 1 } },
      },
    };
    const r = renameProcessed(made, 'photo.jpg', 'photo-2.jpg');
    expect(r.files.map((f) => f.name)).toEqual(['photo-2-scaled.jpg', 'photo-2-scaled-150x150.jpg']);
    expect(r.attached).toBe('photo-2-scaled.jpg');
    expect(r.metadata).toMatchObject({
      file: '2026/11/photo-2-scaled.jpg',
      original_image: 'photo-2.jpg',
      sizes: { thumbnail: { file: 'photo-2-scaled-150x150.jpg' } },
    });
  });
});
