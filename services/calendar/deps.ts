/** What the calendar service's handlers are given: the store, its repositories, the site facts and the route registry. */
import type { Nonces } from '../../libs/auth/nonces';
import type { UsersRepository } from '../../libs/auth/users';
import type { CommentsRepository } from '../../libs/comments/repository';
import type { MediaLibrary } from '../../libs/media/library';
import type { FetchPolicy } from '../../libs/net/outbound';
import type { PostsRepository } from '../../libs/posts/repository';
import type { RouteRegistry } from '../../libs/rest/registry';
import type { Site } from '../../libs/rest/site';
import type { Store } from '../../libs/store/types';
import type { TermsRepository } from '../../libs/terms/repository';
import type { PresentedCache } from '../../libs/rest/presented';
import type { QueryCache } from '../../libs/store/query-cache';
import type { CountCache } from '../../libs/store/count-cache';
import type { CalendarCaches } from './read-cache';

export interface CalendarDeps {
  store: Store;
  site: Site;
  registry: RouteRegistry;
  posts: PostsRepository;
  terms: TermsRepository;
  /** The records' comments, hidden with a trashed record and removed with a deleted one. */
  comments: CommentsRepository;
  users: UsersRepository;
  /** Archive totals and presented linked records, kept briefly between writes. */
  cache: CalendarCaches;
  /** Presented events and entities, kept between requests while the records they show are unchanged (libs/rest/presented.ts). */
  presented: PresentedCache;
  /** List pages kept between requests while the posts are unwritten (libs/store/query-cache.ts). */
  pages: QueryCache;
  /** List totals kept while the posts are unwritten (libs/store/count-cache.ts). */
  counts: CountCache;
  /** Action nonces of the views and the onboarding wizard. */
  nonces: Nonces;
  /** The present moment; tests may pin it. */
  now: () => Date;
  /** The site's posts-per-page setting: the default page size of the event archives. */
  postsPerPage?: () => number;
  /** The media library, where images given by URL are kept. */
  media: MediaLibrary;
  /** Outbound policy of image fetches. */
  imagePolicy: FetchPolicy;
}
