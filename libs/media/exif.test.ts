import sharp from 'sharp';
import { readImageMeta } from './exif';

const photo = () => sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 9, g: 9, b: 9 } } }).jpeg();

/** A JPEG with an IPTC block (Photoshop APP13, resource 0x0404) of the given records (dataset, value). */
function withIptc(jpeg: Buffer, records: Array<[number, string]>): Buffer {
  const iptc = Buffer.concat(
    records.map(([dataset, value]) => {
      const bytes = Buffer.from(value, 'utf8');
      return Buffer.concat([Buffer.from([0x1c, 2, dataset, bytes.length >> 8, bytes.length & 255]), bytes]);
    }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iptc.length);
  const resource = Buffer.concat([Buffer.from('8BIM'), Buffer.from([0x04, 0x04, 0, 0]), size, iptc, Buffer.alloc(iptc.length % 2)]);
  const body = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xed]), length, body, jpeg.subarray(2)]);
}

const NONE = {
  aperture: '0',
  credit: '',
  camera: '',
  caption: '',
  created_timestamp: '0',
  copyright: '',
  focal_length: '0',
  iso: '0',
  shutter_speed: '0',
  title: '',
  orientation: '0',
  keywords: [],
};

describe('wp_read_image_metadata', () => {
  it("reads the camera's EXIF tags as the reference reports them; a short description is title and caption", async () => {
    const shot = await photo()
      .withExif({
        IFD0: { Model: 'Test Cam', Artist: 'Ann <script>x</script>Example', Copyright: '(c) Ann', ImageDescription: 'Night street' },
        IFD2: {
          DateTimeOriginal: '2024:05:06 07:08:09',
          DateTimeDigitized: '2024:05:06 07:08:10',
          FNumber: '28/10',
          ISOSpeedRatings: '200',
          ExposureTime: '1/3',
          FocalLength: '35/1',
        },
      })
      .toBuffer();
    expect(await readImageMeta(shot, 'image/jpeg')).toEqual({
      aperture: '2.8',
      credit: 'Ann xExample',
      camera: 'Test Cam',
      caption: 'Night street',
      created_timestamp: String(Date.UTC(2024, 4, 6, 7, 8, 10) / 1000),
      copyright: '(c) Ann',
      focal_length: '35',
      iso: '200',
      shutter_speed: '0.33333333333333',
      title: 'Night street',
      orientation: '1',
      keywords: [],
    });
  });

  it('reads IPTC first: headline, caption, credit, date and time, copyright, keywords; EXIF fills the rest', async () => {
    const exif = await photo()
      .withExif({ IFD0: { Model: 'Cam 2', Artist: 'EXIF Artist', Copyright: 'EXIF (c)', ImageDescription: 'EXIF text' } })
      .toBuffer();
    const shot = withIptc(exif, [
      [105, 'Harbour at dawn'],
      [120, 'Boats leaving the harbour before sunrise'],
      [110, 'Agency'],
      [55, '20240506'],
      [60, '070809+0200'],
      [116, '(c) Agency'],
      [25, 'harbour'],
      [25, 'dawn'],
    ]);
    expect(await readImageMeta(shot, 'image/jpeg')).toMatchObject({
      title: 'Harbour at dawn',
      caption: 'Boats leaving the harbour before sunrise',
      credit: 'Agency',
      copyright: '(c) Agency',
      created_timestamp: String(Date.UTC(2024, 4, 6, 5, 8, 9) / 1000),
      camera: 'Cam 2',
      keywords: ['harbour', 'dawn'],
    });
  });

  it('reads the orientation tag', async () => {
    const shot = await photo().withMetadata({ orientation: 6 }).toBuffer();
    expect((await readImageMeta(shot, 'image/jpeg')).orientation).toBe('6');
  });

  it('reports nothing for the types the reference does not read, and for unreadable data', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
      .png()
      .withExif({ IFD0: { Model: 'PNG Cam' } })
      .toBuffer();
    expect(await readImageMeta(png, 'image/png')).toEqual(NONE);
    expect(await readImageMeta(Buffer.from('not an image at all'), 'image/jpeg')).toEqual(NONE);
    const cut = await photo()
      .withExif({ IFD0: { Model: 'Cut' } })
      .toBuffer();
    expect(await readImageMeta(cut.subarray(0, 40), 'image/jpeg')).toEqual(NONE);
  });
});
