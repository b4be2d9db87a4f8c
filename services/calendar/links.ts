/** Public addresses of calendar records: permalinks, REST URLs and the reference's global ids. */
import { restUrl, type Site } from '../../libs/rest/site';
import { permalinkOf } from '../../libs/posts/permalink';
import type { PostDoc } from '../../libs/posts/types';

export const V1 = '/vendor/events/v1';

/** `<home>/event/<slug>/`, or the query form for a record without a slug (a draft). */
export function permalink(site: Site, doc: Pick<PostDoc, 'id' | 'type' | 'slug'>): string {
  return permalinkOf(site, doc);
}

/** The reference's Global ID: the home URL's host and path, then `?id=<ID>`. */
export function globalId(site: Site, id: number): string {
  const u = new URL(site.home);
  return `${u.hostname}${u.pathname.replace(/\/+$/, '')}?id=${id}`;
}

export const eventRestUrl = (site: Site, id: number): string => restUrl(site, `${V1}/events/${id}`);
