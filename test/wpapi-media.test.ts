/**
 * The `wpapi` client's media calls, unmodified, against cms/v2 media: an upload (multipart, as the
 * client sends it), a read, an update, the list and a forced delete.
 */
import sharp from 'sharp';
import type { TestApp } from './support/app';
import { startAppForClients, wpapiClient } from './support/wpapi';

let app: TestApp;

beforeAll(async () => {
  app = await startAppForClients();
});
afterAll(async () => {
  await app.close();
});

describe('wpapi media against cms/v2', () => {
  it('uploads, reads, updates, lists and deletes media', async () => {
    const cms = await wpapiClient(app);
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 10, g: 120, b: 10 } } })
      .jpeg()
      .toBuffer();

    const created = await cms.media().file(jpeg, 'from-wpapi.jpg').create({ title: 'From wpapi', alt_text: 'Green' });
    expect(created).toMatchObject({ title: { raw: 'From wpapi' }, alt_text: 'Green', media_type: 'image', mime_type: 'image/jpeg' });
    expect(created.media_details).toMatchObject({ width: 320, height: 240 });
    expect(Object.keys(created.media_details.sizes)).toEqual(['thumbnail', 'medium', 'full']);

    const one = await cms.media().id(created.id);
    expect(one.source_url).toBe(created.source_url);
    const file = await fetch(one.source_url);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    const updated = await cms.media().id(created.id).update({ alt_text: 'Still green', caption: 'Grass' });
    expect(updated).toMatchObject({ alt_text: 'Still green', caption: { raw: 'Grass' } });

    const list = await cms.media().param('media_type', 'image');
    expect(list.map((m: { id: number }) => m.id)).toContain(created.id);
    expect(list._paging.total).toBe(1);

    const deleted = await cms.media().id(created.id).param('force', true).delete();
    expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });
    await expect(cms.media().id(created.id).get()).rejects.toMatchObject({ code: 'rest_post_invalid_id' });
    expect((await fetch(one.source_url)).status).toBe(404);
  });
});
