/** The content service: cms/v2 users, application passwords, posts, pages and comments. */
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
import { bindComments } from './comments/handlers';
import { CommentsRepository } from './comments/repository';
import type { ContentDeps } from './deps';
import { bindPosts } from './posts/handlers';
import { postsDeps } from './posts/setup';
import { bindUsers } from './users/handlers';

export async function createContentService(opts: { registry: RouteRegistry; store: Store; site: Site; config: Config }): Promise<ServiceApp> {
  const deps: ContentDeps = {
    store: opts.store,
    site: opts.site,
    users: new UsersRepository(opts.store),
    posts: new PostsRepository(opts.store),
    terms: new TermsRepository(opts.store),
    comments: new CommentsRepository(opts.store),
  };
  const app = new ServiceApp('content', opts.registry);
  bindUsers(app, deps);
  bindAppPasswords(app, deps);
  bindPosts(app, await postsDeps(deps, opts.registry));
  bindComments(app, { site: deps.site, comments: deps.comments, posts: deps.posts, users: deps.users, registry: opts.registry });
  await bootstrapAdmin(deps, opts.config);
  return app.verify();
}
