/**
 * cms/v2 posts and pages with their revisions and autosaves (reference: the posts, revisions and
 * autosaves controllers). Both types share one declaration, parameterised by what a page has that a
 * post has not (parent, menu_order) and the reverse (format, sticky, categories, tags).
 */
import { metaArg, metaSchema } from '../../posts/meta';
import { sanitizeTitle } from '../../posts/slug';
import { type ArgDecl, type ArgSchema, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { restUrl, type Site } from '../../rest/site';
import { contextArg, idListArg, offsetArg, orderArg, pageArg, perPageArg, searchArg, objectSchema } from '../common';

const NS = 'cms/v2';

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
  if (hierarchical) properties.include_children = { description: 'Whether to include child terms in the terms limiting the result set.', type: 'boolean', default: false };
  if (!exclude) properties.operator = { description: 'Whether items must be assigned all or any of the specified terms.', type: 'string', enum: ['AND', 'OR'], default: 'OR' };
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
    context: contextArg('view'),
    page: pageArg(),
    per_page: perPageArg(),
    search: searchArg(),
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
  args.orderby = { description: 'Sort collection by post attribute.', type: 'string', default: 'date', enum: k.hierarchical ? [...POST_ORDERBY, 'menu_order'] : POST_ORDERBY };
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
    args.format = { description: 'Limit result set to items assigned one or more given formats.', type: 'array', uniqueItems: true, items: { enum: POST_FORMATS, type: 'string' } };
  }
  return args;
}

const postIdArg = (): ArgDecl => ({ description: 'Unique identifier for the post.', type: 'integer' });
const parentArg = (what: string): ArgDecl => ({ description: `The ID for the parent of the ${what}.`, type: 'integer' });

/** The record schema of a post or page (OPTIONS and context=help). */
export function itemSchema(k: KindInfo): Record<string, unknown> {
  const rendered = (d: string, ctx = ['view', 'edit', 'embed']) => ({ description: d, type: 'string', context: ctx, readonly: true });
  const props: Record<string, unknown> = {
    date: { description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time', context: ['view', 'edit', 'embed'] },
    date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time', context: ['view', 'edit'] },
    guid: {
      description: 'The globally unique identifier for the post.',
      type: 'object',
      context: ['view', 'edit'],
      readonly: true,
      properties: { raw: { ...rendered('GUID for the post, as it exists in the database.', ['edit']) }, rendered: rendered('GUID for the post, transformed for display.', ['view', 'edit']) },
    },
    id: { description: 'Unique identifier for the post.', type: 'integer', context: ['view', 'edit', 'embed'], readonly: true },
    link: { description: 'URL to the post.', type: 'string', format: 'uri', context: ['view', 'edit', 'embed'], readonly: true },
    modified: { description: "The date the post was last modified, in the site's timezone.", type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
    modified_gmt: { description: 'The date the post was last modified, as GMT.', type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', context: ['view', 'edit', 'embed'] },
    status: { description: 'A named status for the post.', type: 'string', enum: WRITE_STATUSES, context: ['view', 'edit'] },
    type: { description: 'Type of post.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    password: { description: 'A password to protect access to the content and excerpt.', type: 'string', context: ['edit'] },
    permalink_template: { description: 'Permalink template for the post.', type: 'string', context: ['edit'], readonly: true },
    generated_slug: { description: 'Slug automatically generated from the post title.', type: 'string', context: ['edit'], readonly: true },
  };
  if (k.hierarchical) props.parent = { description: 'The ID for the parent of the post.', type: 'integer', context: ['view', 'edit'] };
  props.title = {
    description: 'The title for the post.',
    type: 'object',
    context: ['view', 'edit', 'embed'],
    properties: { raw: { description: 'Title for the post, as it exists in the database.', type: 'string', context: ['edit'] }, rendered: rendered('HTML title for the post, transformed for display.') },
  };
  props.content = {
    description: 'The content for the post.',
    type: 'object',
    context: ['view', 'edit'],
    properties: {
      raw: { description: 'Content for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('HTML content for the post, transformed for display.', ['view', 'edit']),
      block_version: { description: 'Version of the content block format used by the post.', type: 'integer', context: ['edit'], readonly: true },
      protected: { description: 'Whether the content is protected with a password.', type: 'boolean', context: ['view', 'edit', 'embed'], readonly: true },
    },
  };
  props.author = { description: 'The ID for the author of the post.', type: 'integer', context: ['view', 'edit', 'embed'] };
  props.excerpt = {
    description: 'The excerpt for the post.',
    type: 'object',
    context: ['view', 'edit', 'embed'],
    properties: {
      raw: { description: 'Excerpt for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('HTML excerpt for the post, transformed for display.'),
      protected: { description: 'Whether the excerpt is protected with a password.', type: 'boolean', context: ['view', 'edit', 'embed'], readonly: true },
    },
  };
  props.featured_media = { description: 'The ID of the featured media for the post.', type: 'integer', context: ['view', 'edit', 'embed'] };
  props.comment_status = { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'], context: ['view', 'edit'] };
  props.ping_status = { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'], context: ['view', 'edit'] };
  if (k.hierarchical) props.menu_order = { description: 'The order of the post in relation to other posts.', type: 'integer', context: ['view', 'edit'] };
  if (!k.hierarchical) props.format = { description: 'The format for the post.', type: 'string', enum: POST_FORMATS, context: ['view', 'edit'] };
  props.meta = metaSchema();
  if (!k.hierarchical) props.sticky = { description: 'Whether or not the post should be treated as sticky.', type: 'boolean', context: ['view', 'edit'] };
  props.template = { description: 'The theme file to use to display the post.', type: 'string', context: ['view', 'edit'] };
  if (!k.hierarchical) {
    props.categories = { description: 'The terms assigned to the post in the category taxonomy.', type: 'array', items: { type: 'integer' }, context: ['view', 'edit'] };
    props.tags = { description: 'The terms assigned to the post in the post_tag taxonomy.', type: 'array', items: { type: 'integer' }, context: ['view', 'edit'] };
  }
  props.class_list = { description: 'An array of the class names for the post container element.', type: 'array', items: { type: 'string' }, context: ['view', 'edit'], readonly: true };
  return objectSchema(k.kind, props);
}

/** A targetSchema link: the action `rel` names is the one the record's `properties` are written with. */
const actionLink = (rel: string, title: string, href: string, properties: Record<string, unknown>) => ({
  rel: `https://api.w.org/action-${rel}`,
  title,
  href,
  targetSchema: { type: 'object', properties },
});

/**
 * The posts controller's schema links: the actions a user may be allowed on a record of the type
 * (publish, unfiltered HTML, sticky for posts, author, and assigning and creating terms of each of
 * its taxonomies), all aimed at the item route.
 */
export function postSchemaLinks(k: KindInfo, site: Site): Array<Record<string, unknown>> {
  const href = restUrl(site, `/${NS}/${k.base}/{id}`);
  const links = [
    actionLink('publish', 'The current user can publish this post.', href, { status: { type: 'string', enum: ['publish', 'future'] } }),
    actionLink('unfiltered-html', 'The current user can post unfiltered HTML markup and JavaScript.', href, { content: { raw: { type: 'string' } } }),
  ];
  if (k.kind === 'post') links.push(actionLink('sticky', 'The current user can sticky this post.', href, { sticky: { type: 'boolean' } }));
  links.push(actionLink('assign-author', 'The current user can change the author on this post.', href, { author: { type: 'integer' } }));
  const taxonomies: Array<[name: string, base: string]> = k.hierarchical ? [] : [['category', 'categories'], ['post_tag', 'tags']];
  for (const [name, base] of taxonomies) {
    const terms = { [base]: { type: 'array', items: { type: 'integer' } } };
    links.push(actionLink(`assign-${base}`, `The current user can assign terms in the ${name} taxonomy.`, href, terms));
    links.push(actionLink(`create-${base}`, `The current user can create terms in the ${name} taxonomy.`, href, terms));
  }
  return links;
}

/** The record schema of a revision (or, with preview_link, an autosave) of a post or page. */
export function revisionSchema(k: KindInfo, autosave: boolean): Record<string, unknown> {
  const item = itemSchema(k).properties as Record<string, unknown>;
  const props: Record<string, unknown> = {
    author: { description: 'The ID for the author of the revision.', type: 'integer', context: ['view', 'edit', 'embed'] },
    date: { description: "The date the revision was published, in the site's timezone.", type: 'string', format: 'date-time', context: ['view', 'edit', 'embed'] },
    date_gmt: { description: 'The date the revision was published, as GMT.', type: 'string', format: 'date-time', context: ['view', 'edit'] },
    guid: item.guid,
    id: { description: 'Unique identifier for the revision.', type: 'integer', context: ['view', 'edit', 'embed'] },
    modified: { description: "The date the revision was last modified, in the site's timezone.", type: 'string', format: 'date-time', context: ['view', 'edit'] },
    modified_gmt: { description: 'The date the revision was last modified, as GMT.', type: 'string', format: 'date-time', context: ['view', 'edit'] },
    parent: { description: 'The ID for the parent of the revision.', type: 'integer', context: ['view', 'edit', 'embed'] },
    slug: { description: 'An alphanumeric identifier for the revision unique to its type.', type: 'string', context: ['view', 'edit', 'embed'] },
    title: item.title,
    content: item.content,
    excerpt: item.excerpt,
    meta: metaSchema(),
  };
  if (autosave) props.preview_link = { description: 'Preview link for the post.', type: 'string', format: 'uri', context: ['edit'], readonly: true };
  return objectSchema(`${k.kind}-revision`, props);
}

/** Registers the routes of one type, in the reference's order. */
function registerKind(registry: RouteRegistry, k: KindInfo): void {
  const base = `/${NS}/${k.base}`;
  const id = k.kind === 'post' ? 'cms.posts' : 'cms.pages';
  registry.add({
    namespace: NS,
    pattern: base,
    schema: () => itemSchema(k),
    schemaLinks: (site) => postSchemaLinks(k, site),
    endpoints: [
      { id: `${id}.list`, service: 'content', methods: ['GET'], args: collectionArgs(k), allowBatch: true },
      { id: `${id}.create`, service: 'content', methods: ['POST'], args: writeArgs(k), allowBatch: true },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<id>[\\d]+)`,
    schema: () => itemSchema(k),
    schemaLinks: (site) => postSchemaLinks(k, site),
    endpoints: [
      {
        id: `${id}.get`,
        service: 'content',
        methods: ['GET'],
        args: {
          id: postIdArg(),
          context: contextArg('view'),
          excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
          password: { description: 'The password for the post if it is password protected.', type: 'string' },
        },
        allowBatch: true,
      },
      { id: `${id}.update`, service: 'content', methods: EDITABLE, args: { id: postIdArg(), ...writeArgs(k) }, allowBatch: true },
      {
        id: `${id}.delete`,
        service: 'content',
        methods: DELETABLE,
        args: { id: postIdArg(), force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
        allowBatch: true,
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/revisions`,
    schema: () => revisionSchema(k, false),
    endpoints: [
      {
        id: `${id}.revisions.list`,
        service: 'content',
        methods: ['GET'],
        args: {
          parent: parentArg('revision'),
          context: contextArg('view'),
          page: pageArg(),
          per_page: perPageArg(undefined),
          search: searchArg(),
          exclude: idListArg('Ensure result set excludes specific IDs.'),
          include: idListArg('Limit result set to specific IDs.'),
          offset: offsetArg(),
          order: orderArg('desc'),
          orderby: { description: 'Sort collection by object attribute.', type: 'string', default: 'date', enum: REVISION_ORDERBY },
        },
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, false),
    endpoints: [
      {
        id: `${id}.revisions.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('revision'), id: { description: 'Unique identifier for the revision.', type: 'integer' }, context: contextArg('view') },
      },
      {
        id: `${id}.revisions.delete`,
        service: 'content',
        methods: DELETABLE,
        args: {
          parent: parentArg('revision'),
          id: { description: 'Unique identifier for the revision.', type: 'integer' },
          force: { type: 'boolean', default: false, description: 'Required to be true, as revisions do not support trashing.' },
        },
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<id>[\\d]+)/autosaves`,
    schema: () => revisionSchema(k, true),
    endpoints: [
      { id: `${id}.autosaves.list`, service: 'content', methods: ['GET'], args: { parent: parentArg('autosave'), context: contextArg('view') } },
      { id: `${id}.autosaves.create`, service: 'content', methods: ['POST'], args: { parent: parentArg('autosave'), ...writeArgs(k) } },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, true),
    endpoints: [
      {
        id: `${id}.autosaves.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('autosave'), id: { description: 'The ID for the autosave.', type: 'integer' }, context: contextArg('view') },
      },
    ],
  });
}

export function registerPostRoutes(registry: RouteRegistry): void {
  registerKind(registry, KINDS.post);
  registerKind(registry, KINDS.page);
}
