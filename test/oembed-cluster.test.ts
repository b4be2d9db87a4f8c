/**
 * oEmbed in cluster mode: the gateway routes oembed/1.0 to the oembed service process, which answers
 * this site's URLs itself and hands other lookups to a worker process through BullMQ; the XML form
 * crosses the signed service call intact, and the cache in MongoDB serves the second lookup.
 */
import { startCluster, type Cluster } from './support/cluster';
import { startProvider, type Provider } from './support/oembed-provider';

let cluster: Cluster;
let provider: Provider;

beforeAll(async () => {
  provider = await startProvider();
  cluster = await startCluster();
  // The worker that fetches must be allowed to reach the provider on loopback.
  await cluster.kill('worker');
  await cluster.startProcess('worker', 'oembed-worker', { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await provider?.close();
}, 60000);

const proxy = (query: Record<string, string>) => `/oembed/1.0/proxy?${new URLSearchParams(query).toString()}`;

it('answers the embed of a local post as XML through the gateway', async () => {
  const post = (await cluster.admin('POST', '/cms/v2/posts', { body: { title: 'Clustered', status: 'publish' } })).body;
  const res = await cluster.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}&format=xml&maxwidth=400`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
  expect(res.text).toContain('<title>Clustered</title><type>rich</type><width>400</width><height>225</height>');
});

it('fetches an external provider on the worker once, then serves the cache', async () => {
  const first = await cluster.admin('GET', proxy({ url: `${provider.base}/video` }));
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ type: 'video', provider_name: 'Tube' });
  expect(first.body.html).toContain('sandbox="allow-scripts"');
  expect(provider.hits).toHaveLength(2);
  const again = await cluster.admin('GET', proxy({ url: `${provider.base}/video`, format: 'xml' }));
  expect(again.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
  expect(again.text).toContain('<type>video</type>');
  expect(provider.hits).toHaveLength(2);
});
