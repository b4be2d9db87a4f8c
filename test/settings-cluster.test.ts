/**
 * Site settings in cluster mode: an administrator changes them through the content service process,
 * and the gateway process (which serves the cached site index) picks the change up from the store.
 */
import { startCluster, type Cluster } from './support/cluster';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 180000);

afterAll(async () => {
  await cluster?.stop();
}, 60000);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

describe('settings across processes', () => {
  it('a title and time zone set through the content service reach the gateway index', async () => {
    // Fill the gateway's cached index first.
    expect((await cluster.request('GET', '/')).body.timezone_string).toBe('');
    const res = await cluster.admin('POST', '/cms/v2/settings', { body: { title: 'Cluster Calendar', timezone: 'Asia/Tokyo' } });
    expect(res.status).toBe(200);
    const index = await eventually(
      async () => (await cluster.request('GET', '/')).body,
      (b) => b.name === 'Cluster Calendar',
    );
    expect(index).toMatchObject({ name: 'Cluster Calendar', timezone_string: 'Asia/Tokyo', gmt_offset: '9' });
    // The content service reads dates in the new zone at once.
    const post = await cluster.admin('POST', '/cms/v2/posts', { body: { title: 'Tokyo time', date: '2024-03-01T09:00:00' } });
    expect(post.body.date_gmt).toBe('2024-03-01T00:00:00');
  });
});
