/** The content service: cms/v2 users, application passwords, posts, pages, media, terms and comments; site health and URL details. */
import { UsersRepository } from '#libs/auth/users';
import { MediaLibrary } from '#libs/media/library';
import { imageFetchPolicy } from '#libs/media/sideload';
import { storageFor } from '#libs/media/storage';
import { PostsRepository } from '#libs/posts/repository';
import { TermsRepository } from '#libs/terms/repository';
import type { Config } from '#libs/config/env';
import type { JobQueue } from '#libs/queue/types';
import type { RouteRegistry } from '#libs/rest/registry';
import { ServiceApp, type Reply } from '#libs/rest/service';
import { ReadCache } from '#libs/rest/read-cache';
import type { Site } from '#libs/rest/site';
import { SiteSettings } from '#libs/settings/site-settings';
import type { Store } from '#libs/store/types';
import { bindAppPasswords } from './app-passwords/handlers';
import { bindUrlDetails, urlDetailsPolicy } from './block-editor/url-details';
import { bindDiscovery } from './discovery/handlers';
import { bindSearch } from './search/handlers';
import { bindSettings } from './settings/handlers';
import { bootstrapAdmin } from './bootstrap';
import { bindComments } from './comments/handlers';
import { CommentsRepository } from '#libs/comments/repository';
import type { ContentDeps } from './deps';
import { bindMedia } from './media/handlers';
import { bindPosts } from './posts/handlers';
import { postsDeps } from './posts/setup';
import { bindSiteHealth } from './site-health/handlers';
import { bindTerms } from './terms/handlers';
import { bindUsers } from './users/handlers';

export async function createContentService(opts: {
  registry: RouteRegistry;
  store: Store;
  site: Site;
  config: Config;
  queue?: () => JobQueue;
  settings?: SiteSettings;
}): Promise<ServiceApp> {
  const deps: ContentDeps = {
    store: opts.store,
    site: opts.site,
    users: new UsersRepository(opts.store),
    posts: new PostsRepository(opts.store),
    terms: new TermsRepository(opts.store),
    comments: new CommentsRepository(opts.store),
    settings: opts.settings ?? (await SiteSettings.open(opts.store, opts.site, opts.config, 0)),
  };
  // Answers hold posts, their terms, authors and comment counts, and carry the site's URL and dates in
  // its time zone (the settings revision); presented records are made of posts and terms, which they
  // name by id (terms, ancestors; the revision count is the post's own field), so an insert of other
  // records leaves them current: a draft's suggested slug, which depends on other records' slugs, is
  // keyed apart (posts/handlers.ts).
  const cache = new ReadCache<Reply>(opts.store, {
    records: ['posts', 'terms'],
    answers: ['posts', 'terms', 'users', 'comments'],
    revision: opts.site,
  });
  const app = new ServiceApp('content', opts.registry, cache);
  bindUsers(app, deps);
  bindAppPasswords(app, deps);
  const posts = await postsDeps(deps, opts.registry, cache);
  bindPosts(app, posts);
  const media = new MediaLibrary(opts.site, deps.posts, storageFor(opts.store, opts.config.DATA_DIR), opts.config.MAX_BODY_BYTES);
  bindMedia(app, {
    ...deps,
    media,
    imagePolicy: imageFetchPolicy(opts.config.OUTBOUND_ALLOW_HOSTS, opts.config.MAX_BODY_BYTES),
    links: { types: posts.links.types, comments: posts.links.comments },
  });
  bindTerms(app, { ...deps, defaultCategory: posts.defaultCategory }, opts.registry);
  bindComments(app, { site: deps.site, comments: deps.comments, posts: deps.posts, users: deps.users, registry: opts.registry });
  bindSiteHealth(app, { store: opts.store, site: opts.site, dataDir: opts.config.DATA_DIR, queue: opts.queue });
  bindUrlDetails(app, { site: opts.site, policy: urlDetailsPolicy(opts.config.OUTBOUND_ALLOW_HOSTS) });
  bindDiscovery(app, deps);
  bindSearch(app, deps, opts.registry);
  bindSettings(app, deps);
  await bootstrapAdmin(deps, opts.config);
  return app.verify();
}
