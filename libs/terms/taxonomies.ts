/**
 * The taxonomies of the site as the reference registers them: `category` and `post_tag` (core) and the
 * calendar's event category. One table for routes, permissions, links and term rules, so the cms/v2
 * terms routes and the calendar's category and tag routes judge a term alike.
 */
import { can, type Caller } from '../auth/user';
import { CATEGORY_TAXONOMY, EVENT_TYPE, TAG_TAXONOMY } from '../calendar/meta';

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
  /** The primitive capability each term capability maps to (register_taxonomy caps after map_meta_cap). */
  caps: Record<TermCap, string>;
  /** First path segment(s) of the term's archive page. */
  archive: string;
}

export const TAXONOMIES: Record<string, TaxonomyInfo> = {
  category: {
    name: 'category',
    base: 'categories',
    title: 'category',
    hierarchical: true,
    objectTypes: ['post'],
    // edit_categories, delete_categories map to manage_categories; assign_categories to edit_posts.
    caps: { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' },
    archive: 'category',
  },
  [TAG_TAXONOMY]: {
    name: TAG_TAXONOMY,
    base: 'tags',
    title: 'tag',
    hierarchical: false,
    // The calendar registers its events with post_tag too.
    objectTypes: ['post', EVENT_TYPE],
    caps: { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' },
    archive: 'tag',
  },
  [CATEGORY_TAXONOMY]: {
    name: CATEGORY_TAXONOMY,
    base: CATEGORY_TAXONOMY,
    title: CATEGORY_TAXONOMY,
    hierarchical: true,
    objectTypes: [EVENT_TYPE],
    // The calendar's event category: managed by whoever may publish events, assigned by whoever may edit them.
    caps: { manage_terms: 'publish_vendor_events', edit_terms: 'publish_vendor_events', delete_terms: 'publish_vendor_events', assign_terms: 'edit_vendor_events' },
    archive: 'events/category',
  },
};

/** The cms/v2 terms routes, in the reference's registration order (category, post_tag, then plugins'). */
export const CMS_TAXONOMIES: TaxonomyInfo[] = [TAXONOMIES.category, TAXONOMIES[TAG_TAXONOMY], TAXONOMIES[CATEGORY_TAXONOMY]];

export function taxonomy(name: string): TaxonomyInfo {
  const t = TAXONOMIES[name];
  if (!t) throw new Error(`unknown taxonomy ${name}`);
  return t;
}

export function termCan(user: Caller, tax: TaxonomyInfo, cap: TermCap): boolean {
  return can(user, tax.caps[cap]);
}
