/**
 * The taxonomies of the site as the reference registers them: `category` and `post_tag` (core) and the
 * calendar's event category. One table for routes, permissions, links and term rules, so the cms/v2
 * terms routes and the calendar's category and tag routes judge a term alike.
 */
import type { Caller } from '../auth/user';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from '../calendar/meta';
import { TAXONOMIES as REGISTERED, canTaxonomy, type TaxonomyObject } from '../posts/registered';

export type TermCap = 'manage_terms' | 'edit_terms' | 'delete_terms' | 'assign_terms';

export interface TaxonomyInfo {
  name: string;
  /** REST base in cms/v2 (the taxonomy's rest_base). */
  base: string;
  /** Schema title (core names the tag schema `tag`). */
  title: string;
  hierarchical: boolean;
  /** Post types that carry the taxonomy (the reference's object_type). */
  objectTypes: string[];
  /** The capability each term capability is (register_taxonomy caps; core ones are mapped by canTaxonomy). */
  caps: Record<TermCap, string>;
  /** First path segment(s) of the term's archive page. */
  archive: string;
}

/** Core names the tag schema `tag`; other schemas are titled with the taxonomy's name. */
const SCHEMA_TITLES: Record<string, string> = { [TAG_TAXONOMY]: 'tag' };

/** The registered taxonomies that show in REST (libs/posts/registered is the one register), as the term rules read them. */
export const TAXONOMIES: Record<string, TaxonomyInfo> = Object.fromEntries(
  REGISTERED.filter((t) => t.showInRest).map((t: TaxonomyObject) => [
    t.name,
    {
      name: t.name,
      base: t.restBase,
      title: SCHEMA_TITLES[t.name] ?? t.name,
      hierarchical: t.hierarchical,
      objectTypes: t.objectType,
      caps: t.caps,
      archive: t.archiveBase,
    },
  ]),
);

/** The cms/v2 terms routes, in the reference's registration order (category, post_tag, then plugins'). */
export const CMS_TAXONOMIES: TaxonomyInfo[] = [TAXONOMIES.category, TAXONOMIES[TAG_TAXONOMY], TAXONOMIES[CATEGORY_TAXONOMY]];

export function taxonomy(name: string): TaxonomyInfo {
  const t = TAXONOMIES[name];
  if (!t) throw new Error(`unknown taxonomy ${name}`);
  return t;
}

export function termCan(user: Caller, tax: TaxonomyInfo, cap: TermCap): boolean {
  return canTaxonomy(user, tax.caps[cap]);
}
