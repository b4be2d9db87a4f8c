/**
 * Collection paging headers as the reference sends them: X-WP-Total, X-WP-TotalPages, and a Link
 * header with prev/next built from the request's own query parameters with `page` replaced.
 */
import { windowSkip } from '../store/query';
import { restUrl, type Site } from './site';

export interface PageInfo {
  total: number;
  totalPages: number;
}

/**
 * Rows a list skips: a non-zero `offset` as the reference reads it (absint), else whole pages. Every
 * list computes its window here. Whatever passed validation gives a skip every store takes (windowSkip:
 * at most MAX_WINDOW, past the end of every collection), so a list answers a page or offset no store
 * could reach as it answers any page past its end (its page error, or an empty page), whether the
 * page number was 1e3 or 1e308 (whose product with the page size is Infinity).
 */
export function listSkip(offset: unknown, page: number, perPage: number): number {
  return windowSkip(typeof offset === 'number' && Number.isFinite(offset) && offset !== 0 ? Math.abs(offset) : (page - 1) * perPage);
}

/** One page of a list held in memory, windowed as listSkip windows a stored one. */
export function pageSlice<T>(items: readonly T[], page: number, perPage: number, offset?: unknown): T[] {
  const skip = listSkip(offset, page, perPage);
  return items.slice(skip, skip + perPage);
}

export function totalPages(total: number, perPage: number): number {
  return perPage > 0 ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
}

/** Link header value with rel prev/next, or '' when there is neither. */
export function pageLinks(site: Site, path: string, query: Record<string, unknown>, page: number, pages: number): string {
  const links: string[] = [];
  const at = (p: number) => {
    const q: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(query)) if (k !== 'page') q[k] = v;
    q.page = p;
    return restUrl(site, path, q);
  };
  if (page > 1) links.push(`<${at(Math.min(page - 1, Math.max(pages, 1)))}>; rel="prev"`);
  if (page < pages) links.push(`<${at(page + 1)}>; rel="next"`);
  return links.join(', ');
}

export function pagingHeaders(
  site: Site,
  path: string,
  query: Record<string, unknown>,
  page: number,
  perPage: number,
  total: number,
  prefix = 'X-WP',
): Record<string, string> {
  const pages = totalPages(total, perPage);
  const headers: Record<string, string> = { [`${prefix}-Total`]: String(total), [`${prefix}-TotalPages`]: String(pages) };
  const link = pageLinks(site, path, query, page, pages);
  if (link) headers.Link = link;
  return headers;
}
