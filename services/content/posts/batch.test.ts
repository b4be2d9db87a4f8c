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
import { startTestApp, type TestApp } from '../../../test/support/app';
import { redisPrefix } from '../../../test/support/redis-prefix';
import { createContentService } from '../index';

const creates = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `${prefix} ${i}`, status: 'publish' } }));

async function countTitled(app: TestApp, prefix: string): Promise<number> {
  const res = await app.admin('GET', `/cms/v2/posts?search=${encodeURIComponent(prefix)}&search_columns=post_title&status=any&per_page=1`);
  return Number(res.headers.get('x-wp-total'));
}

describe('POST /batch/v1 with the inline executor', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('runs 25 creates in order and answers 207 with each response', async () => {
    const res = await app.admin('POST', '/batch/v1', { body: { requests: creates(25, 'Inline batch') } });
    expect(res.status).toBe(207);
    expect(res.body.responses).toHaveLength(25);
    res.body.responses.forEach((r: { status: number; body: { title: { raw: string }; id: number }; headers: Record<string, string> }, i: number) => {
      expect(r.status).toBe(201);
      expect(r.body.title.raw).toBe(`Inline batch ${i}`);
      expect(r.headers.Location).toBe(`http://example.test/index.php/cms-json/cms/v2/posts/${r.body.id}`);
    });
    const ids = res.body.responses.map((r: { body: { id: number } }) => r.body.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(await countTitled(app, 'Inline batch')).toBe(25);
  });

  it('updates and deletes in a batch, with their query strings; other routes are refused', async () => {
    const a = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Batch target A', status: 'publish' } })).body.id;
    const b = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Batch target B', status: 'publish' } })).body.id;
    const res = await app.admin('POST', '/batch/v1', {
      body: {
        requests: [
          { method: 'PUT', path: `/cms/v2/posts/${a}`, body: { title: 'Batch target A2' } },
          { method: 'DELETE', path: `/cms/v2/posts/${b}?force=true` },
          { method: 'POST', path: '/cms/v2/users', body: { username: 'u', email: 'u@example.com', password: 'p' } },
          { method: 'PATCH', path: '/cms/v2/posts/999999', body: { title: 'x' } },
        ],
      },
    });
    expect(res.status).toBe(207);
    const [update, del, notAllowed, missing] = res.body.responses;
    expect(update).toMatchObject({ status: 200, body: { id: a, title: { raw: 'Batch target A2' } } });
    expect(del).toMatchObject({ status: 200, body: { deleted: true, previous: { id: b } } });
    expect(notAllowed).toMatchObject({ status: 400, body: { code: 'rest_batch_not_allowed' } });
    expect(missing).toMatchObject({ status: 404, body: { code: 'rest_post_invalid_id' } });
  });

  it('require-all-validate runs nothing when one request is invalid', async () => {
    const requests = [...creates(3, 'All or nothing'), { method: 'POST', path: '/cms/v2/posts', body: { title: 'bad', status: 'teststatus' } }];
    const res = await app.admin('POST', '/batch/v1', { body: { validation: 'require-all-validate', requests } });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('validation');
    expect(res.body.responses.slice(0, 3)).toEqual([null, null, null]);
    expect(res.body.responses[3]).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
    expect(await countTitled(app, 'All or nothing')).toBe(0);
    const normal = await app.admin('POST', '/batch/v1', { body: { requests } });
    expect(normal.body.failed).toBeUndefined();
    expect(normal.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201, 201, 400]);
  });

  it('sub-requests run as the caller, with their own permission checks', async () => {
    const res = await app.request('POST', '/batch/v1', { body: { requests: creates(2, 'Anonymous') } });
    expect(res.status).toBe(207);
    expect(res.body.responses.map((r: { status: number; body: { code: string } }) => [r.status, r.body.code])).toEqual([
      [401, 'rest_cannot_create'],
      [401, 'rest_cannot_create'],
    ]);
    const tooMany = await app.admin('POST', '/batch/v1', { body: { requests: creates(26, 'Too many') } });
    expect(tooMany.status).toBe(400);
    const get = await app.admin('POST', '/batch/v1', { body: { requests: [{ method: 'GET', path: '/cms/v2/posts' }] } });
    expect(get.body.data.params.requests).toBe('requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
  });
});

describe('a retried batch job applies each sub-request once', () => {
  let dir: string;
  let store: Store;
  let server: RestServer;
  const admin = makeAuthUser({ id: 1, login: 'admin', roles: ['administrator'] });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ecs-batch-'));
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

  const job = (requests: BatchJob['requests']): BatchJob => ({ validation: 'normal', requests, user: admin, requestId: 'test' });
  const posts = () => store.collection('posts');

  it('creates, updates, trashes and deletes once when the same job runs again', async () => {
    const first = await runBatch(server, job(creates(25, 'Retried')), 'job-create');
    const again = await runBatch(server, job(creates(25, 'Retried')), 'job-create');
    expect(await posts().count({ type: 'post', title: { $icontains: 'Retried' } })).toBe(25);
    expect(again.responses.map((r) => r && r.status)).toEqual(first.responses.map((r) => r && r.status));
    expect(again.responses.map((r) => (r?.body as { id: number }).id)).toEqual(first.responses.map((r) => (r?.body as { id: number }).id));

    const [a, b, c] = first.responses.map((r) => (r!.body as { id: number }).id);
    const edits = job([
      { method: 'PUT', path: `/cms/v2/posts/${a}`, body: { title: 'Retried A v2' } },
      { method: 'PUT', path: `/cms/v2/posts/${a}`, body: { title: 'Retried A v3' } },
      { method: 'DELETE', path: `/cms/v2/posts/${b}` },
      { method: 'DELETE', path: `/cms/v2/posts/${c}?force=true` },
    ]);
    const once = await runBatch(server, edits, 'job-edit');
    const twice = await runBatch(server, edits, 'job-edit');
    expect(once.responses.map((r) => r!.status)).toEqual([200, 200, 200, 200]);
    expect(twice.responses.map((r) => r!.status)).toEqual([200, 200, 200, 200]);
    expect(await posts().count({ parent: a, type: 'revision' })).toBe(2);
    expect((await posts().findOne({ id: a }))!.title).toBe('Retried A v3');
    expect((await posts().findOne({ id: b }))!.status).toBe('trash');
    expect(twice.responses[3]!.body).toEqual(once.responses[3]!.body);
    expect(await posts().findOne({ id: c })).toBeNull();

    const other = await runBatch(server, job([{ method: 'DELETE', path: `/cms/v2/posts/${b}` }]), 'job-other');
    expect(other.responses[0]!.status).toBe(410);
  });
});

describe('POST /batch/v1 on BullMQ with Redis', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: process.env.TEST_REDIS_URL, QUEUE_PREFIX: await redisPrefix('posts-batch') });
  });
  afterAll(async () => {
    await app.close();
  });

  it('runs a batch of 25 creates through the queue and its worker', async () => {
    const res = await app.admin('POST', '/batch/v1', { body: { requests: creates(25, 'Queued batch') } });
    expect(res.status).toBe(207);
    expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual(new Array(25).fill(201));
    expect(await countTitled(app, 'Queued batch')).toBe(25);
    const mixed = await app.admin('POST', '/batch/v1', {
      body: {
        validation: 'require-all-validate',
        requests: [...creates(2, 'Queued invalid'), { path: '/cms/v2/posts', body: { title: 'x', format: 'nope' } }],
      },
    });
    expect(mixed.body.failed).toBe('validation');
    expect(await countTitled(app, 'Queued invalid')).toBe(0);
  });
});
