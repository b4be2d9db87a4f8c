/** The `import.batch` job: what a worker runs for each step of a batch (see insert.ts). */
import { PostsRepository } from '../../libs/posts/repository';
import type { JobHandler } from '../../libs/queue/types';
import type { Site } from '../../libs/rest/site';
import type { Store } from '../../libs/store/types';
import { TermsRepository } from '../../libs/terms/repository';
import { runImportJob, type EventsResult, type ImportJob, type LinkedResult } from './insert';

export function importJobHandlers(o: { store: Store; site: Site }): { 'import.batch': JobHandler<unknown, LinkedResult | EventsResult> } {
  const deps = { store: o.store, posts: new PostsRepository(o.store), terms: new TermsRepository(o.store), site: o.site, now: () => new Date() };
  // Job data arrives as parsed JSON; the service that enqueued it built it as an ImportJob.
  return { 'import.batch': (data) => runImportJob(deps, data as ImportJob) };
}
