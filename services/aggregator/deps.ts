/** What the aggregator service's handlers are given. */
import type { PostsRepository } from '#libs/posts/repository';
import type { JobQueue } from '#libs/queue/types';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { ImportRecords } from './storage/records';

export interface AggregatorDeps {
  store: Store;
  site: Site;
  posts: PostsRepository;
  terms: TermsRepository;
  records: ImportRecords;
  /** The producer side of the queues; batches are stored by `import.batch` jobs on workers. */
  queue: () => JobQueue;
  /** Events per `import.batch` job: a batch is split into slices of this size that workers store at once. */
  sliceSize: number;
  /** How long a batch may take before the request gives up (the remote service then sends it again). */
  timeoutMs: number;
  now: () => Date;
}
