/**
 * The aggregator service: vendor/event-aggregator/v1, where the remote import service pushes batches
 * and states, and its sources routes, the import sources the service's workers fetch themselves.
 */
import { PostsRepository } from '#libs/posts/repository';
import type { JobQueue } from '#libs/queue/types';
import { ServiceApp, type ServiceOptions } from '#libs/rest/service';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import type { AggregatorDeps } from './deps';
import { bindImport } from './import/handlers';
import { ImportRecords } from './storage/records';
import { bindSources, syncSchedule } from './sources/handlers';
import { systemNow } from '#libs/dates/post-dates';

/**
 * Events per `import.batch` job when nothing else is asked. A job's events go to the store in one
 * transaction, whose cost per event falls as it grows (its index pages are shared by more rows); 500
 * keeps a 1,000-event batch in two jobs, so two workers share it.
 */
export const DEFAULT_SLICE_SIZE = 500;
/** How long a batch request waits for its jobs. */
export const BATCH_TIMEOUT_MS = 120_000;

export function aggregatorDeps(o: { store: Store; site: Site; queue: () => JobQueue; sliceSize?: number; timeoutMs?: number }): AggregatorDeps {
  const posts = new PostsRepository(o.store);
  return {
    store: o.store,
    site: o.site,
    posts,
    terms: new TermsRepository(o.store),
    records: new ImportRecords(posts, o.site),
    queue: o.queue,
    sliceSize: o.sliceSize ?? DEFAULT_SLICE_SIZE,
    timeoutMs: o.timeoutMs ?? BATCH_TIMEOUT_MS,
    now: systemNow,
  };
}

export async function createAggregatorService(opts: ServiceOptions & { queue: () => JobQueue }): Promise<ServiceApp> {
  const app = new ServiceApp('aggregator', opts.registry);
  const deps = aggregatorDeps(opts);
  bindImport(app, deps);
  const sources = bindSources(app, deps, { minIntervalSeconds: opts.config.IMPORT_MIN_INTERVAL_SECONDS });
  // Schedules live in the queue (Redis) or, without one, in this process: declare the ones missing.
  for (const doc of await sources.scheduled()) await syncSchedule(deps, doc, { keepExisting: true });
  return app.verify();
}
