/**
 * How the gateway answers a batch, on both stores, with the queue standing in for what can go wrong: it
 * answers what happened (from the job, or from the ledger when the job's answer never comes), or 503
 * with the batch cancelled so that nothing of it ever runs, and an Idempotency-Key makes sending it again
 * safe.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BATCHES } from '#libs/data/collections';
import { createInlineQueue } from '#libs/queue/index';
import { JobFailedError, QueueUnavailableError, type JobQueue } from '#libs/queue/types';
import { isRecord } from '#libs/rest/args';
import type { BatchJob, BatchResult } from '#libs/rest/batch';
import { BatchLedger, keyedBatchId } from '#libs/rest/batch-ledger';
import { MongoStore } from '#libs/store/mongo';
import { SqliteStore } from '#libs/store/sqlite';
import type { Store } from '#libs/store/types';
import { answerBatch, idempotencyKey } from './batch';

const stores: Array<[string, () => Promise<{ store: Store; cleanup: () => Promise<void> }>]> = [
  [
    'SQLite',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-ledger-'));
      const store = new SqliteStore({ dataDir: dir });
      return { store, cleanup: async () => (await store.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  ],
  [
    'MongoDB',
    async () => {
      const store = await MongoStore.connect({ url: process.env.TEST_MONGO_URL!, db: `batch_ledger_${process.pid}_${Date.now()}` });
      return { store, cleanup: async () => (await store.db.dropDatabase(), await store.close()) };
    },
  ],
];

const job = (title: string): BatchJob => ({
  validation: 'normal',
  requests: [{ method: 'POST', path: '/cms/v2/posts', body: { title } }],
  user: null,
  requestId: 'test',
});
const resultFor = (run: number): BatchResult => ({ responses: [{ status: 201, headers: {}, body: { run } }] });
/** The ledger entry a job was queued for. */
const ledgerOf = (data: unknown): { id: string; run: number } => {
  const l = isRecord(data) && isRecord(data.ledger) ? data.ledger : {};
  return { id: String(l.id), run: Number(l.run) };
};
const never = () => new Promise<never>(() => undefined);
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(stores)('batch answers on %s', (_name, open) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let ledger: BatchLedger;
  let runs: number;
  /** A queue whose worker claims the run, works a little and records its result, as runLedgeredBatch does. */
  let working: JobQueue;

  beforeAll(async () => {
    ({ store, cleanup } = await open());
    await store.ensure([BATCHES]);
    ledger = new BatchLedger(store);
    working = createInlineQueue({
      'batch.run': async (data) => {
        const { id, run } = ledgerOf(data);
        if (!(await ledger.claim(id, run))) throw new Error('not claimed');
        runs++;
        await delay(30);
        await ledger.finish(id, run, resultFor(run));
        return resultFor(run);
      },
    });
  });
  afterAll(async () => {
    await working.close();
    await cleanup();
  });
  beforeEach(() => {
    runs = 0;
  });

  const deps = (queue: JobQueue, timeoutMs = 5000) => ({ queue, ledger, timeoutMs, pollMs: 20 });

  it('answers the result, and the same key and body again with the remembered result, without running it again', async () => {
    const first = await answerBatch(deps(working), job('a'), 'key-a');
    expect(first).toMatchObject({ status: 207, body: resultFor(1) });
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    const again = await answerBatch(deps(working), job('a'), '"key-a"');
    expect(again).toMatchObject({ status: 207, body: resultFor(1), headers: { 'Idempotent-Replayed': 'true' } });
    expect(runs).toBe(1);
    // Without a key every request runs, and its entry goes once it is answered.
    const before = await ledger.count({});
    await answerBatch(deps(working), job('a'), undefined);
    await answerBatch(deps(working), job('a'), undefined);
    expect(runs).toBe(3);
    expect(await ledger.count({})).toBe(before);
  });

  it('refuses a key sent with another body (422), and malformed keys (400)', async () => {
    await answerBatch(deps(working), job('b'), 'key-b');
    await expect(answerBatch(deps(working), job('another'), 'key-b')).rejects.toMatchObject({ status: 422, code: 'rest_idempotency_key_reused' });
    expect(runs).toBe(1);
    for (const bad of ['', '   ', 'x'.repeat(256), 'tab\there', 'é', '""']) expect(() => idempotencyKey(bad)).toThrow(/Idempotency-Key/);
    expect(idempotencyKey('a b-c_1:2')).toBe('a b-c_1:2');
    expect(idempotencyKey(undefined)).toBeUndefined();
  });

  it('runs a batch once for concurrent requests with one key, and answers each of them', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => answerBatch(deps(working), job('c'), 'key-c')));
    for (const a of answers) expect(a).toMatchObject({ status: 207, body: resultFor(1) });
    expect(runs).toBe(1);
  });

  it('answers 503 having done nothing when the queue cannot take the batch; a worker that gets its job later does nothing; sending it again runs it', async () => {
    const down: JobQueue = { ...working, run: () => Promise.reject(new QueueUnavailableError('connection refused')) };
    const res = await answerBatch(deps(down), job('d'), 'key-d');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'rest_service_unavailable', data: { status: 503 } });
    const id = keyedBatchId(0, 'key-d');
    expect(await ledger.byId(id)).toMatchObject({ state: 'cancelled', run: 1 });
    expect(await ledger.claim(id, 1)).toBeNull();
    expect(await answerBatch(deps(working), job('d'), 'key-d')).toMatchObject({ status: 207, body: resultFor(2) });
    expect(runs).toBe(1);
  });

  it('answers from the ledger when the job ran but its answer never comes (the queue connection died)', async () => {
    const lost: JobQueue = {
      ...working,
      run: (_name: string, data: unknown) => {
        const { id, run } = ledgerOf(data);
        void (async () => {
          await ledger.claim(id, run);
          await delay(50);
          await ledger.finish(id, run, resultFor(run));
        })();
        return never();
      },
    };
    const started = Date.now();
    expect(await answerBatch(deps(lost), job('e'), 'key-e')).toMatchObject({ status: 207, body: resultFor(1) });
    expect(Date.now() - started).toBeLessThan(2000);
    // Without a key too: every batch is in the ledger.
    expect(await answerBatch(deps(lost), job('e'), undefined)).toMatchObject({ status: 207, body: resultFor(1) });
  });

  it('answers 503 having done nothing when no worker started the batch in time, and cancels it for good', async () => {
    const stuck: JobQueue = { ...working, run: never };
    const res = await answerBatch(deps(stuck, 200), job('f'), 'key-f');
    expect(res.status).toBe(503);
    const id = keyedBatchId(0, 'key-f');
    expect(await ledger.claim(id, 1)).toBeNull();
    expect(await ledger.byId(id)).toMatchObject({ state: 'cancelled' });
  });

  it('answers 504 while a started batch is still running, and its result to the same key once it is done', async () => {
    const id = keyedBatchId(0, 'key-g');
    const slow: JobQueue = {
      ...working,
      run: (_name: string, data: unknown) => {
        void ledger.claim(ledgerOf(data).id, ledgerOf(data).run);
        return never();
      },
    };
    const res = await answerBatch(deps(slow, 200), job('g'), 'key-g');
    expect(res).toMatchObject({ status: 504, body: { code: 'rest_batch_timeout' } });
    await ledger.finish(id, 1, resultFor(1));
    expect(await answerBatch(deps(slow, 200), job('g'), 'key-g')).toMatchObject({
      status: 207,
      body: resultFor(1),
      headers: { 'Idempotent-Replayed': 'true' },
    });
  });

  it('answers 500 when the job failed for good, and runs the batch again when it is sent again', async () => {
    const failing: JobQueue = {
      ...working,
      run: async (_name: string, data: unknown) => {
        await ledger.claim(ledgerOf(data).id, ledgerOf(data).run);
        throw new JobFailedError('batch.run', 'x', 'the content service went away');
      },
    };
    expect(await answerBatch(deps(failing), job('h'), 'key-h')).toMatchObject({ status: 500, body: { code: 'rest_batch_failed' } });
    expect(await ledger.byId(keyedBatchId(0, 'key-h'))).toMatchObject({ state: 'failed', run: 1 });
    expect(await answerBatch(deps(working), job('h'), 'key-h')).toMatchObject({ status: 207, body: resultFor(2) });
  });

  it('keeps keys apart per user', () => {
    expect(keyedBatchId(1, 'k')).not.toBe(keyedBatchId(2, 'k'));
    expect(keyedBatchId(1, 'k')).toMatch(/^b[0-9a-f]{40}$/);
  });
});
