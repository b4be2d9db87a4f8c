/**
 * WAL checkpoints off the request thread. better-sqlite3 is synchronous: when a commit crosses
 * `wal_autocheckpoint`, that commit copies every page the WAL holds into the database and syncs it
 * before it returns, and the event loop stands still meanwhile (a 40 MiB checkpoint stalled every
 * request for tens of milliseconds, the p99 of event creation). So the embedded store runs its
 * checkpoints on a worker thread with a connection of its own: a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS takes no write lock, so writers and readers go on while it copies and syncs.
 * Once a checkpoint has copied the whole WAL, the next writer starts the WAL from its beginning, so
 * the file stays as large as what is written between two checkpoints (journal_size_limit trims it).
 *
 * The writer's own autocheckpoint stays on as a backstop at a higher threshold, so the WAL stays
 * bounded should the worker die. Durability does not change: commits are in the WAL either way.
 */
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 500;
/** The writer's backstop (4 KiB pages): a commit checkpoints itself only past ~200 MiB of WAL. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 50_000;

// Plain JavaScript run by the worker (an eval worker, so it needs no compiled file next to this one).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 2000, fileMustExist: true });
let closing = false;
function checkpoint() {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { /* busy or locked: the next tick tries again */ }
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'close' || closing) return;
  closing = true;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('closed');
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(file: string, intervalMs: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') } });
    // A checkpointer never keeps the process alive on its own.
    this.worker.unref();
    this.exit = new Promise((resolve) => {
      this.worker.once('exit', () => {
        this.exited = true;
        resolve();
      });
    });
    // A worker that fails (its connection could not open) leaves the writer's backstop in charge.
    this.worker.on('error', () => undefined);
  }

  /** Starts a checkpointer for the database file; null for an in-memory database. */
  static start(file: string, intervalMs = CHECKPOINT_INTERVAL_MS): BackgroundCheckpointer | null {
    if (file === ':memory:') return null;
    return new BackgroundCheckpointer(file, intervalMs);
  }

  /** Whether the worker is still running (false once it failed or was closed). */
  get running(): boolean {
    return !this.exited;
  }

  /** A last checkpoint, then the worker's connection is closed; bounded, so a stuck worker cannot hold a shutdown. */
  async close(timeoutMs = 3000): Promise<void> {
    if (this.exited) return;
    // Held from here on: a process with nothing else to do must not end before the worker has closed.
    this.worker.ref();
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), timeoutMs);
    timer.unref();
    await this.exit;
    clearTimeout(timer);
  }
}
