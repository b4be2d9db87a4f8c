/** The term record of the category and tag endpoints: the terms controller's fields, `link` as `url`, and REST `urls`. */
import { restUrl, type Site } from '../../../libs/rest/site';
import type { TermDoc } from '../../../libs/terms/repository';
import { V1 } from '../links';

/** The term's archive page: `/events/category/<slug>/` for event categories, `/tag/<slug>/` for tags. */
export function termLink(site: Site, term: TermDoc): string {
  return term.taxonomy === 'post_tag' ? `${site.home}/tag/${term.slug}/` : `${site.home}/events/category/${term.slug}/`;
}

export function presentTerm(site: Site, term: TermDoc, hierarchical: boolean): Record<string, unknown> {
  const base = hierarchical ? 'categories' : 'tags';
  const urls: Record<string, string> = { self: restUrl(site, `${V1}/${base}/${term.id}`), collection: restUrl(site, `${V1}/${base}`) };
  if (term.parent) urls.up = restUrl(site, `${V1}/${base}/${term.parent}`);
  return {
    id: term.id,
    count: term.count,
    description: term.description,
    url: termLink(site, term),
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    ...(hierarchical ? { parent: term.parent } : {}),
    meta: [],
    urls,
  };
}
