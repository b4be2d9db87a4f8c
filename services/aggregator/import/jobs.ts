/** The import jobs: `import.batch`, each step of a pushed batch (storage/insert.ts), and `import.source`, one run of an import source (source-run.ts). */
import type { Config } from '#libs/config/env';
import { MediaLibrary } from '#libs/media/library';
import { imageFetchPolicy } from '#libs/media/sideload';
import { storageFor } from '#libs/media/storage';
import type { FetchPolicy } from '#libs/net/outbound';
import { PostsRepository } from '#libs/posts/repository';
import type { JobHandler, JobQueue } from '#libs/queue/types';
import { venueWrittenHook, type GeocodeConfig } from '#libs/geocode/jobs';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import { CommentsRepository } from '#libs/comments/repository';
import { runImportJob } from '../storage/insert';
import type { EventsResult, ImportJob, LinkedResult } from '../storage/insert-job';
import { runSource, type SourceRunResult } from './source-run';
import { Sources } from '../sources/sources';
import { systemNow } from '#libs/dates/post-dates';

declare module '../../../libs/queue/types' {
  interface JobPayloads {
    /** One run of the import source `source` (a post id); runSource checks the data, which may name a source since deleted. */
    'import.source': { data: { source: number }; result: SourceRunResult };
  }
}

/** Feeds are fetched within a minute, whatever their size. */
const FEED_TIMEOUT_MS = 60_000;
const DEFAULT_FEED_MAX_BYTES = 50 * 1024 * 1024;

/** The outbound policy of feed fetches: the guard's address rules, a minute, the configured size. */
export function feedFetchPolicy(allowHosts: readonly string[], maxBytes: number): FetchPolicy {
  return { ...imageFetchPolicy(allowHosts, maxBytes), timeoutMs: FEED_TIMEOUT_MS };
}

export function importJobHandlers(o: {
  store: Store;
  site: Site;
  config?: Pick<Config, 'DATA_DIR' | 'MAX_BODY_BYTES' | 'OUTBOUND_ALLOW_HOSTS' | 'IMPORT_FEED_MAX_BYTES'> & GeocodeConfig;
  /** The producer queue: venues the import stores are geocoded on workers (extended edition with a geocoder). */
  queue?: () => JobQueue;
}): {
  'import.batch': JobHandler<ImportJob, LinkedResult | EventsResult>;
  'import.source': JobHandler<{ source?: unknown }, SourceRunResult>;
} {
  const posts = new PostsRepository(o.store);
  const images = o.config
    ? {
        library: new MediaLibrary(o.site, posts, storageFor(o.store, o.config.DATA_DIR), o.config.MAX_BODY_BYTES),
        policy: imageFetchPolicy(o.config.OUTBOUND_ALLOW_HOSTS, o.config.MAX_BODY_BYTES),
      }
    : undefined;
  const venueWritten = o.config ? venueWrittenHook(o.config, o.queue) : undefined;
  const deps = { store: o.store, posts, terms: new TermsRepository(o.store), site: o.site, now: systemNow, images, ...(venueWritten ? { venueWritten } : {}) };
  const feeds = {
    ...deps,
    comments: new CommentsRepository(o.store),
    sources: new Sources(deps),
    policy: feedFetchPolicy(o.config?.OUTBOUND_ALLOW_HOSTS ?? [], o.config?.IMPORT_FEED_MAX_BYTES ?? DEFAULT_FEED_MAX_BYTES),
  };
  return {
    // Job data arrives as parsed JSON; the service that enqueued it built it as an ImportJob.
    'import.batch': (data) => runImportJob(deps, data),
    // Parsed JSON too: runSource checks that `source` is a number before using it.
    'import.source': (data, job) => runSource(feeds, data ?? {}, job),
  };
}
