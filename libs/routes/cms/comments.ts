/**
 * cms/v2 comments (reference: the comments controller): the collection with its filters and the single
 * comment. The write arguments come from the record schema as the reference derives them (readonly
 * properties left out; `post` and `parent` default to 0 on create only).
 */
import { sanitizeTextField as sanitizeText } from '../../html/text';
import { endpoint } from '../../rest/params';
import { type ArgDecl, type ArgSchema, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { validateArg } from '../../rest/validate';
import { collectionParams, contextArg, idListArg, offsetArg, orderArg, objectSchema } from '../common';

const NS = 'cms/v2';

export const COMMENT_ORDERBY = ['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'] as const;

/** Comment meta shown in REST: the note resolution state of the block editor's notes. */
export const NOTE_STATUS_KEY = '_cms_note_status';
export const COMMENT_META: Record<string, ArgSchema> = {
  [NOTE_STATUS_KEY]: { type: 'string', description: 'Note resolution status', enum: ['resolved', 'reopen'], default: '' },
};

/** The reference's sanitize_key: lower case, only a-z, 0-9, `_` and `-`. */
export function sanitizeKey(value: unknown): string {
  return String(value ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '');
}

/** The reference's sanitize_text_field (libs/html/text.ts), as a sanitize callback (its second argument is the request's). */
const sanitizeTextField = (value: unknown): string => sanitizeText(value);

const EMAIL: ArgSchema = { type: 'string', format: 'email' };

/**
 * Write arguments from the item schema, in its order; `onCreate` is what `parent` and `post` add on a
 * create (`{ default: 0 }`), `{}` on an update.
 */
export function commentWriteArgs<const Q extends { default?: 0 }>(onCreate: Q) {
  return {
    author: { description: 'The ID of the user object, if author was a user.', type: 'integer' },
    author_email: {
      description: 'Email address for the comment author.',
      type: 'string',
      // An empty address is allowed (it clears the field); anything else must be an address.
      validate: (v: unknown) => {
        if (v === '') return true;
        const r = validateArg('author_email', v, EMAIL, {});
        return 'error' in r ? r.error : true;
      },
    },
    author_ip: { description: 'IP address for the comment author.', type: 'string', format: 'ip' },
    author_name: { description: 'Display name for the comment author.', type: 'string', sanitize: sanitizeTextField },
    author_url: { description: 'URL for the comment author.', type: 'string', format: 'uri' },
    author_user_agent: { description: 'User agent for the comment author.', type: 'string', sanitize: sanitizeTextField },
    content: {
      description: 'The content for the comment.',
      // A plain string or an object with `raw`, as the reference reads it.
      type: ['string', 'object'],
      properties: { raw: { description: 'Content for the comment, as it exists in the database.', type: 'string' } },
    },
    date: { description: "The date the comment was published, in the site's timezone.", type: 'string', format: 'date-time' },
    date_gmt: { description: 'The date the comment was published, as GMT.', type: 'string', format: 'date-time' },
    parent: Object.assign({ description: 'The ID for the parent of the comment.', type: 'integer' as const }, onCreate),
    post: Object.assign({ description: 'The ID of the associated post object.', type: 'integer' as const }, onCreate),
    status: { description: 'State of the comment.', type: 'string', sanitize: sanitizeKey },
    meta: { description: 'Meta fields.', type: 'object', properties: COMMENT_META },
  } satisfies Record<string, ArgDecl>;
}

export function commentCollectionArgs() {
  return {
    ...collectionParams(),
    after: { description: 'Limit response to comments published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    author: { description: 'Limit result set to comments assigned to specific user IDs. Requires authorization.', type: 'array', items: { type: 'integer' } },
    author_exclude: {
      description: 'Ensure result set excludes comments assigned to specific user IDs. Requires authorization.',
      type: 'array',
      items: { type: 'integer' },
    },
    author_email: {
      default: null,
      description: 'Limit result set to that from a specific author email. Requires authorization.',
      format: 'email',
      type: 'string',
    },
    before: { description: 'Limit response to comments published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
    offset: offsetArg(),
    order: orderArg('desc'),
    orderby: { description: 'Sort collection by comment attribute.', type: 'string', default: 'date_gmt', enum: COMMENT_ORDERBY },
    parent: { default: [], description: 'Limit result set to comments of specific parent IDs.', type: 'array', items: { type: 'integer' } },
    parent_exclude: { default: [], description: 'Ensure result set excludes specific parent IDs.', type: 'array', items: { type: 'integer' } },
    post: { default: [], description: 'Limit result set to comments assigned to specific post IDs.', type: 'array', items: { type: 'integer' } },
    status: {
      default: 'approve',
      description: 'Limit result set to comments assigned a specific status. Requires authorization.',
      type: 'string',
      sanitize: sanitizeKey,
    },
    type: {
      default: 'comment',
      description: 'Limit result set to comments assigned a specific type. Requires authorization.',
      type: 'string',
      sanitize: sanitizeKey,
    },
    password: { description: 'The password for the post if it is password protected.', type: 'string' },
  } satisfies Record<string, ArgDecl>;
}

/** The record schema (OPTIONS and context=help). */
export function commentSchema(): Record<string, unknown> {
  const all = ['view', 'edit', 'embed'];
  const avatar = Object.fromEntries(
    [24, 48, 96].map((s) => [
      String(s),
      { description: `Avatar URL with image size of ${s} pixels.`, type: 'string', format: 'uri', context: ['embed', 'view', 'edit'] },
    ]),
  );
  return objectSchema('comment', {
    id: { description: 'Unique identifier for the comment.', type: 'integer', context: all, readonly: true },
    author: { description: 'The ID of the user object, if author was a user.', type: 'integer', context: all },
    author_email: { description: 'Email address for the comment author.', type: 'string', format: 'email', context: ['edit'] },
    author_ip: { description: 'IP address for the comment author.', type: 'string', format: 'ip', context: ['edit'] },
    author_name: { description: 'Display name for the comment author.', type: 'string', context: all },
    author_url: { description: 'URL for the comment author.', type: 'string', format: 'uri', context: all },
    author_user_agent: { description: 'User agent for the comment author.', type: 'string', context: ['edit'] },
    content: {
      description: 'The content for the comment.',
      type: 'object',
      context: all,
      properties: {
        raw: { description: 'Content for the comment, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: { description: 'HTML content for the comment, transformed for display.', type: 'string', context: all, readonly: true },
      },
    },
    date: { description: "The date the comment was published, in the site's timezone.", type: 'string', format: 'date-time', context: all },
    date_gmt: { description: 'The date the comment was published, as GMT.', type: 'string', format: 'date-time', context: ['view', 'edit'] },
    link: { description: 'URL to the comment.', type: 'string', format: 'uri', context: all, readonly: true },
    parent: { description: 'The ID for the parent of the comment.', type: 'integer', context: all, default: 0 },
    post: { description: 'The ID of the associated post object.', type: 'integer', context: ['view', 'edit'], default: 0 },
    status: { description: 'State of the comment.', type: 'string', context: ['view', 'edit'] },
    type: { description: 'Type of the comment.', type: 'string', context: all, readonly: true, default: 'comment' },
    author_avatar_urls: { description: 'Avatar URLs for the comment author.', type: 'object', context: all, readonly: true, properties: avatar },
    meta: { description: 'Meta fields.', type: 'object', context: ['view', 'edit'], properties: COMMENT_META },
  });
}

const idArg = () => ({ description: 'Unique identifier for the comment.', type: 'integer' }) satisfies ArgDecl;
const passwordArg = () =>
  ({ description: 'The password for the parent post of the comment (if the post is password protected).', type: 'string' }) satisfies ArgDecl;

export const COMMENT_ENDPOINTS = {
  list: endpoint({ id: 'cms.comments.list', service: 'content', methods: ['GET'], args: commentCollectionArgs() }),
  create: endpoint({ id: 'cms.comments.create', service: 'content', methods: ['POST'], args: commentWriteArgs({ default: 0 }) }),
  get: endpoint({
    id: 'cms.comments.get',
    service: 'content',
    methods: ['GET'],
    args: { id: idArg(), context: contextArg('view'), password: passwordArg() },
    captures: ['id'],
  }),
  update: endpoint({ id: 'cms.comments.update', service: 'content', methods: EDITABLE, args: { id: idArg(), ...commentWriteArgs({}) }, captures: ['id'] }),
  delete: endpoint({
    id: 'cms.comments.delete',
    service: 'content',
    methods: DELETABLE,
    args: { id: idArg(), force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' }, password: passwordArg() },
    captures: ['id'],
  }),
};

export function registerCommentRoutes(registry: RouteRegistry): void {
  const eps = COMMENT_ENDPOINTS;
  registry.add({ namespace: NS, pattern: '/cms/v2/comments', schema: commentSchema, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: '/cms/v2/comments/(?P<id>[\\d]+)', schema: commentSchema, endpoints: [eps.get, eps.update, eps.delete] });
}
