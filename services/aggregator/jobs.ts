/** The `import.batch` job: what a worker runs for each step of a batch (see insert.ts). */
import type { Config } from '../../libs/config/env';
import { MediaLibrary } from '../../libs/media/library';
import { imageFetchPolicy } from '../../libs/media/sideload';
import { storageFor } from '../../libs/media/storage';
import { PostsRepository } from '../../libs/posts/repository';
import type { JobHandler } from '../../libs/queue/types';
import type { Site } from '../../libs/rest/site';
import type { Store } from '../../libs/store/types';
import { TermsRepository } from '../../libs/terms/repository';
import { runImportJob, type EventsResult, type ImportJob, type LinkedResult } from './insert';

export function importJobHandlers(o: { store: Store; site: Site; config?: Pick<Config, 'DATA_DIR' | 'MAX_BODY_BYTES' | 'OUTBOUND_ALLOW_HOSTS'> }): {
  'import.batch': JobHandler<unknown, LinkedResult | EventsResult>;
} {
  const posts = new PostsRepository(o.store);
  const images = o.config
    ? { library: new MediaLibrary(o.site, posts, storageFor(o.store, o.config.DATA_DIR), o.config.MAX_BODY_BYTES), policy: imageFetchPolicy(o.config.OUTBOUND_ALLOW_HOSTS, o.config.MAX_BODY_BYTES) }
    : undefined;
  const deps = { store: o.store, posts, terms: new TermsRepository(o.store), site: o.site, now: () => new Date(), images };
  // Job data arrives as parsed JSON; the service that enqueued it built it as an ImportJob.
  return { 'import.batch': (data) => runImportJob(deps, data as ImportJob) };
}
