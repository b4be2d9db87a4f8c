/**
 * The argument declarations of cms/v2 posts, pages and the calendar's events, shared by the types (and
 * by media's list): the statuses, formats and orderings they take, the kinds as the post type registry
 * describes them (libs/posts/registered.ts: hierarchy, supports, taxonomies, who the type is shown to)
 * and what a page has that a post has not (parent, menu_order) and the reverse (format, sticky, terms),
 * the write arguments and the collection parameters.
 */
import type { Caller } from '../../auth/user';
import { CATEGORY_TAXONOMY, EVENT_TYPE } from '../../calendar/meta';
import { metaArg } from '../../posts/meta';
import { postTypeObject, taxonomiesOf } from '../../posts/registered';
import { sanitizeTitle } from '../../posts/slug';
import type { ArgDecl, ArgSchema } from '../../rest/registry';
import { collectionParams, idListArg, offsetArg, orderArg } from '../common';

export type PostKind = 'post' | 'page' | typeof EVENT_TYPE;

export const POST_FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const;

/** Statuses a post or page may be written with: core's public ones and the calendar importer's. */
export const WRITE_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'vendor-ea-success',
  'vendor-ea-failed',
  'vendor-ea-schedule',
  'vendor-ea-pending',
  'vendor-ea-draft',
  'vendor-ignored',
] as const;

/** Every registered status (the list filter also takes the internal ones, and `any`). */
export const ALL_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  ...WRITE_STATUSES.slice(5),
];

export const POST_ORDERBY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] as const;
export const REVISION_ORDERBY = ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const;

/** A taxonomy of a kind shown in REST: its term list argument and record property are named by its rest base. */
export interface KindTaxonomy {
  name: string;
  base: string;
  hierarchical: boolean;
  /** The capability assigning its terms takes (register_taxonomy's assign_terms; core's are mapped by canTaxonomy). */
  assignCap: string;
  /** The capability creating its terms takes: edit_terms for a hierarchical taxonomy, assign_terms otherwise (the posts controller's create action). */
  createCap: string;
}

export interface KindInfo {
  kind: PostKind;
  /** REST base: `posts`, `pages`, `vendor_events`. */
  base: string;
  hierarchical: boolean;
  /** The features the type supports (post_type_supports). */
  supports: readonly string[];
  /** The taxonomies shown in REST that the type carries, in registration order. */
  taxonomies: KindTaxonomy[];
  /** Sticky is a feature of core posts alone. */
  sticky: boolean;
  /** Who the type's routes exist for (its show_in_rest). */
  shownTo: (user: Caller) => boolean;
}

/** A kind as the post type registry declares its type. */
function kindOf(name: PostKind): KindInfo {
  const t = postTypeObject(name);
  if (!t) throw new Error(`post type ${name} is not registered`);
  return {
    kind: name,
    base: t.restBase,
    hierarchical: t.hierarchical,
    supports: t.supports,
    taxonomies: taxonomiesOf(name)
      .filter((x) => x.showInRest)
      .map((x) => ({
        name: x.name,
        base: x.restBase,
        hierarchical: x.hierarchical,
        assignCap: x.caps.assign_terms,
        createCap: x.hierarchical ? x.caps.edit_terms : x.caps.assign_terms,
      })),
    sticky: name === 'post',
    shownTo: t.showInRest,
  };
}

export const KINDS: Record<PostKind, KindInfo> = { post: kindOf('post'), page: kindOf('page'), [EVENT_TYPE]: kindOf(EVENT_TYPE) };

const dateArg = (description: string) => ({ description, type: ['string', 'null'], format: 'date-time' }) satisfies ArgDecl;
const textObject = (description: string) =>
  ({
    description,
    // The reference takes a plain string or an object with `raw`.
    type: ['string', 'object'],
    properties: { raw: { description: `${description.replace(/^The /, '').replace(/\.$/, '')}, as it exists in the database.`, type: 'string' } },
  }) satisfies ArgDecl;
const termIdsArg = (taxonomy: string) =>
  ({ description: `The terms assigned to the post in the ${taxonomy} taxonomy.`, type: 'array', items: { type: 'integer' } }) satisfies ArgDecl;

/*
 * Write arguments from the item schema, in its property order (none required, no defaults). Each type
 * has its own builder so that the declarations keep their literal types (and so the handlers' parameter
 * types derive): a page adds parent and menu_order, a post format, sticky, categories and tags.
 */
const writeHead = () =>
  ({
    date: dateArg("The date the post was published, in the site's timezone."),
    date_gmt: dateArg('The date the post was published, as GMT.'),
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', sanitize: (v: unknown) => sanitizeTitle(String(v)) },
    status: { description: 'A named status for the post.', type: 'string', enum: WRITE_STATUSES },
    password: { description: 'A password to protect access to the content and excerpt.', type: 'string' },
  }) satisfies Record<string, ArgDecl>;

const writeBody = () =>
  ({
    title: textObject('The title for the post.'),
    content: textObject('The content for the post.'),
    author: { description: 'The ID for the author of the post.', type: 'integer' },
    excerpt: textObject('The excerpt for the post.'),
    featured_media: { description: 'The ID of the featured media for the post.', type: 'integer' },
    comment_status: { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'] as const },
    ping_status: { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'] as const },
  }) satisfies Record<string, ArgDecl>;

const templateArg = () => ({ description: 'The theme file to use to display the post.', type: 'string' }) satisfies ArgDecl;

export function postWriteArgs() {
  return {
    ...writeHead(),
    ...writeBody(),
    format: { description: 'The format for the post.', type: 'string', enum: POST_FORMATS },
    meta: metaArg(),
    sticky: { description: 'Whether or not the post should be treated as sticky.', type: 'boolean' },
    template: templateArg(),
    categories: termIdsArg('category'),
    tags: termIdsArg('post_tag'),
  } satisfies Record<string, ArgDecl>;
}

/** The calendar's events (the type supports neither formats nor sticky; its terms are tags and event categories). */
export function eventWriteArgs() {
  return {
    ...writeHead(),
    ...writeBody(),
    meta: metaArg(),
    template: templateArg(),
    tags: termIdsArg('post_tag'),
    [CATEGORY_TAXONOMY]: termIdsArg(CATEGORY_TAXONOMY),
  } satisfies Record<string, ArgDecl>;
}

export function pageWriteArgs() {
  return {
    ...writeHead(),
    parent: { description: 'The ID for the parent of the post.', type: 'integer' },
    ...writeBody(),
    menu_order: { description: 'The order of the post in relation to other posts.', type: 'integer' },
    meta: metaArg(),
    template: templateArg(),
  } satisfies Record<string, ArgDecl>;
}

/** `categories`/`tags` filters: a list of ids, or `{terms, include_children, operator}`. */
function termLimitArg(base: string, exclude: boolean, hierarchical: boolean) {
  const properties: Record<string, ArgSchema> = {
    terms: { description: 'Term IDs.', type: 'array', items: { type: 'integer' }, default: [] },
  };
  if (hierarchical)
    properties.include_children = { description: 'Whether to include child terms in the terms limiting the result set.', type: 'boolean', default: false };
  if (!exclude)
    properties.operator = {
      description: 'Whether items must be assigned all or any of the specified terms.',
      type: 'string',
      enum: ['AND', 'OR'],
      default: 'OR',
    };
  return {
    description: exclude
      ? `Limit result set to items except those with specific terms assigned in the ${base} taxonomy.`
      : `Limit result set to items with specific terms assigned in the ${base} taxonomy.`,
    type: ['object', 'array'],
    oneOf: [
      { title: 'Term ID List', description: 'Match terms with the listed IDs.', type: 'array', items: { type: 'integer' } },
      { title: 'Term ID Taxonomy Query', description: 'Perform an advanced term query.', type: 'object', properties, additionalProperties: false },
    ],
  } satisfies ArgDecl;
}

const dateFilter = (description: string) => ({ description, type: 'string', format: 'date-time' }) satisfies ArgDecl;

/* The collection parameters, in the reference's order; as with the write arguments, one builder per type. */
const listHead = () =>
  ({
    ...collectionParams(),
    after: dateFilter('Limit response to posts published after a given ISO8601 compliant date.'),
    modified_after: dateFilter('Limit response to posts modified after a given ISO8601 compliant date.'),
    author: idListArg('Limit result set to posts assigned to specific authors.'),
    author_exclude: idListArg('Ensure result set excludes posts assigned to specific authors.'),
    before: dateFilter('Limit response to posts published before a given ISO8601 compliant date.'),
    modified_before: dateFilter('Limit response to posts modified before a given ISO8601 compliant date.'),
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
  }) satisfies Record<string, ArgDecl>;

const searchSemanticsArg = () => ({ description: 'How to interpret the search input.', type: 'string', enum: ['exact'] as const }) satisfies ArgDecl;
const orderbyArg = <const E extends readonly string[]>(values: E) =>
  ({ description: 'Sort collection by post attribute.', type: 'string', default: 'date', enum: values }) satisfies ArgDecl;

const listTail = () =>
  ({
    search_columns: {
      default: [],
      description: 'Array of column names to be searched.',
      type: 'array',
      items: { enum: ['post_title', 'post_content', 'post_excerpt'] as const, type: 'string' },
    },
    slug: { description: 'Limit result set to posts with one or more specific slugs.', type: 'array', items: { type: 'string' } },
    status: {
      default: 'publish',
      description: 'Limit result set to posts assigned one or more statuses.',
      type: 'array',
      items: { enum: [...ALL_STATUSES, 'any'], type: 'string' },
    },
  }) satisfies Record<string, ArgDecl>;

/** The list arguments every non-hierarchical post type's collection starts with, in the reference's order (up to `tax_relation`). */
function flatCollectionHead() {
  return {
    ...listHead(),
    search_semantics: searchSemanticsArg(),
    offset: offsetArg(),
    order: orderArg('desc'),
    orderby: orderbyArg(POST_ORDERBY),
    ...listTail(),
    tax_relation: { description: 'Limit result set based on relationship between multiple taxonomies.', type: 'string', enum: ['AND', 'OR'] as const },
  } satisfies Record<string, ArgDecl>;
}

export function postCollectionArgs() {
  return {
    ...flatCollectionHead(),
    categories: termLimitArg('categories', false, true),
    categories_exclude: termLimitArg('categories', true, true),
    tags: termLimitArg('tags', false, false),
    tags_exclude: termLimitArg('tags', true, false),
    sticky: { description: 'Limit result set to items that are sticky.', type: 'boolean' },
    ignore_sticky: { description: 'Whether to ignore sticky posts or not.', type: 'boolean', default: true },
    format: {
      description: 'Limit result set to items assigned one or more given formats.',
      type: 'array',
      uniqueItems: true,
      items: { enum: POST_FORMATS, type: 'string' },
    },
  } satisfies Record<string, ArgDecl>;
}

const CATEGORY_EXCLUDE = `${CATEGORY_TAXONOMY}_exclude` as const;

export function eventCollectionArgs() {
  return {
    ...flatCollectionHead(),
    tags: termLimitArg('tags', false, false),
    tags_exclude: termLimitArg('tags', true, false),
    [CATEGORY_TAXONOMY]: termLimitArg(CATEGORY_TAXONOMY, false, true),
    [CATEGORY_EXCLUDE]: termLimitArg(CATEGORY_TAXONOMY, true, true),
  } satisfies Record<string, ArgDecl>;
}

export function pageCollectionArgs() {
  return {
    ...listHead(),
    menu_order: { description: 'Limit result set to posts with a specific menu_order value.', type: 'integer' },
    search_semantics: searchSemanticsArg(),
    offset: offsetArg(),
    order: orderArg('desc'),
    orderby: orderbyArg([...POST_ORDERBY, 'menu_order']),
    parent: idListArg('Limit result set to items with particular parent IDs.'),
    parent_exclude: idListArg('Limit result set to all items except those of a particular parent ID.'),
    ...listTail(),
  } satisfies Record<string, ArgDecl>;
}
