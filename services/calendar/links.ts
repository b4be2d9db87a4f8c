/** Public addresses of calendar records: REST URLs and the reference's global ids (permalinks: libs/posts/permalink.ts). */
import { restUrl, type Site } from '#libs/rest/site';

export const V1 = '/vendor/events/v1';

/** The reference's Global ID: the home URL's host and path, then `?id=<ID>`. */
export function globalId(site: Site, id: number): string {
  const u = new URL(site.home);
  return `${u.hostname}${u.pathname.replace(/\/+$/, '')}?id=${id}`;
}

export const eventRestUrl = (site: Site, id: number): string => restUrl(site, `${V1}/events/${id}`);
