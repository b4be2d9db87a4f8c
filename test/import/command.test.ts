/**
 * The import command as a user runs it (a separate process, over HTTP): create an import, feed a JSON
 * file batch by batch, and a feed with a bad event that ends the import as failed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/cluster';
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

/** Runs the command with the service's store; `env` replaces the service's SITE_URL (undefined: unset). */
async function command(
  args: string[],
  env: Record<string, string | undefined> = { SITE_URL: app.url },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['-r', join(ROOT, 'scripts/ts-register.js'), join(ROOT, 'scripts/import.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: app.config.DATA_DIR, LOG_LEVEL: 'silent', ...env },
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
  const fed = await command([
    'feed',
    file,
    '--import-id',
    importId,
    '--batch-hash',
    hash,
    '--url',
    app.restRoot,
    '--batch-size',
    '10',
    '--interval-override',
    '0',
  ]);
  expect(fed.stderr).toContain('feeding 53 events in 6 batches');
  expect(fed.code).toBe(0);
  const summary = JSON.parse(fed.stdout);
  expect(summary).toMatchObject({ import_id: importId, events: 53, batches: 6, created: 53, updated: 0 });

  const record = await db.reload({ id: recordId });
  expect(record.status).toBe('vendor-ea-success');
  expect(record.meta._vendor_aggregator_percentage_complete).toBe(100);
  const stored = await db.posts.count({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${e.global_id}`) } });
  expect(stored).toBe(53);
}, 60000);

it('ends the import as failed when the service refuses a batch', async () => {
  const created = JSON.parse((await command(['create'])).stdout);
  const file = join(dir, 'bad.json');
  const events: unknown[] = Array.from({ length: 12 }, (_, i) => eaEvent(61000 + i));
  events[8] = { ...(events[8] as object), start_date: 'the day after never' };
  writeFileSync(file, JSON.stringify(events));
  const fed = await command([
    'feed',
    file,
    '--import-id',
    created.import_id,
    '--batch-hash',
    created.batch_hash,
    '--url',
    app.restRoot,
    '--batch-size',
    '5',
    '--interval-override',
    '0',
  ]);
  expect(fed.code).toBe(1);
  expect(fed.stderr).toContain('batch 2 was refused (400 rest_invalid_param)');
  expect(fed.stderr).toContain('the import is marked failed');
  const record = await db.reload({ id: created.record_id });
  expect(record.status).toBe('vendor-ea-failed');
  expect(record.comments?.[0]).toMatchObject({ type: 'vendor-ea-error', code: 'error:batch-refused' });
  // The first batch was stored, the refused one not at all.
  expect(await db.posts.count({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${(e as { global_id: string }).global_id}`) } })).toBe(5);
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

describe('the REST root it sends to', () => {
  const feedOne = async (env: Record<string, string | undefined>, extra: string[] = []) => {
    const created = JSON.parse((await command(['create'])).stdout);
    const file = join(dir, `one-${created.import_id}.json`);
    writeFileSync(file, JSON.stringify([eaEvent(62000 + Math.floor(Math.random() * 1000))]));
    return command(['feed', file, '--import-id', created.import_id, '--batch-hash', created.batch_hash, '--interval-override', '0', ...extra], env);
  };

  it('defaults to SITE_URL, else to the loopback address on PORT, as the service does', async () => {
    const bySite = await feedOne({ SITE_URL: app.url });
    expect(bySite.stderr).toContain(`to ${app.restRoot}/vendor/event-aggregator/v1/import/`);
    expect(bySite.code).toBe(0);
    const port = new URL(app.url).port;
    const byPort = await feedOne({ PORT: port });
    expect(byPort.stderr).toContain(`to http://127.0.0.1:${port}/index.php/cms-json/vendor/event-aggregator/v1/import/`);
    expect(byPort.code).toBe(0);
  }, 60000);

  it('stops at once naming the URL and the cause when nothing listens there', async () => {
    const port = await freePort();
    const res = await feedOne({ PORT: String(port) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`cannot reach the service at http://127.0.0.1:${port}/index.php/cms-json/vendor/event-aggregator/v1`);
    expect(res.stderr).toContain('ECONNREFUSED');
    expect(res.stderr).toContain('--url');
    expect(res.stdout).toBe('');
    const byUrl = await feedOne({}, ['--url', `http://127.0.0.1:${port}/index.php/cms-json`]);
    expect([byUrl.code, byUrl.stderr]).toEqual([1, expect.stringContaining('ECONNREFUSED')]);
  }, 60000);

  it('says when the URL answers but is not the REST root', async () => {
    const res = await feedOne({}, ['--url', `${app.url}/elsewhere`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${app.url}/elsewhere/vendor/event-aggregator/v1 answered 404`);
  }, 60000);
});

it('explains its usage', async () => {
  const res = await command(['feed']);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('usage: import.js create');
});

describe("source: the service's own import sources", () => {
  const admin = ['--user', 'admin', '--app-password', 'abcd EFGH ijkl MNOP qrst UVWX'];

  it('adds an ICS file source, shows its run, lists and removes it', async () => {
    const file = join(dir, 'feed.ics');
    writeFileSync(
      file,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//t//t//EN',
        'BEGIN:VEVENT',
        'UID:cli-1@tests',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20320101T100000Z',
        'DTEND:20320101T110000Z',
        'SUMMARY:From the command line',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    const added = await command(['source', 'add', '--origin', 'ics', '--file', file, '--title', 'CLI file', '--url', app.restRoot, ...admin]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const source = JSON.parse(added.stdout);
    expect(source).toMatchObject({ title: 'CLI file', origin: 'ics', has_file: true });

    let run;
    for (let i = 0; i < 100; i++) {
      run = JSON.parse((await command(['source', 'show', String(source.id), '--url', app.restRoot, ...admin])).stdout).last_run;
      if (run.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run).toMatchObject({ status: 'success', total_events: 1 });
    const runs = JSON.parse((await command(['source', 'runs', String(source.id), '--url', app.restRoot, ...admin])).stdout);
    expect(runs).toHaveLength(1);
    const list = JSON.parse((await command(['source', 'list', '--url', app.restRoot, ...admin])).stdout);
    expect(list.map((s: { id: number }) => s.id)).toContain(source.id);
    expect((await command(['source', 'remove', String(source.id), '--url', app.restRoot, ...admin])).code).toBe(0);
  }, 60000);

  it('says what is missing or refused', async () => {
    const noCreds = await command(['source', 'list', '--url', app.restRoot]);
    expect(noCreds.code).toBe(2);
    expect(noCreds.stderr).toContain('--user and --app-password');
    const noFeed = await command(['source', 'add', '--origin', 'ical', '--url', app.restRoot, ...admin]);
    expect(noFeed.code).toBe(2);
    expect(noFeed.stderr).toContain('--source <URL> or --file <path>');
    const refused = await command([
      'source',
      'add',
      '--origin',
      'ical',
      '--source',
      'https://example.org/f.ics',
      '--schedule',
      'minutely',
      '--url',
      app.restRoot,
      ...admin,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('rest_invalid_param');
    const bad = await command(['source', 'show', '999999', '--url', app.restRoot, ...admin]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('rest_import_source_invalid_id');
  }, 60000);
});
