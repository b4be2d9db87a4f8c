/** What the content service's handlers are given: the store, its repositories and the site facts. */
import type { UsersRepository } from '../../libs/auth/users';
import type { Site } from '../../libs/rest/site';
import type { Store } from '../../libs/store/types';

export interface ContentDeps {
  store: Store;
  site: Site;
  users: UsersRepository;
}
