/**
 * A batch of 25 post creates in cluster mode runs on a separate worker process; when that worker dies
 * in the middle of the batch, another worker takes the job over and the batch still leaves exactly 25
 * posts, because every sub-request's effect is keyed by the job.
 */
import { MongoClient } from 'mongodb';
import { startCluster, type Cluster } from './support/cluster';
import { startSlowProxy, type SlowProxy } from './support/slow-proxy';

let cluster: Cluster;
let mongo: MongoClient;
let proxy: SlowProxy;

beforeAll(async () => {
  cluster = await startCluster();
  mongo = await MongoClient.connect(cluster.env.MONGO_URL);
}, 180000);

afterAll(async () => {
  proxy?.close();
  await mongo?.close();
  await cluster?.stop();
}, 60000);

const batchPosts = () =>
  mongo
    .db(cluster.env.MONGO_DB)
    .collection('posts')
    .countDocuments({ type: 'post', batch_key: { $exists: true } });

describe('batch of post creates on a worker that dies', () => {
  it('leaves exactly 25 posts after the worker is killed mid-batch and another takes over', async () => {
    const requests = Array.from({ length: 25 }, (_, i) => ({
      method: 'POST',
      path: '/cms/v2/posts',
      body: { title: `Cluster batch ${i}`, content: 'Made on a worker.', status: 'publish' },
    }));

    // Only a worker that reaches the content service through the slow pass-through runs the batch.
    await cluster.kill('worker', 'SIGTERM');
    proxy = await startSlowProxy(cluster.env.CONTENT_SERVICE_URL, 150);
    await cluster.startProcess('worker', 'slow-worker', { CONTENT_SERVICE_URL: proxy.url });
    const answer = cluster.admin('POST', '/batch/v1', { body: { requests } });

    const deadline = Date.now() + 60000;
    let seen = 0;
    while (Date.now() < deadline && seen < 3) {
      seen = await batchPosts();
      await new Promise((r) => setTimeout(r, 20));
    }
    await cluster.kill('slow-worker', 'SIGKILL');
    const atKill = await batchPosts();
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(atKill).toBeLessThan(25);

    await cluster.startProcess('worker', 'worker-2');
    const res = await answer;
    expect(res.status).toBe(207);
    expect(res.body.responses).toHaveLength(25);
    expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual(new Array(25).fill(201));
    const ids = res.body.responses.map((r: { body: { id: number } }) => r.body.id);
    expect(new Set(ids).size).toBe(25);
    expect(await batchPosts()).toBe(25);

    const list = await cluster.request('GET', '/cms/v2/posts?search=Cluster%20batch&per_page=100');
    expect(list.headers.get('x-wp-total')).toBe('25');
  }, 150000);
});
