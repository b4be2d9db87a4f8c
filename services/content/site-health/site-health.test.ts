/** cms-site-health/v1: permissions per role, every check over HTTP, and each check's verdicts under controlled conditions. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobQueue } from '#libs/queue/types';
import { siteFrom } from '#libs/rest/site';
import { SqliteStore } from '#libs/store/sqlite';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';
import { authorizationHeader, diskCheck, directorySizes, httpsStatus, queuesCheck, sizeFormat, storeCheck, type HealthDeps } from './checks';

const NS = '/cms-site-health/v1';
const ROUTES = ['tests/https-status', 'tests/authorization-header', 'tests/store', 'tests/queues', 'tests/disk-space', 'directory-sizes'];
const SHAPE = {
  label: expect.any(String),
  status: expect.stringMatching(/^(good|recommended|critical)$/),
  badge: { label: expect.any(String), color: expect.any(String) },
  description: expect.any(String),
  actions: expect.any(String),
  test: expect.any(String),
};

describe('cms-site-health/v1 over HTTP', () => {
  let app: TestApp;
  let users: RoleUsers;

  beforeAll(async () => {
    app = await startTestApp();
    users = await createRoleUsers(app, 'sh');
  });
  afterAll(() => app.close());

  it('lists its routes, with the test schema on OPTIONS', async () => {
    const res = await app.request('GET', NS);
    expect(Object.keys(res.body.routes)).toEqual([`/${NS.slice(1)}`, ...ROUTES.map((r) => `${NS}/${r}`)]);
    const opts = await app.request('OPTIONS', `${NS}/tests/store`);
    expect(opts.body.schema.title).toBe('cms-site-health-test');
    expect(opts.body.schema.properties.status.enum).toEqual(['good', 'recommended', 'critical']);
  });

  it('needs view_site_health_checks: rest_forbidden 401 for a guest, 403 for every role below administrator', async () => {
    for (const route of ROUTES) {
      const guest = await users.as('guest', 'GET', `${NS}/${route}`);
      expect([route, guest.status, guest.body]).toEqual([
        route,
        401,
        { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
      ]);
      for (const role of ['subscriber', 'editor'] as const) {
        const res = await users.as(role, 'GET', `${NS}/${route}`);
        expect([route, role, res.status, res.body.code]).toEqual([route, role, 403, 'rest_forbidden']);
      }
      expect((await users.as('administrator', 'GET', `${NS}/${route}`)).status).toBe(200);
    }
  });

  it('answers each test in the reference result shape', async () => {
    const expected: Record<string, string> = {
      'https-status': 'https_status',
      'authorization-header': 'authorization_header',
      store: 'store',
      queues: 'queues',
      'disk-space': 'disk_space',
    };
    for (const [route, test] of Object.entries(expected)) {
      const res = await app.admin('GET', `${NS}/tests/${route}`);
      expect(res.body).toEqual({ ...SHAPE, test });
    }
    // The test site is served over plain HTTP, credentials arrived in the header, the store and the inline queue are there.
    expect((await app.admin('GET', `${NS}/tests/https-status`)).body.status).toBe('recommended');
    expect((await app.admin('GET', `${NS}/tests/authorization-header`)).body.status).toBe('good');
    // Reachable (the slow-ping rule is tested below with a controlled clock; timings are not asserted here).
    expect((await app.admin('GET', `${NS}/tests/store`)).body.status).not.toBe('critical');
    expect((await app.admin('GET', `${NS}/tests/queues`)).body).toMatchObject({ status: 'good', label: 'Queued work runs in this process' });
  });

  it('reports a store that fails as critical', async () => {
    const ping = jest.spyOn(SqliteStore.prototype, 'ping').mockRejectedValueOnce(new Error('disk I/O error'));
    try {
      const res = await app.admin('GET', `${NS}/tests/store`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'critical', label: 'The store cannot be reached', test: 'store' });
      expect(res.body.description).toContain('disk I/O error');
    } finally {
      ping.mockRestore();
    }
  });

  it('reports directory sizes in the reference shape, uploads and the store counted apart', async () => {
    const uploads = join(app.config.DATA_DIR, 'uploads', '2026', '11');
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(uploads, 'a.bin'), Buffer.alloc(3000));
    writeFileSync(join(app.config.DATA_DIR, 'notes.txt'), Buffer.alloc(500));
    const res = await app.admin('GET', `${NS}/directory-sizes`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['raw', 'data_size', 'uploads_size', 'database_size', 'total_size']);
    expect(res.body.raw).toBe(0);
    expect(res.body.uploads_size).toEqual({ size: '2.93 KB', debug: '2.93 KB (3000 bytes)', raw: 3000 });
    expect(res.body.data_size.raw).toBe(500);
    expect(res.body.database_size.raw).toBeGreaterThan(0);
    expect(res.body.total_size.raw).toBe(500 + 3000 + res.body.database_size.raw);
  });
});

describe('site health checks under controlled conditions', () => {
  const site = siteFrom({ SITE_URL: 'http://calendar.example.org', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });
  const fakeStore = (ping: () => Promise<void>, kind: 'sqlite' | 'mongo' = 'sqlite', unitMode: Store['unitMode'] = 'transaction') =>
    ({ kind, ping, unitMode }) as unknown as Store;
  const deps = (over: Partial<HealthDeps> = {}): HealthDeps => ({ store: fakeStore(async () => undefined), site, dataDir: '/nonexistent-data-dir', ...over });
  const fakeQueue = (workers: Record<string, number> | null, depths: Record<string, number>, ping: () => Promise<void> = async () => undefined) =>
    (() => ({ kind: workers ? 'bullmq' : 'inline', ping, workers: async () => workers, depths: async () => depths })) as unknown as () => JobQueue;

  it('https-status: good for an https site address, recommended for http', () => {
    expect(httpsStatus(siteFrom({ SITE_URL: 'https://calendar.example.org', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' })).status).toBe('good');
    const http = httpsStatus(site);
    expect([http.status, http.label, http.test]).toEqual(['recommended', 'Your website does not use HTTPS', 'https_status']);
  });

  it('authorization-header: good only when credentials came in the header', () => {
    expect(authorizationHeader({ id: 1, login: 'a', roles: [], caps: [], appPassword: 'uuid' }).status).toBe('good');
    expect(authorizationHeader({ id: 1, login: 'a', roles: [], caps: [] }).status).toBe('recommended');
    expect(authorizationHeader(null).label).toBe('The authorization header is missing');
  });

  it('store: critical when the ping fails or hangs, recommended when slow, good otherwise', async () => {
    expect((await storeCheck(deps({ store: fakeStore(async () => Promise.reject(new Error('connection refused')), 'mongo') }))).status).toBe('critical');
    let t = 0;
    const slow = await storeCheck(deps({ now: () => (t += 400) }));
    expect([slow.status, slow.label]).toEqual(['recommended', 'The store answers slowly']);
    expect((await storeCheck(deps())).status).toBe('good');
    expect((await storeCheck(deps({ store: fakeStore(async () => undefined, 'mongo') }))).status).toBe('good');
    // A standalone MongoDB keeps units of work by compensation: a replica set is recommended.
    const standalone = await storeCheck(deps({ store: fakeStore(async () => undefined, 'mongo', 'compensation') }));
    expect([standalone.status, standalone.label]).toEqual(['recommended', 'MongoDB runs without transactions']);
    expect(standalone.actions).toContain('replica set');
    jest.useFakeTimers();
    try {
      const pending = storeCheck(deps({ store: fakeStore(() => new Promise(() => undefined)) }));
      await jest.advanceTimersByTimeAsync(3100);
      expect((await pending).description).toContain('did not answer within 3000 ms');
    } finally {
      jest.useRealTimers();
    }
  });

  it('queues: critical when Redis is down or a queue has no worker, recommended when backed up, good otherwise', async () => {
    const down = await queuesCheck(deps({ queue: fakeQueue({}, {}, async () => Promise.reject(new Error('ECONNREFUSED'))) }));
    expect([down.status, down.label]).toEqual(['critical', 'The job queues cannot be reached']);
    const idle = await queuesCheck(deps({ queue: fakeQueue({ batch: 2, oembed: 0, import: 1 }, { batch: 0, oembed: 3, import: 0 }) }));
    expect([idle.status, idle.label]).toEqual(['critical', 'Some job queues have no worker']);
    expect(idle.description).toContain('oembed');
    const backed = await queuesCheck(deps({ queue: fakeQueue({ batch: 1, oembed: 1, import: 1 }, { batch: 0, oembed: 0, import: 250 }) }));
    expect([backed.status, backed.label]).toEqual(['recommended', 'Some job queues are backed up']);
    const fine = await queuesCheck(deps({ queue: fakeQueue({ batch: 1, oembed: 1, import: 2 }, { batch: 3, oembed: 0, import: 10 }) }));
    expect([fine.status, fine.label]).toEqual(['good', 'Every job queue has workers']);
    expect((await queuesCheck(deps({ queue: fakeQueue(null, { batch: 5 }) }))).status).toBe('good');
  });

  it('disk-space: critical when almost full, recommended when low, good otherwise; a missing folder is reported', async () => {
    const GB = 1024 ** 3;
    const fs = (free: number, total: number) => async () => ({ bsize: 4096, blocks: total / 4096, bavail: free / 4096 });
    expect((await diskCheck(deps({ statfs: fs(0.1 * GB, 100 * GB) }))).status).toBe('critical');
    expect((await diskCheck(deps({ statfs: fs(4 * GB, 100 * GB) }))).status).toBe('critical');
    expect((await diskCheck(deps({ statfs: fs(8 * GB, 100 * GB) }))).status).toBe('recommended');
    expect((await diskCheck(deps({ statfs: fs(0.5 * GB, 2 * GB) }))).status).toBe('recommended');
    const good = await diskCheck(deps({ statfs: fs(50 * GB, 100 * GB) }));
    expect([good.status, good.description]).toEqual(['good', '<p>50.00 GB of 100.00 GB (50.0 %) are free where <code>DATA_DIR</code> lives.</p>']);
    const missing = await diskCheck(deps());
    expect([missing.status, missing.label]).toEqual(['critical', 'The data folder does not exist']);
  });

  it('directory sizes: sizes formatted as the reference, nothing for a missing folder, null when the walk runs out of time', async () => {
    expect([sizeFormat(0), sizeFormat(500), sizeFormat(1536), sizeFormat(5 * 1024 ** 3)]).toEqual(['0 B', '500.00 B', '1.50 KB', '5.00 GB']);
    const sizes = await directorySizes(deps());
    expect(sizes).toEqual({
      raw: 0,
      data_size: { size: '0 B', debug: '0 B (0 bytes)' },
      uploads_size: { size: '0 B', debug: '0 B (0 bytes)' },
      database_size: { size: 'not available', debug: 'not available' },
      total_size: { size: '0 B', debug: '0 B (0 bytes)' },
    });
    expect(await directorySizes(deps({ dataDir: __dirname }), -1)).toBeNull();
  });
});
