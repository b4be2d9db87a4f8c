import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAuthUser } from '#libs/auth/user';
import { loadConfig } from '#libs/config/env';
import { COLLECTIONS } from '#libs/data/collections';
import { runBatch, type BatchJob } from '#libs/rest/batch';
import { RestServer } from '#libs/rest/server';
import { siteFrom } from '#libs/rest/site';
import { buildRegistry } from '#libs/routes/index';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { createContentService } from '../index';

describe('terms in a retried batch job', () => {
  let dir: string;
  let store: Store;
  let server: RestServer;
  const admin = makeAuthUser({ id: 1, login: 'admin', roles: ['administrator'] });
  const job = (requests: BatchJob['requests']): BatchJob => ({ validation: 'normal', requests, user: admin, requestId: 'test' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ecs-terms-batch-'));
    const config = loadConfig({ DATA_DIR: dir, SITE_URL: 'http://example.test', ADMIN_USER: 'admin', ADMIN_PASSWORD: 'admin-password', LOG_LEVEL: 'silent' });
    store = await openStore({ dataDir: dir });
    await store.ensure(COLLECTIONS);
    const registry = buildRegistry();
    const site = siteFrom(config);
    const content = await createContentService({ registry, store, site, config });
    server = new RestServer(registry, site, { content: content.dispatch });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates and deletes once, answering the same when the job runs again', async () => {
    const creates = [
      { method: 'POST', path: '/cms/v2/categories', body: { name: 'Batch category' } },
      { method: 'POST', path: '/cms/v2/tags', body: { name: 'Batch tag' } },
    ];
    const first = await runBatch(server, job(creates), 'job-terms');
    expect(first.responses.map((r) => r?.status)).toEqual([201, 201]);
    const again = await runBatch(server, job(creates), 'job-terms');
    expect(again.responses.map((r) => r?.status)).toEqual([201, 201]);
    expect(again.responses.map((r) => (r?.body as { id: number }).id)).toEqual(first.responses.map((r) => (r?.body as { id: number }).id));
    expect(await store.collection('terms').count({ name: { $in: ['Batch category', 'Batch tag'] } })).toBe(2);
    // Not a batch: the same name again is the reference's error.
    const direct = await runBatch(server, job([creates[0]]), 'another-job');
    expect(direct.responses[0]).toMatchObject({ status: 400, body: { code: 'term_exists' } });

    const catId = (first.responses[0]?.body as { id: number }).id;
    const del = [{ method: 'DELETE', path: `/cms/v2/categories/${catId}`, body: { force: true } }];
    const gone = await runBatch(server, job(del), 'job-delete');
    const gone2 = await runBatch(server, job(del), 'job-delete');
    expect(gone.responses[0]).toMatchObject({ status: 200, body: { deleted: true, previous: { id: catId } } });
    expect({ status: gone2.responses[0]?.status, body: gone2.responses[0]?.body }).toEqual({ status: 200, body: gone.responses[0]?.body });
  });
});
