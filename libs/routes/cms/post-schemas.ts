/**
 * The record schemas of cms/v2 posts, pages and events (OPTIONS and context=help), of their revisions and
 * autosaves, and the posts controller's schema links.
 */
import { metaSchema } from '../../posts/meta';
import { restUrl, type Site } from '../../rest/site';
import { objectSchema, type ObjectSchema } from '../common';
import { POST_FORMATS, WRITE_STATUSES, type KindInfo } from './post-args';

const NS = 'cms/v2';

/** The record schema of a post or page (OPTIONS and context=help). */
export function itemSchema(k: KindInfo): ObjectSchema {
  const rendered = (d: string, ctx = ['view', 'edit', 'embed']) => ({ description: d, type: 'string', context: ctx, readonly: true });
  const props: Record<string, unknown> = {
    date: {
      description: "The date the post was published, in the site's timezone.",
      type: ['string', 'null'],
      format: 'date-time',
      context: ['view', 'edit', 'embed'],
    },
    date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time', context: ['view', 'edit'] },
    guid: {
      description: 'The globally unique identifier for the post.',
      type: 'object',
      context: ['view', 'edit'],
      readonly: true,
      properties: {
        raw: { ...rendered('GUID for the post, as it exists in the database.', ['edit']) },
        rendered: rendered('GUID for the post, transformed for display.', ['view', 'edit']),
      },
    },
    id: { description: 'Unique identifier for the post.', type: 'integer', context: ['view', 'edit', 'embed'], readonly: true },
    link: { description: 'URL to the post.', type: 'string', format: 'uri', context: ['view', 'edit', 'embed'], readonly: true },
    modified: {
      description: "The date the post was last modified, in the site's timezone.",
      type: 'string',
      format: 'date-time',
      context: ['view', 'edit'],
      readonly: true,
    },
    modified_gmt: {
      description: 'The date the post was last modified, as GMT.',
      type: 'string',
      format: 'date-time',
      context: ['view', 'edit'],
      readonly: true,
    },
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
    properties: {
      raw: { description: 'Title for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('HTML title for the post, transformed for display.'),
    },
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
  if (k.supports.includes('post-formats'))
    props.format = { description: 'The format for the post.', type: 'string', enum: POST_FORMATS, context: ['view', 'edit'] };
  props.meta = metaSchema();
  if (k.sticky) props.sticky = { description: 'Whether or not the post should be treated as sticky.', type: 'boolean', context: ['view', 'edit'] };
  props.template = { description: 'The theme file to use to display the post.', type: 'string', context: ['view', 'edit'] };
  for (const tax of k.taxonomies) {
    props[tax.base] = {
      description: `The terms assigned to the post in the ${tax.name} taxonomy.`,
      type: 'array',
      items: { type: 'integer' },
      context: ['view', 'edit'],
    };
  }
  props.class_list = {
    description: 'An array of the class names for the post container element.',
    type: 'array',
    items: { type: 'string' },
    context: ['view', 'edit'],
    readonly: true,
  };
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
  if (k.sticky) links.push(actionLink('sticky', 'The current user can sticky this post.', href, { sticky: { type: 'boolean' } }));
  links.push(actionLink('assign-author', 'The current user can change the author on this post.', href, { author: { type: 'integer' } }));
  for (const { name, base } of k.taxonomies) {
    const terms = { [base]: { type: 'array', items: { type: 'integer' } } };
    links.push(actionLink(`assign-${base}`, `The current user can assign terms in the ${name} taxonomy.`, href, terms));
    links.push(actionLink(`create-${base}`, `The current user can create terms in the ${name} taxonomy.`, href, terms));
  }
  return links;
}

/** The record schema of a revision (or, with preview_link, an autosave) of a post or page. */
export function revisionSchema(k: KindInfo, autosave: boolean): Record<string, unknown> {
  const item = itemSchema(k).properties;
  const props: Record<string, unknown> = {
    author: { description: 'The ID for the author of the revision.', type: 'integer', context: ['view', 'edit', 'embed'] },
    date: {
      description: "The date the revision was published, in the site's timezone.",
      type: 'string',
      format: 'date-time',
      context: ['view', 'edit', 'embed'],
    },
    date_gmt: { description: 'The date the revision was published, as GMT.', type: 'string', format: 'date-time', context: ['view', 'edit'] },
    guid: item.guid,
    id: { description: 'Unique identifier for the revision.', type: 'integer', context: ['view', 'edit', 'embed'] },
    modified: {
      description: "The date the revision was last modified, in the site's timezone.",
      type: 'string',
      format: 'date-time',
      context: ['view', 'edit'],
    },
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
