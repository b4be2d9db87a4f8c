/**
 * The bulk run for existing data: every venue without coordinates, in id order, a page at a time, is
 * asked for its `geocode.venue` job (those that need none are passed over: an override, no address).
 * It works the same on both queues: with BullMQ the workers run the jobs, inline this process does; in
 * both it enqueues no further page while the `geocode` queue holds `maxPending` jobs, so memory and
 * Redis stay bounded, and it reports its progress as it goes. A venue the provider knows nothing of
 * is answered by the cache's miss without a request, so running it again costs only the new addresses.
 */
import { VENUE_TYPE } from '../calendar/meta';
import type { PostDoc } from '../posts/types';
import type { JobQueue } from '../queue/types';
import type { Filter, Store } from '../store/types';
import { requestVenueGeocode } from './venues';

export interface BulkProgress {
  /** Venues without coordinates when the run began. */
  total: number;
  /** Venues looked at so far, and those asked for a job. */
  scanned: number;
  enqueued: number;
  /** Jobs of the `geocode` queue not finished yet. */
  pending: number;
  /** Venues still without coordinates. */
  remaining: number;
}

export interface BulkOptions {
  pageSize?: number;
  maxPending?: number;
  /** Wait until the queue has run every job (inline: always). */
  wait?: boolean;
  pollMs?: number;
  onProgress?: (p: BulkProgress) => void;
}

const lacking = (after = 0): Filter => ({ type: VENUE_TYPE, status: { $ne: 'trash' }, venue_lat: null, id: { $gt: after } });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function geocodeAllVenues(store: Store, queue: JobQueue, opts: BulkOptions = {}): Promise<BulkProgress> {
  const pageSize = opts.pageSize ?? 200;
  const maxPending = opts.maxPending ?? 1000;
  const pollMs = opts.pollMs ?? 1000;
  const posts = store.collection<PostDoc>('posts');
  const runId = Date.now().toString(36);
  const p: BulkProgress = { total: await posts.count(lacking()), scanned: 0, enqueued: 0, pending: 0, remaining: 0 };
  const report = async () => {
    p.pending = (await queue.depths()).geocode;
    p.remaining = await posts.count(lacking());
    opts.onProgress?.({ ...p });
  };
  for (let after = 0; ;) {
    const page = await posts.find(lacking(after), { sort: [['id', 1]], limit: pageSize });
    for (const doc of page) if (await requestVenueGeocode(queue, doc, { jobId: `geocode-bulk-${runId}-${doc.id}` })) p.enqueued++;
    p.scanned += page.length;
    await report();
    if (page.length < pageSize) break;
    after = page[page.length - 1].id;
    while (p.pending >= maxPending) {
      await sleep(pollMs);
      await report();
    }
  }
  while ((opts.wait ?? true) && p.pending > 0) {
    await sleep(pollMs);
    await report();
  }
  return p;
}
