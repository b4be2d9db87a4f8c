/** The oEmbed service: oembed/1.0 embed (this site's records) and proxy (other sites, fetched by workers). */
import { UsersRepository } from '#libs/auth/users';
import { PostsRepository } from '#libs/posts/repository';
import type { JobQueue } from '#libs/queue/types';
import { ServiceApp, type ServiceOptions } from '#libs/rest/service';
import { OembedCache } from './cache';
import type { EmbedDeps } from './embed';
import { bindOembed } from './handlers';

export interface OembedDeps extends EmbedDeps {
  cache: OembedCache;
  /** The producer queue the proxy hands fetches to. */
  queue: () => JobQueue;
}

export async function createOembedService(opts: ServiceOptions & { queue: () => JobQueue }): Promise<ServiceApp> {
  const deps: OembedDeps = {
    site: opts.site,
    posts: new PostsRepository(opts.store),
    users: new UsersRepository(opts.store),
    cache: new OembedCache(opts.store),
    queue: opts.queue,
  };
  const app = new ServiceApp('oembed', opts.registry);
  bindOembed(app, deps);
  return app.verify();
}
