/** What the content service's handlers are given: the store, its repositories and the site facts. */
import type { UsersRepository } from '#libs/auth/users';
import type { PostsRepository } from '#libs/posts/repository';
import type { Site } from '#libs/rest/site';
import type { SiteSettings } from '#libs/settings/site-settings';
import type { Store } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { CommentsRepository } from '#libs/comments/repository';

export interface ContentDeps {
  store: Store;
  site: Site;
  users: UsersRepository;
  posts: PostsRepository;
  terms: TermsRepository;
  comments: CommentsRepository;
  settings: SiteSettings;
}
