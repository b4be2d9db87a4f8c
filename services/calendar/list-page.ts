/** A page of a calendar list, read through the list pages and totals the calendar keeps (./read-cache.ts). */
import { listSkip } from '#libs/rest/paging';
import type { ReadCache } from '#libs/rest/read-cache';
import type { Doc, Filter, ReadableCollection, SortSpec } from '#libs/store/types';

/** One page of posts and the total across pages, through the list pages and totals kept (the total is counted only when the page cannot tell it). */
export async function pageWithTotal<T extends Doc>(
  deps: { posts: ReadableCollection<T>; cache: Pick<ReadCache, 'pages' | 'counts'> },
  filter: Filter,
  opts: { page: number; perPage: number; sort: SortSpec },
): Promise<{ items: T[]; total: number }> {
  const skip = listSkip(undefined, opts.page, opts.perPage);
  const items = await deps.cache.pages.find(deps.posts, filter, { sort: opts.sort, skip, limit: opts.perPage });
  // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
  if (items.length < opts.perPage && (items.length > 0 || opts.page === 1)) return { items, total: skip + items.length };
  return { items, total: await deps.cache.counts.count(deps.posts, filter) };
}
