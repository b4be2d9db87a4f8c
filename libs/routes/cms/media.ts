/**
 * cms/v2 media (reference: WP_REST_Attachments_Controller): the list with the posts list's parameters
 * plus `media_type`/`mime_type`, an item route, uploads by raw body or multipart/form-data (or, as the
 * reference since 7.1, by `url`), updates and deletes (which need `force`: attachments have no trash).
 */
import { sanitizeTextField } from '../../html/text';
import { metaArg, metaSchema } from '../../posts/meta';
import { sanitizeTitle } from '../../posts/slug';
import { mediaTypes } from '../../media/mime';
import { endpoint } from '../../rest/params';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { contextArg, objectSchema } from '../common';
import { pageCollectionArgs, POST_ORDERBY } from './post-args';

const NS = 'cms/v2';
export const MEDIA_BASE = '/cms/v2/media';

/** Statuses an attachment may be written with (the reference's public, non-internal ones). */
export const MEDIA_WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** The list parameters: the posts list's that apply to a non-hierarchical type with parents. */
export function mediaCollectionArgs() {
  // Pages have the parent filters attachments have; menu_order they do not share.
  const { menu_order: _menuOrder, ...args } = pageCollectionArgs();
  return {
    ...args,
    orderby: { ...args.orderby, enum: POST_ORDERBY },
    status: {
      default: 'inherit',
      description: 'Limit result set to posts assigned one or more statuses.',
      type: 'array',
      items: { enum: ['inherit', 'private', 'trash'] as const, type: 'string' },
    },
    media_type: {
      description: 'Limit result set to attachments of a particular media type or media types.',
      type: 'array',
      items: { type: 'string', enum: Object.keys(mediaTypes()) },
    },
    mime_type: { description: 'Limit result set to attachments of a particular MIME type or MIME types.', type: 'array', items: { type: 'string' } },
  } satisfies Record<string, ArgDecl>;
}

const textObject = (description: string) =>
  ({
    description,
    type: ['string', 'object'],
    properties: { raw: { description: `${description.replace(/^The /, '').replace(/\.$/, '')}, as it exists in the database.`, type: 'string' } },
  }) satisfies ArgDecl;
const dateArg = (description: string) => ({ description, type: ['string', 'null'], format: 'date-time' }) satisfies ArgDecl;

/** What an attachment is written with, on create and update alike. */
export function mediaWriteArgs() {
  return {
    date: dateArg("The date the post was published, in the site's timezone."),
    date_gmt: dateArg('The date the post was published, as GMT.'),
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', sanitize: (v: unknown) => sanitizeTitle(String(v)) },
    status: { description: 'A named status for the post.', type: 'string', enum: MEDIA_WRITE_STATUSES },
    title: textObject('The title for the post.'),
    author: { description: 'The ID for the author of the post.', type: 'integer' },
    comment_status: { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'] as const },
    ping_status: { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'] as const },
    meta: metaArg(),
    template: { description: 'The theme file to use to display the post.', type: 'string' },
    alt_text: {
      description: 'Alternative text to display when attachment is not displayed.',
      type: 'string',
      // Plain text for every writer, as the reference saves it (sanitize_text_field).
      sanitize: (v: unknown) => sanitizeTextField(v),
    },
    caption: textObject('The attachment caption.'),
    description: textObject('The attachment description.'),
    post: { description: 'The ID for the associated post of the attachment.', type: 'integer' },
  } satisfies Record<string, ArgDecl>;
}

/** The create arguments: the write arguments and the upload's own options. */
export function mediaCreateArgs() {
  return {
    ...mediaWriteArgs(),
    generate_sub_sizes: { type: 'boolean', default: true, description: 'Whether to generate image sub sizes.' },
    convert_format: { type: 'boolean', default: true, description: 'Whether to convert image formats.' },
    url: { type: 'string', format: 'uri', description: 'URL of an external image to sideload into the media library, instead of uploading a file.' },
  } satisfies Record<string, ArgDecl>;
}

export function mediaSchema(): Record<string, unknown> {
  const ro = (description: string, type: unknown, context: string[], extra: Record<string, unknown> = {}) => ({
    description,
    type,
    context,
    readonly: true,
    ...extra,
  });
  const all = ['view', 'edit', 'embed'];
  const ve = ['view', 'edit'];
  const rendered = (d: string, ctx = all) => ({ description: d, type: 'string', context: ctx, readonly: true });
  return objectSchema('attachment', {
    date: { description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time', context: all },
    date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time', context: ve },
    guid: {
      description: 'The globally unique identifier for the post.',
      type: 'object',
      context: ve,
      readonly: true,
      properties: {
        raw: rendered('GUID for the post, as it exists in the database.', ['edit']),
        rendered: rendered('GUID for the post, transformed for display.', ve),
      },
    },
    id: ro('Unique identifier for the post.', 'integer', all),
    link: ro('URL to the post.', 'string', all, { format: 'uri' }),
    modified: ro("The date the post was last modified, in the site's timezone.", 'string', ve, { format: 'date-time' }),
    modified_gmt: ro('The date the post was last modified, as GMT.', 'string', ve, { format: 'date-time' }),
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', context: all },
    status: { description: 'A named status for the post.', type: 'string', enum: MEDIA_WRITE_STATUSES, context: ve },
    type: ro('Type of post.', 'string', all),
    permalink_template: ro('Permalink template for the post.', 'string', ['edit']),
    generated_slug: ro('Slug automatically generated from the post title.', 'string', ['edit']),
    title: {
      description: 'The title for the post.',
      type: 'object',
      context: all,
      properties: {
        raw: { description: 'Title for the post, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: rendered('HTML title for the post, transformed for display.'),
      },
    },
    author: { description: 'The ID for the author of the post.', type: 'integer', context: all },
    comment_status: { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'], context: ve },
    ping_status: { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'], context: ve },
    meta: metaSchema(),
    template: { description: 'The theme file to use to display the post.', type: 'string', context: ve },
    alt_text: { description: 'Alternative text to display when attachment is not displayed.', type: 'string', context: all },
    caption: {
      description: 'The attachment caption.',
      type: 'object',
      context: all,
      properties: {
        raw: { description: 'Caption for the attachment, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: rendered('HTML caption for the attachment, transformed for display.'),
      },
    },
    description: {
      description: 'The attachment description.',
      type: 'object',
      context: ve,
      properties: {
        raw: { description: 'Description for the attachment, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: rendered('HTML description for the attachment, transformed for display.', ve),
      },
    },
    media_type: ro('Attachment type.', 'string', all, { enum: ['image', 'file'] }),
    mime_type: ro('The attachment MIME type.', 'string', all),
    media_details: ro('Details about the media file, specific to its type.', 'object', all),
    post: { description: 'The ID for the associated post of the attachment.', type: 'integer', context: ve },
    source_url: ro('URL to the original attachment file.', 'string', all, { format: 'uri' }),
    missing_image_sizes: ro('List of the missing image sizes of the attachment.', 'array', ['edit'], { items: { type: 'string' } }),
    filename: ro('Original attachment file name.', 'string', ve),
    filesize: ro('Attachment file size in bytes.', ['integer', 'null'], ve),
    exif_orientation: ro('EXIF orientation value. Values 1-8 follow the EXIF specification, where 1 means no rotation needed.', 'integer', ['edit']),
  });
}

const mediaIdArg = () => ({ description: 'Unique identifier for the post.', type: 'integer' }) satisfies ArgDecl;

export const MEDIA_ENDPOINTS = {
  list: endpoint({ id: 'cms.media.list', service: 'content', methods: ['GET'], args: mediaCollectionArgs() }),
  // Attachments are not batchable in the reference (allow_batch false).
  create: endpoint({ id: 'cms.media.create', service: 'content', methods: ['POST'], args: mediaCreateArgs(), upload: true }),
  get: endpoint({ id: 'cms.media.get', service: 'content', methods: ['GET'], args: { id: mediaIdArg(), context: contextArg('view') }, captures: ['id'] }),
  update: endpoint({ id: 'cms.media.update', service: 'content', methods: EDITABLE, args: { id: mediaIdArg(), ...mediaWriteArgs() }, captures: ['id'] }),
  delete: endpoint({
    id: 'cms.media.delete',
    service: 'content',
    methods: DELETABLE,
    args: { id: mediaIdArg(), force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
    captures: ['id'],
  }),
};

export function registerMediaRoutes(registry: RouteRegistry): void {
  const eps = MEDIA_ENDPOINTS;
  registry.add({ namespace: NS, pattern: MEDIA_BASE, schema: mediaSchema, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: `${MEDIA_BASE}/(?P<id>[\\d]+)`, schema: mediaSchema, endpoints: [eps.get, eps.update, eps.delete] });
}
