/** The content service: cms/v2 users, application passwords, posts, pages and media. */
import { UsersRepository } from '../../libs/auth/users';
import { MediaLibrary } from '../../libs/media/library';
import { imageFetchPolicy } from '../../libs/media/sideload';
import { storageFor } from '../../libs/media/storage';
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
import { bindMedia } from './media/handlers';
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
  };
  const app = new ServiceApp('content', opts.registry);
  bindUsers(app, deps);
  bindAppPasswords(app, deps);
  const posts = await postsDeps(deps, opts.registry);
  bindPosts(app, posts);
  const media = new MediaLibrary(opts.site, deps.posts, storageFor(opts.store, opts.config.DATA_DIR), opts.config.MAX_BODY_BYTES);
  bindMedia(app, {
    ...deps,
    media,
    imagePolicy: imageFetchPolicy(opts.config.OEMBED_ALLOW_HOSTS, opts.config.MAX_BODY_BYTES),
    links: { types: posts.links.types, comments: posts.links.comments },
    lists: posts.lists,
  });
  await bootstrapAdmin(deps, opts.config);
  return app.verify();
}
