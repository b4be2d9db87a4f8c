import { imageSize } from './images';

describe('image sizes from file headers', () => {
  it('reads PNG, GIF, JPEG and WebP dimensions', () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 1, 0, 0, 0, 0, 200])]);
    expect(imageSize(png)).toEqual({ width: 256, height: 200 });
    const gif = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0]);
    expect(imageSize(gif)).toEqual({ width: 10, height: 20 });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0, 30, 0, 40, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(imageSize(jpeg)).toEqual({ width: 40, height: 30 });
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8X'), Buffer.alloc(8), Buffer.from([99, 0, 0, 49, 0, 0])]);
    expect(imageSize(webp)).toEqual({ width: 100, height: 50 });
    expect(imageSize(Buffer.from('not an image at all, just text'))).toBeNull();
  });
});
