/**
 * The argument declarations of cms/v2 posts and pages, shared by both types (and by media's list): the
 * statuses, formats and orderings they take, the two kinds and what a page has that a post has not
 * (parent, menu_order) and the reverse (format, sticky, categories, tags), the write arguments and the
 * collection parameters.
 */
import { metaArg } from '../../posts/meta';
import { sanitizeTitle } from '../../posts/slug';
import type { ArgDecl, ArgSchema } from '../../rest/registry';
import { collectionParams, idListArg, offsetArg, orderArg } from '../common';

export type PostKind = 'post' | 'page';

export const POST_FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'];

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
];

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

export const POST_ORDERBY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'];
export const REVISION_ORDERBY = ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'];

export interface KindInfo {
  kind: PostKind;
  /** REST base: `posts` or `pages`. */
  base: string;
  hierarchical: boolean;
}

export const KINDS: Record<PostKind, KindInfo> = {
  post: { kind: 'post', base: 'posts', hierarchical: false },
  page: { kind: 'page', base: 'pages', hierarchical: true },
};

const dateArg = (description: string): ArgDecl => ({ description, type: ['string', 'null'], format: 'date-time' });
const textObject = (description: string, extra: Record<string, ArgSchema> = {}): ArgDecl => ({
  description,
  // The reference takes a plain string or an object with `raw`.
  type: ['string', 'object'],
  properties: { raw: { description: `${description.replace(/^The /, '').replace(/\.$/, '')}, as it exists in the database.`, type: 'string' }, ...extra },
});

/** Write arguments from the item schema, in its property order (none required, no defaults). */
export function writeArgs(k: KindInfo): Record<string, ArgDecl> {
  const args: Record<string, ArgDecl> = {
    date: dateArg("The date the post was published, in the site's timezone."),
    date_gmt: dateArg('The date the post was published, as GMT.'),
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', sanitize: (v) => sanitizeTitle(String(v)) },
    status: { description: 'A named status for the post.', type: 'string', enum: WRITE_STATUSES },
    password: { description: 'A password to protect access to the content and excerpt.', type: 'string' },
  };
  if (k.hierarchical) args.parent = { description: 'The ID for the parent of the post.', type: 'integer' };
  args.title = textObject('The title for the post.');
  args.content = textObject('The content for the post.');
  args.author = { description: 'The ID for the author of the post.', type: 'integer' };
  args.excerpt = textObject('The excerpt for the post.');
  args.featured_media = { description: 'The ID of the featured media for the post.', type: 'integer' };
  args.comment_status = { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'] };
  args.ping_status = { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'] };
  if (k.hierarchical) args.menu_order = { description: 'The order of the post in relation to other posts.', type: 'integer' };
  if (!k.hierarchical) args.format = { description: 'The format for the post.', type: 'string', enum: POST_FORMATS };
  args.meta = metaArg();
  if (!k.hierarchical) args.sticky = { description: 'Whether or not the post should be treated as sticky.', type: 'boolean' };
  args.template = { description: 'The theme file to use to display the post.', type: 'string' };
  if (!k.hierarchical) {
    args.categories = { description: 'The terms assigned to the post in the category taxonomy.', type: 'array', items: { type: 'integer' } };
    args.tags = { description: 'The terms assigned to the post in the post_tag taxonomy.', type: 'array', items: { type: 'integer' } };
  }
  return args;
}

/** `categories`/`tags` filters: a list of ids, or `{terms, include_children, operator}`. */
function termLimitArg(base: string, exclude: boolean, hierarchical: boolean): ArgDecl {
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
  };
}

export function collectionArgs(k: KindInfo): Record<string, ArgDecl> {
  const args: Record<string, ArgDecl> = {
    ...collectionParams(),
    after: { description: 'Limit response to posts published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    modified_after: { description: 'Limit response to posts modified after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    author: idListArg('Limit result set to posts assigned to specific authors.'),
    author_exclude: idListArg('Ensure result set excludes posts assigned to specific authors.'),
    before: { description: 'Limit response to posts published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    modified_before: { description: 'Limit response to posts modified before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
  };
  if (k.hierarchical) args.menu_order = { description: 'Limit result set to posts with a specific menu_order value.', type: 'integer' };
  args.search_semantics = { description: 'How to interpret the search input.', type: 'string', enum: ['exact'] };
  args.offset = offsetArg();
  args.order = orderArg('desc');
  args.orderby = {
    description: 'Sort collection by post attribute.',
    type: 'string',
    default: 'date',
    enum: k.hierarchical ? [...POST_ORDERBY, 'menu_order'] : POST_ORDERBY,
  };
  if (k.hierarchical) {
    args.parent = idListArg('Limit result set to items with particular parent IDs.');
    args.parent_exclude = idListArg('Limit result set to all items except those of a particular parent ID.');
  }
  args.search_columns = {
    default: [],
    description: 'Array of column names to be searched.',
    type: 'array',
    items: { enum: ['post_title', 'post_content', 'post_excerpt'], type: 'string' },
  };
  args.slug = { description: 'Limit result set to posts with one or more specific slugs.', type: 'array', items: { type: 'string' } };
  args.status = {
    default: 'publish',
    description: 'Limit result set to posts assigned one or more statuses.',
    type: 'array',
    items: { enum: [...ALL_STATUSES, 'any'], type: 'string' },
  };
  if (!k.hierarchical) {
    args.tax_relation = { description: 'Limit result set based on relationship between multiple taxonomies.', type: 'string', enum: ['AND', 'OR'] };
    args.categories = termLimitArg('categories', false, true);
    args.categories_exclude = termLimitArg('categories', true, true);
    args.tags = termLimitArg('tags', false, false);
    args.tags_exclude = termLimitArg('tags', true, false);
    args.sticky = { description: 'Limit result set to items that are sticky.', type: 'boolean' };
    args.ignore_sticky = { description: 'Whether to ignore sticky posts or not.', type: 'boolean', default: true };
    args.format = {
      description: 'Limit result set to items assigned one or more given formats.',
      type: 'array',
      uniqueItems: true,
      items: { enum: POST_FORMATS, type: 'string' },
    };
  }
  return args;
}
