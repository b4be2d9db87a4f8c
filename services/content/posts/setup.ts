/**
 * What the post handlers need at start: the default category (created when missing, as a fresh
 * reference install has "Uncategorized") and which optional link targets this build serves.
 */
import { TAXONOMIES } from '#libs/posts/registered';
import type { RouteRegistry } from '#libs/rest/registry';
import { DuplicateKeyError } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { ContentDeps } from '../deps';
import type { ReadCache } from '#libs/rest/read-cache';
import type { Reply } from '#libs/rest/service';
import type { PostsDeps } from './handlers';
import { BatchResults } from '../batch-results';
import type { LinkTargets } from './present';

export async function ensureDefaultCategory(terms: TermsRepository): Promise<number> {
  const find = () => terms.findOne({ taxonomy: 'category', slug: 'uncategorized' });
  const found = await find();
  if (found) return found.id;
  try {
    return (await terms.create({ taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized' })).id;
  } catch (e) {
    // Another replica created it first.
    if (!(e instanceof DuplicateKeyError)) throw e;
    return (await find())!.id;
  }
}

export function linkTargets(registry: RouteRegistry): LinkTargets {
  // Routes every caller has: a guest's match tells.
  const has = (path: string) => registry.match(path, null)?.route.namespace === 'cms/v2';
  return {
    types: has('/cms/v2/types/post'),
    comments: has('/cms/v2/comments'),
    media: has('/cms/v2/media'),
    taxonomies: new Set(TAXONOMIES.filter((t) => t.showInRest && has(`/cms/v2/${t.restBase}`)).map((t) => t.name)),
  };
}

export async function postsDeps(deps: ContentDeps, registry: RouteRegistry, cache: ReadCache<Reply>): Promise<PostsDeps> {
  // The created "Uncategorized" is the default until an administrator picks another category.
  deps.settings.setDefault('default_category', await ensureDefaultCategory(deps.terms));
  return {
    site: deps.site,
    posts: deps.posts,
    terms: deps.terms,
    users: deps.users,
    defaultCategory: () => deps.settings.get<number>('default_category'),
    defaultDiscussion: () => ({ comment_status: deps.settings.get('default_comment_status'), ping_status: deps.settings.get('default_ping_status') }),
    links: linkTargets(registry),
    results: new BatchResults(deps.store),
    cache,
    comments: deps.comments,
  };
}
