/** The content service: cms/v2 users, application passwords, posts, pages and terms. */
import { UsersRepository } from '../../libs/auth/users';
import { PostsRepository } from '../../libs/posts/repository';
import { TermsRepository } from '../../libs/terms/repository';
import type { Config } from '../../libs/config/env';
import type { RouteRegistry } from '../../libs/rest/registry';
import { ServiceApp } from '../../libs/rest/service';
import type { Site } from '../../libs/rest/site';
import type { Store } from '../../libs/store/types';
import { bindAppPasswords } from './app-passwords/handlers';
import { bootstrapAdmin } from './bootstrap';
import type { ContentDeps } from './deps';
import { bindPosts } from './posts/handlers';
import { postsDeps } from './posts/setup';
import { bindTerms } from './terms/handlers';
import { bindUsers } from './users/handlers';

export async function createContentService(opts: { registry: RouteRegistry; store: Store; site: Site; config: Config }): Promise<ServiceApp> {
  const deps: ContentDeps = {
    store: opts.store,
    site: opts.site,
    users: new UsersRepository(opts.store),
    posts: new PostsRepository(opts.store),
    terms: new TermsRepository(opts.store),
  };
  const app = new ServiceApp('content', opts.registry);
  bindUsers(app, deps);
  bindAppPasswords(app, deps);
  const posts = await postsDeps(deps, opts.registry);
  bindPosts(app, posts);
  bindTerms(app, { ...deps, defaultCategory: posts.defaultCategory, lists: posts.lists }, opts.registry);
  await bootstrapAdmin(deps, opts.config);
  return app.verify();
}
