/**
 * The import command as a user runs it (a separate process, over HTTP): create an import, feed a JSON
 * file batch by batch, and a feed with a bad event that ends the import as failed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EVENT_TYPE } from '../../libs/calendar/meta';
import { startTestApp, type TestApp } from '../support/app';
import { AppStore, eaEvent } from '../support/imports';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
let app: TestApp;
let db: AppStore;
let dir: string;

beforeAll(async () => {
  app = await startTestApp();
  db = await AppStore.open(app);
  dir = mkdtempSync(join(tmpdir(), 'ecs-import-'));
});

afterAll(async () => {
  await db?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function command(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['-r', join(ROOT, 'scripts/ts-register.js'), join(ROOT, 'scripts/import.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: app.config.DATA_DIR, SITE_URL: app.url, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

it('creates an import and feeds a file to the end', async () => {
  const created = await command(['create', '--origin', 'ical']);
  expect(created.code).toBe(0);
  const { import_id: importId, batch_hash: hash, record_id: recordId } = JSON.parse(created.stdout);
  expect(importId).toMatch(/^\w+$/);
  expect(hash).toMatch(/^[0-9a-f]{32}$/);

  const file = join(dir, 'feed.json');
  const events = Array.from({ length: 53 }, (_, i) => eaEvent(60000 + i));
  writeFileSync(file, JSON.stringify(events, null, 1));
  const fed = await command(['feed', file, '--import-id', importId, '--batch-hash', hash, '--url', app.restRoot, '--batch-size', '10', '--interval-override', '0']);
  expect(fed.stderr).toContain('feeding 53 events in 6 batches');
  expect(fed.code).toBe(0);
  const summary = JSON.parse(fed.stdout);
  expect(summary).toMatchObject({ import_id: importId, events: 53, batches: 6, created: 53, updated: 0 });

  const record = await db.reload({ id: recordId });
  expect(record.status).toBe('vendor-ea-success');
  expect(record.meta._vendor_aggregator_percentage_complete).toBe(100);
  const stored = await db.posts.collection.count({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${e.global_id}`) } });
  expect(stored).toBe(53);
}, 60000);

it('ends the import as failed when the service refuses a batch', async () => {
  const created = JSON.parse((await command(['create'])).stdout);
  const file = join(dir, 'bad.json');
  const events: unknown[] = Array.from({ length: 12 }, (_, i) => eaEvent(61000 + i));
  events[8] = { ...(events[8] as object), start_date: 'the day after never' };
  writeFileSync(file, JSON.stringify(events));
  const fed = await command(['feed', file, '--import-id', created.import_id, '--batch-hash', created.batch_hash, '--url', app.restRoot, '--batch-size', '5', '--interval-override', '0']);
  expect(fed.code).toBe(1);
  expect(fed.stderr).toContain('batch 2 was refused (400 rest_invalid_param)');
  expect(fed.stderr).toContain('the import is marked failed');
  const record = await db.reload({ id: created.record_id });
  expect(record.status).toBe('vendor-ea-failed');
  expect(record.comments?.[0]).toMatchObject({ type: 'vendor-ea-error', code: 'error:batch-refused' });
  // The first batch was stored, the refused one not at all.
  expect(await db.posts.collection.count({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${(e as { global_id: string }).global_id}`) } })).toBe(5);
}, 60000);

it('refuses a file that is not a JSON array before sending anything', async () => {
  const created = JSON.parse((await command(['create'])).stdout);
  const file = join(dir, 'object.json');
  writeFileSync(file, '{"title": "not a list"}');
  const fed = await command(['feed', file, '--import-id', created.import_id, '--batch-hash', created.batch_hash, '--url', app.restRoot]);
  expect(fed.code).toBe(1);
  expect(fed.stderr).toContain('not a JSON array of events');
  expect((await db.reload({ id: created.record_id })).status).toBe('vendor-ea-pending');
}, 60000);

it('explains its usage', async () => {
  const res = await command(['feed']);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('usage: import.js create');
});
