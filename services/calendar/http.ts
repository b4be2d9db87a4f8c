/** What calendar handlers share: the v1 archive envelope and headers, the route family a request came through, by-slug paths, query keys. */
import { totalPages } from '#libs/rest/paging';
import type { Endpoint, InputOf, Shared } from '#libs/rest/params';
import type { HandlerContext } from '#libs/rest/service';
import { restUrl, type Site } from '#libs/rest/site';

/**
 * The v1 archive body: the items under their name, `rest_url` echoing the effective arguments,
 * `next_rest_url`/`previous_rest_url` when those pages exist (page 1 without `page`), total and pages.
 */
export function archiveEnvelope(
  site: Site,
  path: string,
  key: string,
  items: unknown[],
  echo: Record<string, unknown>,
  page: number,
  pages: number,
  total: number,
): Record<string, unknown> {
  const at = (p: number | null) => {
    const q: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(echo)) if (k !== 'page') q[k] = v;
    return restUrl(site, path, p === null ? q : { page: p, ...q });
  };
  const body: Record<string, unknown> = { [key]: items, rest_url: restUrl(site, path, echo) };
  if (page < pages) body.next_rest_url = at(page + 1);
  if (page > 1 && page - 1 <= pages) body.previous_rest_url = at(page - 1 === 1 ? null : page - 1);
  body.total = total;
  body.total_pages = pages;
  return body;
}

/**
 * The vendor/events/v1 archives' paging headers: X-TEC-* only. The reference sends no X-WP-* and no
 * paging Link there; the envelope's next_rest_url / previous_rest_url carry the paging.
 */
export function archiveHeaders(total: number, perPage: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages(total, perPage)) };
}

/**
 * Whether the request came through one of `eps`, members of a family that declare what the rest of it
 * does not (the by-id routes' `id` capture beside the by-slug routes): a handler bound to the whole
 * family may then read what they declare. The test is on the endpoint the request was dispatched to,
 * which is also the one whose arguments the permission checks see when they are asked for `Allow`.
 */
export function through<const E extends readonly Endpoint[]>(ctx: HandlerContext, ...eps: E): ctx is HandlerContext<InputOf<Shared<E[number]>>> {
  return eps.some((ep) => ep.id === ctx.req.endpoint);
}

/**
 * The slug a by-slug route names, read from the path: a `slug` in the body is a new slug to write
 * (it wins over the path capture among the parameters, as in the reference).
 */
export function pathSlug(ctx: HandlerContext): string | null {
  if (!ctx.req.endpoint.includes('.slug.')) return null;
  const at = ctx.req.path.indexOf('/by-slug/');
  if (at < 0) return null;
  const raw = ctx.req.path.slice(at + '/by-slug/'.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A query as a cache key: the same parameters in any order give the same key. */
export function queryKey(query: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(query)
      .sort()
      .map((k) => [k, query[k]]),
  );
}
