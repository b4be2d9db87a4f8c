/**
 * cms-site-health/v1 and cms-abilities/v1 in cluster mode: the content service sees the real BullMQ
 * workers and MongoDB, and abilities run in the gateway reach the calendar service over signed HTTP.
 */
import { startCluster, type Cluster } from './support/cluster';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 180000);

afterAll(async () => {
  await cluster?.stop();
}, 60000);

describe('cms namespaces in cluster mode', () => {
  it('site health sees MongoDB and the worker consuming every queue', async () => {
    const store = await cluster.admin('GET', '/cms-site-health/v1/tests/store');
    expect(store.status).toBe(200);
    // Reachable: good, or recommended when the shared machine makes the ping slow (timings are not asserted).
    expect(store.body.test).toBe('store');
    expect(['good', 'recommended']).toContain(store.body.status);
    expect(store.body.description).toContain('MongoDB');
    const queues = await cluster.admin('GET', '/cms-site-health/v1/tests/queues');
    expect(queues.body).toMatchObject({ test: 'queues', status: 'good', label: 'Every job queue has workers' });
    const sizes = await cluster.admin('GET', '/cms-site-health/v1/directory-sizes');
    expect(sizes.status).toBe(200);
    expect(Object.keys(sizes.body)).toEqual(['raw', 'data_size', 'uploads_size', 'database_size', 'total_size']);
  });

  it('runs calendar abilities through the gateway as the caller', async () => {
    const input = { title: 'Cluster ability', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00', status: 'publish' };
    const guest = await cluster.request('POST', '/cms-abilities/v1/abilities/events-calendar/create-event/run', { body: { input } });
    expect([guest.status, guest.body.code]).toEqual([401, 'rest_ability_cannot_execute']);
    const made = await cluster.admin('POST', '/cms-abilities/v1/abilities/events-calendar/create-event/run', { body: { input } });
    expect(made.status).toBe(200);
    const found = await cluster.request('GET', '/cms-abilities/v1/abilities/events-calendar/find-events/run?input[search]=Cluster');
    expect(found.status).toBe(200);
    expect(found.body.events.map((e: { id: number }) => e.id)).toEqual([made.body.id]);
  });

  it('reports queues without a worker as critical once the worker is gone', async () => {
    await cluster.kill('worker');
    // BullMQ lists a worker by its Redis connection, which closes with the process.
    let res;
    for (let i = 0; i < 40; i++) {
      res = await cluster.admin('GET', '/cms-site-health/v1/tests/queues');
      if (res.body.status === 'critical') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(res!.body).toMatchObject({ status: 'critical', label: 'Some job queues have no worker' });
  });
});
