/**
 * The checks behind cms-site-health/v1, each answering in the reference's result shape (label,
 * status good|recommended|critical, badge, description and actions as HTML, test). They look at
 * this service's real dependencies: the store (the same ping /readyz uses, timed), the job queues
 * (connected workers and waiting jobs), free space where DATA_DIR lives, the site URL's scheme and
 * whether the caller's credentials came in the Authorization header.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AuthUser } from '#libs/auth/user';
import type { JobQueue, QueueName } from '#libs/queue/types';
import type { Site } from '#libs/rest/site';
import { MongoStore } from '#libs/store/mongo';
import { SqliteStore } from '#libs/store/sqlite';
import type { Store } from '#libs/store/types';
import { escapeHtml } from '#libs/html/escape';
import { ownKeys } from '../own-keys';
import { errorCode, errorMessage } from '#libs/observability/error-fields';

export type HealthStatus = 'good' | 'recommended' | 'critical';

export interface HealthResult {
  label: string;
  status: HealthStatus;
  badge: { label: string; color: 'blue' | 'orange' | 'red' | 'green' | 'purple' | 'gray' };
  description: string;
  actions: string;
  test: string;
}

/** A store slower than this to answer a ping is reported as slow. */
export const STORE_SLOW_MS = 250;
/** A store that does not answer a ping within this is reported as unreachable. */
export const STORE_TIMEOUT_MS = 3000;
/** Jobs waiting per connected worker above which a queue is reported as backed up. */
export const QUEUE_BACKLOG_PER_WORKER = 100;
/** Free space below which the disk is critical / worth attention. */
export const DISK_CRITICAL = { ratio: 0.05, bytes: 256 * 1024 * 1024 };
export const DISK_LOW = { ratio: 0.1, bytes: 1024 * 1024 * 1024 };

export interface StatFs {
  bsize: number;
  blocks: number;
  bavail: number;
}

export interface HealthDeps {
  store: Store;
  site: Site;
  dataDir: string;
  /** The service's producer queue; opening it is deferred to the first check that needs it. */
  queue?: () => JobQueue;
  /** fs.statfs, replaceable in tests. */
  statfs?: (dir: string) => Promise<StatFs>;
  now?: () => number;
}

const PERFORMANCE = { label: 'Performance', color: 'blue' } as const;
const SECURITY = { label: 'Security', color: 'blue' } as const;

const esc = escapeHtml;
const p = (text: string) => `<p>${text}</p>`;

/** The reference's size_format with two decimals: 1024-based units, `0 B` for nothing. */
export function sizeFormat(bytes: number): string {
  if (bytes === 0) return '0 B';
  const units: Array<[string, number]> = [
    ['TB', 1024 ** 4],
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
    ['B', 1],
  ];
  for (const [unit, mag] of units) {
    if (bytes >= mag) return `${(bytes / mag).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${unit}`;
  }
  return `${bytes} B`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The reference's get_test_https_status, read from the site URL this service publishes. */
export function httpsStatus(site: Site): HealthResult {
  const why =
    "An HTTPS connection is a more secure way of browsing the web. Application passwords travel in every request's Authorization header, so without HTTPS anyone on the network path can read them.";
  if (new URL(site.url).protocol === 'https:') {
    return {
      label: 'Your website is using an active HTTPS connection',
      status: 'good',
      badge: SECURITY,
      description: p(why),
      actions: '',
      test: 'https_status',
    };
  }
  return {
    label: 'Your website does not use HTTPS',
    status: 'recommended',
    badge: SECURITY,
    description: p(why) + p(`The site address is currently <code>${esc(site.url)}</code>.`),
    actions: p('Serve the site over HTTPS and set <code>SITE_URL</code> to its https:// address.'),
    test: 'https_status',
  };
}

/** The reference's get_test_authorization_header: did credentials arrive in the Authorization header and authenticate? */
export function authorizationHeader(user: AuthUser | null): HealthResult {
  const why =
    'The Authorization header is used by third-party applications you have approved for this site. Without this header, those apps cannot connect to your site.';
  if (user?.appPassword) {
    return {
      label: 'The Authorization header is working as expected',
      status: 'good',
      badge: SECURITY,
      description: p(why),
      actions: '',
      test: 'authorization_header',
    };
  }
  return {
    label: 'The authorization header is missing',
    status: 'recommended',
    badge: SECURITY,
    description: p(why),
    actions: p('Make sure proxies in front of the service pass the <code>Authorization</code> header on.'),
    test: 'authorization_header',
  };
}

/** Pings the store the way /readyz does, and times the answer. */
export async function storeCheck(deps: HealthDeps): Promise<HealthResult> {
  const now = deps.now ?? (() => performance.now());
  const kind = deps.store.kind === 'mongo' ? 'MongoDB' : 'the embedded SQLite store';
  const started = now();
  try {
    await withTimeout(deps.store.ping(), STORE_TIMEOUT_MS, 'The store');
  } catch (e) {
    return {
      label: 'The store cannot be reached',
      status: 'critical',
      badge: PERFORMANCE,
      description: p(`Every record of the site is kept in ${kind}, and it did not answer: ${esc(errorMessage(e))}. Reads and writes fail until it is back.`),
      actions: p(
        deps.store.kind === 'mongo'
          ? 'Check that MongoDB is running and that <code>MONGO_URL</code> points at it.'
          : 'Check that <code>DATA_DIR</code> is readable and writable.',
      ),
      test: 'store',
    };
  }
  const ms = Math.round((now() - started) * 10) / 10;
  if (ms > STORE_SLOW_MS) {
    return {
      label: 'The store answers slowly',
      status: 'recommended',
      badge: PERFORMANCE,
      description: p(`A ping to ${kind} took ${ms} ms (more than ${STORE_SLOW_MS} ms); every request waits on the store.`),
      actions: '',
      test: 'store',
    };
  }
  if (deps.store.unitMode === 'compensation') {
    return {
      label: 'MongoDB runs without transactions',
      status: 'recommended',
      badge: PERFORMANCE,
      description: p(
        `A ping to ${kind} took ${ms} ms. It is a standalone server, which has no transactions: writes that belong together (an event and the venues and organizers it creates) are undone by compensation when they fail, and others may see them part-way.`,
      ),
      actions: p('Run MongoDB as a replica set (a single-node one will do) so that such writes are transactions.'),
      test: 'store',
    };
  }
  return {
    label: 'The store is reachable',
    status: 'good',
    badge: PERFORMANCE,
    description: p(`A ping to ${kind} took ${ms} ms.`),
    actions: '',
    test: 'store',
  };
}

/** Asks the queue port for connected workers and waiting jobs; the inline executor is always able to run its jobs. */
export async function queuesCheck(deps: HealthDeps): Promise<HealthResult> {
  const base = { badge: PERFORMANCE, test: 'queues' };
  if (!deps.queue) {
    return {
      ...base,
      label: 'Queued work runs in this process',
      status: 'good',
      description: p('No job queue is configured for this process; work is done while the request waits.'),
      actions: '',
    };
  }
  let workers: Record<QueueName, number> | null;
  let depths: Record<QueueName, number>;
  try {
    const queue = deps.queue();
    await withTimeout(queue.ping(), STORE_TIMEOUT_MS, 'The queue');
    [workers, depths] = await withTimeout(Promise.all([queue.workers(), queue.depths()]), STORE_TIMEOUT_MS, 'The queue');
  } catch (e) {
    return {
      ...base,
      label: 'The job queues cannot be reached',
      status: 'critical',
      description: p(`Batch requests, oEmbed lookups and imports run as queued jobs, and the queue did not answer: ${esc(errorMessage(e))}.`),
      actions: p('Check that Redis is running and that <code>REDIS_URL</code> points at it.'),
    };
  }
  if (workers === null) {
    return {
      ...base,
      label: 'Queued work runs in this process',
      status: 'good',
      description: p('Without Redis, batch requests, oEmbed lookups and imports run inside this process.'),
      actions: '',
    };
  }
  const names = ownKeys(depths);
  const table = names.map((q) => `${esc(q)}: ${workers![q] ?? 0} worker(s), ${depths[q]} job(s) waiting or running`).join('; ');
  const idle = names.filter((q) => !(workers![q] > 0));
  if (idle.length) {
    return {
      ...base,
      label: 'Some job queues have no worker',
      status: 'critical',
      description: p(`No worker consumes ${idle.map(esc).join(', ')}: jobs put there never run, and the requests waiting for them time out.`) + p(table),
      actions: p('Start workers for every queue (<code>WORKER_QUEUES</code>).'),
    };
  }
  const backed = names.filter((q) => depths[q] > workers![q] * QUEUE_BACKLOG_PER_WORKER);
  if (backed.length) {
    return {
      ...base,
      label: 'Some job queues are backed up',
      status: 'recommended',
      description: p(`More than ${QUEUE_BACKLOG_PER_WORKER} jobs per worker are waiting on ${backed.map(esc).join(', ')}.`) + p(table),
      actions: p('Add workers, or raise <code>WORKER_CONCURRENCY</code>.'),
    };
  }
  return { ...base, label: 'Every job queue has workers', status: 'good', description: p(table), actions: '' };
}

/** Free space of the file system DATA_DIR lives on. */
export async function diskCheck(deps: HealthDeps): Promise<HealthResult> {
  const base = { badge: PERFORMANCE, test: 'disk_space' };
  const statfs = deps.statfs ?? ((dir: string) => fs.statfs(dir));
  let st: StatFs;
  try {
    st = await statfs(deps.dataDir);
  } catch (e) {
    const missing = errorCode(e) === 'ENOENT';
    return {
      ...base,
      label: missing ? 'The data folder does not exist' : 'The free disk space cannot be read',
      status: missing && deps.store.kind === 'mongo' ? 'recommended' : 'critical',
      description: p(
        `<code>DATA_DIR</code> (${esc(deps.dataDir)}) holds the site's files${deps.store.kind === 'sqlite' ? ' and its store' : ''}: ${esc(errorMessage(e))}.`,
      ),
      actions: p('Point <code>DATA_DIR</code> at a writable folder.'),
    };
  }
  const total = st.blocks * st.bsize;
  const free = st.bavail * st.bsize;
  const ratio = total > 0 ? free / total : 0;
  const summary = `${sizeFormat(free)} of ${sizeFormat(total)} (${(ratio * 100).toFixed(1)} %) are free where <code>DATA_DIR</code> lives.`;
  if (ratio < DISK_CRITICAL.ratio || free < DISK_CRITICAL.bytes) {
    return {
      ...base,
      label: 'The disk is almost full',
      status: 'critical',
      description: p(summary) + p('Writes to the store and new uploads fail when it is full.'),
      actions: p('Free or add disk space.'),
    };
  }
  if (ratio < DISK_LOW.ratio || free < DISK_LOW.bytes) {
    return { ...base, label: 'Disk space is running low', status: 'recommended', description: p(summary), actions: p('Free or add disk space.') };
  }
  return { ...base, label: 'There is enough free disk space', status: 'good', description: p(summary), actions: '' };
}

// ---------------------------------------------------------------------------------------------
// directory-sizes

/** How long the folder walk may take before sizes are reported as not available (the reference stops at its time limit too). */
export const SIZE_WALK_MS = 10_000;

interface SizeEntry {
  size: string;
  debug: string;
  raw?: number;
}

class WalkTimeout extends Error {}

/** Bytes of the files under a folder (links not followed), skipping the paths in `skip`; 0 when it does not exist. */
async function folderSize(dir: string, skip: Set<string>, deadline: number): Promise<number> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return 0;
    throw e;
  }
  let total = 0;
  for (const entry of entries) {
    if (Date.now() > deadline) throw new WalkTimeout();
    const full = path.join(dir, entry.name);
    if (skip.has(full)) continue;
    if (entry.isDirectory()) total += await folderSize(full, skip, deadline);
    else if (entry.isFile()) total += (await fs.lstat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** The store's size: its SQLite files, or MongoDB's data and index sizes; null when the store does not say. */
async function databaseSize(store: Store): Promise<{ bytes: number; files: string[] } | null> {
  if (store instanceof SqliteStore) {
    if (store.file === ':memory:') return null;
    const files = [store.file, `${store.file}-wal`, `${store.file}-shm`];
    let bytes = 0;
    for (const f of files) bytes += (await fs.stat(f).catch(() => ({ size: 0 }))).size;
    return { bytes, files };
  }
  if (store instanceof MongoStore) {
    try {
      const stats = await withTimeout(store.db.stats(), STORE_TIMEOUT_MS, 'MongoDB');
      return { bytes: Number(stats.dataSize ?? 0) + Number(stats.indexSize ?? 0), files: [] };
    } catch {
      return null;
    }
  }
  return null;
}

const entry = (bytes: number | null): SizeEntry => {
  if (bytes === null) return { size: 'not available', debug: 'not available' };
  const size = sizeFormat(bytes);
  // As the reference: raw only when it is not zero.
  return { size, debug: `${size} (${bytes} bytes)`, ...(bytes ? { raw: bytes } : {}) };
};

/**
 * The reference's directory-sizes answer for this service's folders: DATA_DIR without the store's
 * files and uploads (`data_size`), the uploads folder, the store (`database_size`) and their total.
 * Null when the walk ran out of time (the reference's `not_available`).
 */
export async function directorySizes(deps: HealthDeps, walkMs = SIZE_WALK_MS): Promise<Record<string, unknown> | null> {
  const uploads = path.resolve(deps.dataDir, 'uploads');
  const db = await databaseSize(deps.store);
  const deadline = Date.now() + walkMs;
  let dataBytes: number;
  let uploadBytes: number;
  try {
    uploadBytes = await folderSize(uploads, new Set(), deadline);
    dataBytes = await folderSize(path.resolve(deps.dataDir), new Set([uploads, ...(db?.files ?? []).map((f) => path.resolve(f))]), deadline);
  } catch (e) {
    if (e instanceof WalkTimeout) return null;
    throw e;
  }
  return {
    raw: 0,
    data_size: entry(dataBytes),
    uploads_size: entry(uploadBytes),
    database_size: entry(db ? db.bytes : null),
    total_size: entry(dataBytes + uploadBytes + (db?.bytes ?? 0)),
  };
}
