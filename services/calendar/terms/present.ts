/** The term record of the category and tag endpoints: the terms controller's fields, `link` as `url`, and REST `urls`. */
import { restUrl, type Site } from '#libs/rest/site';
import { termLink } from '#libs/terms/link';
import type { TermDoc } from '#libs/terms/repository';
import { V1 } from '../links';

/** The term's REST links: itself, its archive, and its parent when it has one. */
function termUrls(site: Site, term: TermDoc): Record<string, string> {
  const base = term.taxonomy === 'post_tag' ? 'tags' : 'categories';
  const urls: Record<string, string> = { self: restUrl(site, `${V1}/${base}/${term.id}`), collection: restUrl(site, `${V1}/${base}`) };
  if (term.parent) urls.up = restUrl(site, `${V1}/${base}/${term.parent}`);
  return urls;
}

/** `ancestors` (id → slug and parent, from the repository) gives a child category its hierarchical archive link. */
export function presentTerm(
  site: Site,
  term: TermDoc,
  hierarchical: boolean,
  ancestors?: Map<number, { slug: string; parent: number }>,
): Record<string, unknown> {
  const urls = termUrls(site, term);
  return {
    id: term.id,
    count: term.count,
    description: term.description,
    url: termLink(site, term, ancestors),
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    ...(hierarchical ? { parent: term.parent } : {}),
    meta: [],
    urls,
  };
}

/** A term inside an event, built from the raw term as the reference does, with its REST links. */
export function embeddedTerm(site: Site, term: TermDoc): Record<string, unknown> {
  return {
    id: term.id,
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: 'raw',
    urls: termUrls(site, term),
  };
}
