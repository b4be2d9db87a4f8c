/**
 * Terms in `view`, `embed` and `edit` context with their `_links` (reference: the terms controller's
 * prepare_item_for_response and prepare_links). Ancestors for archive links and `up` are loaded once
 * for a whole page by the caller, so presenting never queries.
 */
import type { Caller } from '#libs/auth/user';
import type { CompiledRoute, RouteRegistry } from '#libs/rest/registry';
import { restUrl, type Site } from '#libs/rest/site';
import { termLink } from '#libs/terms/link';
import type { TermDoc } from '#libs/terms/repository';
import type { TaxonomyInfo } from '#libs/terms/taxonomies';

export type Context = 'view' | 'embed' | 'edit';

/** Which link targets exist in this build (links point only at routes that answer). */
export interface TermLinkTargets {
  /** cms/v2/taxonomies/<taxonomy> answers. */
  about: boolean;
  /** Post type → its cms/v2 collection path and route, for the types whose collection route exists (for some callers at least). */
  collections: Map<string, { path: string; route: CompiledRoute }>;
  /** Whether a route exists for the caller (RouteRegistry.shows). */
  shows: (route: CompiledRoute, user: Caller) => boolean;
}

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The REST collection of each post type that can carry terms (rest_get_route_for_post_type_items). */
const TYPE_BASES: Record<string, string> = { post: 'posts', page: 'pages', vendor_events: 'vendor_events' };

export function termLinkTargets(registry: RouteRegistry, tax: TaxonomyInfo): TermLinkTargets {
  const find = (path: string) => {
    const m = registry.match(path, 'anyone');
    return m?.route.namespace === 'cms/v2' ? m.route : undefined;
  };
  const collections = new Map<string, { path: string; route: CompiledRoute }>();
  for (const type of tax.objectTypes) {
    const base = TYPE_BASES[type];
    const route = base ? find(`/cms/v2/${base}`) : undefined;
    if (base && route) collections.set(type, { path: `/cms/v2/${base}`, route });
  }
  return { about: find(`/cms/v2/taxonomies/${tax.name}`) !== undefined, collections, shows: (route, user) => registry.shows(route, user) };
}

export interface TermPresentInput {
  site: Site;
  tax: TaxonomyInfo;
  context: Context;
  /** Term id → slug and parent for the terms and all their ancestors. */
  ancestors: Map<number, { slug: string; parent: number }>;
  targets: TermLinkTargets;
  /** The caller: a collection of a post type shown to some callers only is linked for them alone. */
  user: Caller;
}

function links(term: TermDoc, input: TermPresentInput): Record<string, unknown> {
  const { site, tax } = input;
  const base = `/cms/v2/${tax.base}`;
  const out: Record<string, unknown> = {
    self: [{ href: restUrl(site, `${base}/${term.id}`) }],
    collection: [{ href: restUrl(site, base) }],
  };
  if (input.targets.about) out.about = [{ href: restUrl(site, `/cms/v2/taxonomies/${tax.name}`) }];
  if (term.parent && input.ancestors.has(term.parent)) out.up = [{ href: restUrl(site, `${base}/${term.parent}`), embeddable: true }];
  const postTypes = [...input.targets.collections.values()]
    .filter(({ route }) => input.targets.shows(route, input.user))
    .map(({ path }) => ({ href: restUrl(site, path, { [tax.base]: term.id }) }));
  if (postTypes.length) {
    out['wp:post_type'] = postTypes;
    out.curies = CURIES;
  }
  return out;
}

/** A term in the requested context; `withLinks` false gives the bare data (a delete's `previous`). */
export function presentTerm(term: TermDoc, input: TermPresentInput, withLinks = true): Record<string, unknown> {
  const full = input.context !== 'embed';
  const out: Record<string, unknown> = { id: term.id };
  if (full) {
    out.count = term.count;
    out.description = term.description;
  }
  out.link = termLink(input.site, term, input.ancestors);
  out.name = term.name;
  out.slug = term.slug;
  out.taxonomy = term.taxonomy;
  if (full) {
    if (input.tax.hierarchical) out.parent = term.parent;
    // No term meta is registered, so the reference answers an empty list.
    out.meta = [];
  }
  if (withLinks) out._links = links(term, input);
  return out;
}
