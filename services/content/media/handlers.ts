/**
 * cms/v2 media: list, upload, get, update, delete (reference: WP_REST_Attachments_Controller). The
 * list is the posts list's plan (planList) with the attachments' own status rule and the MIME filters;
 * files go through the media library (libs/media/library), which the calendar's image arguments use too.
 */
import { createHash } from 'node:crypto';
import { can } from '#libs/auth/user';
import type { UsersRepository } from '#libs/auth/users';
import { sanitizeTextField } from '#libs/html/text';
import { mergeMeta } from '#libs/posts/meta';
import { ALT_TEXT_META, textFilterFor } from '#libs/posts/save-filter';
import { mysqlLocal } from '#libs/dates/format';
import { parseDateInput } from '#libs/dates/post-dates';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { ATTACHMENT_TYPE, type MediaLibrary, type NewFile } from '#libs/media/library';
import { EDITABLE_IMAGES } from '#libs/media/images';
import { mediaTypes } from '#libs/media/mime';
import { fetchImage } from '#libs/media/sideload';
import type { FetchPolicy } from '#libs/net/outbound';
import { isRecord } from '#libs/rest/args';
import type { InputOf, Shared } from '#libs/rest/params';
import { ParamError, RestError, authStatus, invalidParams } from '#libs/rest/errors';
import { pagingHeaders } from '#libs/rest/paging';
import type { HandlerContext, ServiceApp, UploadPayload } from '#libs/rest/service';
import { restUrl, type Site } from '#libs/rest/site';
import type { Filter } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import { MEDIA_ENDPOINTS } from '#libs/routes/cms/media';
import { canEditPost } from '../posts/access';
import type { Context } from '../posts/present';
import { checkListOrder, pageOfPlan, planList, type ListKind } from '../posts/query';
import { contextOf } from '../context';
import { canDeleteMedia, canEditMedia, canReadMedia } from './access';
import { presentMedia, type MediaPresentInput } from './present';

export interface MediaDeps {
  site: Site;
  posts: PostsRepository;
  terms: TermsRepository;
  users: UsersRepository;
  media: MediaLibrary;
  /** Outbound policy of `url` sideloads. */
  imagePolicy: FetchPolicy;
  links: { types: boolean; comments: boolean };
  /** The posts' list cache: a deleted attachment changes the posts that featured it. */
}

const BASE = '/cms/v2/media';
/** The attachment type in the posts list planner's terms: not hierarchical, but with parent filters. */
const KIND: ListKind = { kind: ATTACHMENT_TYPE, hierarchical: true };

/** What a create and an update both write (the update has no upload options). */
type WriteInput = InputOf<Shared<typeof MEDIA_ENDPOINTS.create | typeof MEDIA_ENDPOINTS.update>>;

const invalidId = () => new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);

function loadMedia(ctx: HandlerContext<{ readonly id: number }>, deps: MediaDeps): Promise<PostDoc> {
  return ctx.once('media', async () => {
    const doc = await deps.posts.ofType(ctx.input.id, ATTACHMENT_TYPE);
    if (!doc) throw invalidId();
    return doc;
  });
}

/** The parent named by `post`, loaded once per request (null for none or a missing one). */
function loadParent(ctx: HandlerContext<WriteInput>, deps: MediaDeps): Promise<PostDoc | null> {
  return ctx.once('parent', async () => {
    const id = ctx.input.post ?? 0;
    return id > 0 ? deps.posts.byId(id) : null;
  });
}

/** The records a page of attachments is attached to, in one query. */
async function parentsOf(deps: MediaDeps, docs: PostDoc[]): Promise<Map<number, PostDoc>> {
  const ids = [...new Set(docs.map((d) => d.parent).filter((p) => p > 0))];
  const out = new Map<number, PostDoc>();
  if (ids.length) for (const p of await deps.posts.find({ id: { $in: ids } }, { fields: ['type', 'status', 'author', 'trash'] })) out.set(p.id, p);
  return out;
}

async function presentInput(
  deps: MediaDeps,
  ctx: HandlerContext,
  docs: PostDoc[],
  context: Context,
  loaded?: Map<number, PostDoc>,
): Promise<MediaPresentInput> {
  const found = loaded ?? (await parentsOf(deps, docs));
  const parents = new Map<number, string>([...found].map(([id, p]) => [id, String(p.type)]));
  return { site: deps.site, context, user: ctx.user, parents, links: deps.links };
}

async function presentOne(deps: MediaDeps, ctx: HandlerContext, doc: PostDoc, context: Context, withLinks = true): Promise<Record<string, unknown>> {
  return presentMedia(doc, await presentInput(deps, ctx, [doc], context), withLinks);
}

/** `title`, `caption`, `description` come as a string or as `{raw}`. */
function rawText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isRecord(v) && typeof v.raw === 'string') return v.raw;
  return undefined;
}

/** The list's status rule: `inherit` is public, `private` needs read_private_posts, `trash` edit_others_posts (else own only). */
function statusClause(statuses: string[], ctx: HandlerContext): Filter {
  const all: string[] = [];
  const own: string[] = [];
  for (const s of statuses) {
    if (s === 'inherit') all.push(s);
    else if (s === 'private' ? can(ctx.user, 'read_private_posts') : can(ctx.user, 'edit_others_posts')) all.push(s);
    else if (ctx.user) own.push(s);
  }
  const or: Filter[] = [];
  if (all.length) or.push({ type: ATTACHMENT_TYPE, status: { $in: all } });
  if (own.length && ctx.user) or.push({ type: ATTACHMENT_TYPE, author: ctx.user.id, status: own.length === 1 ? own[0] : { $in: own } });
  if (!or.length) return { type: ATTACHMENT_TYPE, status: { $in: [] } };
  return or.length === 1 ? or[0] : { $or: or };
}

/** media_type and mime_type together: the MIME types of the named media types plus the valid named ones. */
function mimeClause(mediaType: readonly string[], mimeType: readonly string[]): Filter | null {
  const types = mediaTypes();
  const wanted = new Set<string>();
  for (const t of mediaType) for (const m of types[t] ?? []) wanted.add(m);
  for (const m of mimeType) if (types[m.split('/')[0]]?.includes(m)) wanted.add(m);
  if (!wanted.size) return null;
  return { mime_type: wanted.size === 1 ? [...wanted][0] : { $in: [...wanted] } };
}

/** Reads the uploaded file of a request: multipart `file`, else the raw body with its headers. */
function uploadedFile(up: UploadPayload | undefined): { bytes: Buffer; name: string; fromForm: boolean } {
  if (up?.files && Object.keys(up.files).length) {
    const f = up.files.file ?? Object.values(up.files)[0];
    checkMd5(up.md5, f.data);
    return { bytes: f.data, name: f.name, fromForm: true };
  }
  const raw = up?.raw;
  if (!raw || !raw.length) throw new RestError('rest_upload_no_data', 'No data supplied.', 400);
  if (!up.contentType) throw new RestError('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
  if (!up.disposition) throw new RestError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
  const name = filenameFromDisposition(up.disposition);
  if (!name) {
    throw new RestError(
      'rest_upload_invalid_disposition',
      'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
      400,
    );
  }
  checkMd5(up.md5, raw);
  return { bytes: raw, name, fromForm: false };
}

function checkMd5(expected: string | undefined, bytes: Buffer): void {
  if (!expected) return;
  if (expected.trim() !== createHash('md5').update(bytes).digest('hex'))
    throw new RestError('rest_upload_hash_mismatch', 'Content hash did not match expected.', 412);
}

/** get_filename_from_disposition(): the `filename` attribute after the first `;`, unquoted. */
export function filenameFromDisposition(header: string): string | null {
  let filename: string | null = null;
  for (const value of header.split(/,(?=\s*[a-z-]+\s*;)/i)) {
    const v = value.trim();
    const semi = v.indexOf(';');
    if (semi < 0) continue;
    const attrs: Record<string, string> = {};
    for (const part of v.slice(semi + 1).split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      attrs[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    if (!attrs.filename) continue;
    filename = attrs.filename.trim();
    if (filename.length >= 2 && filename.startsWith('"') && filename.endsWith('"')) filename = filename.slice(1, -1);
  }
  return filename || null;
}

/** The post fields of a write (create or update) other than the file; throws for a bad author or date. */
async function writeFields(deps: MediaDeps, ctx: HandlerContext<WriteInput>, doc: PostDoc | null): Promise<Partial<PostDoc>> {
  const p = ctx.input;
  const zone = deps.site.timezone;
  const out: Partial<PostDoc> = {};
  // Writers without unfiltered_html save the title, caption and description through the kses filters.
  const filter = textFilterFor(ctx.user);
  const title = rawText(p.title);
  if (title !== undefined) out.title = filter.title(title);
  const caption = rawText(p.caption);
  if (caption !== undefined) out.excerpt = filter.html(caption);
  const description = rawText(p.description);
  if (description !== undefined) out.content = filter.html(description);
  if (p.post != null) out.parent = p.post;
  if (p.author != null && p.author !== (doc?.author ?? ctx.user?.id)) {
    if (!(await deps.users.byId(p.author))) throw new RestError('rest_invalid_author', 'Invalid author ID.', 400);
    out.author = p.author;
  }
  if (p.comment_status != null) out.comment_status = p.comment_status;
  if (p.ping_status != null) out.ping_status = p.ping_status;
  if (p.template != null) out.template = p.template;
  if (p.status != null) out.status = p.status;
  for (const [arg, utc] of [
    ['date', false],
    ['date_gmt', true],
  ] as const) {
    const given = p[arg];
    if (given == null) continue;
    const d = parseDateInput(given, zone, utc);
    if (!d) throw new RestError('rest_invalid_date', 'Invalid date.', 400);
    out.date = d.local;
    out.date_gmt = d.gmt;
  }
  const meta: Record<string, unknown> = { ...ctx.args.obj('meta') };
  // The alternative text arrives as plain text (its argument's sanitize_text_field).
  if (p.alt_text != null) meta[ALT_TEXT_META] = p.alt_text;
  if (Object.keys(meta).length) out.meta = mergeMeta(doc?.meta, filter.meta(meta));
  if (p.slug) {
    out.slug = await deps.posts.uniqueSlug(p.slug, { type: ATTACHMENT_TYPE, hierarchical: false, selfId: doc?.id });
  }
  return out;
}

function checkParentType(parent: PostDoc | null): void {
  if (parent && (parent.type === 'revision' || parent.type === ATTACHMENT_TYPE)) throw new RestError('rest_invalid_param', 'Invalid parent type.', 400);
}

export function bindMedia(app: ServiceApp, deps: MediaDeps): void {
  app.bind(MEDIA_ENDPOINTS.list, {
    async permission(ctx) {
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a create's `status` is a string, so the list is read untyped.
      for (const s of ctx.args.strs('status')) {
        if (s === 'inherit' || can(ctx.user, 'edit_posts') || (s === 'private' && can(ctx.user, 'read_private_posts'))) continue;
        return invalidParams([['status', new ParamError('rest_forbidden_status', 'Status is forbidden.', { status: authStatus(ctx.user) })]]);
      }
      if (ctx.input.context === 'edit' && !can(ctx.user, 'edit_posts')) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const p = ctx.input;
      checkListOrder(p);
      const statuses = [...new Set(ctx.input.status)];
      const plan = await planList(p, KIND, ctx.user, deps.terms, deps.site.timezone, ctx.args, statusClause(statuses, ctx));
      const mime = mimeClause(ctx.input.media_type ?? [], ctx.input.mime_type ?? []);
      const filter: Filter = mime ? { $and: [plan.filter, mime] } : plan.filter;
      const { items, total, page, perPage } = await pageOfPlan(deps.posts, p, plan, (f) => deps.posts.count(f), filter);
      // As the reference, attachments of records the caller may not read drop out of the page (the totals stay).
      const parents = await parentsOf(deps, items);
      const readable = items.filter((d) => canReadMedia(ctx.user, d, d.parent ? (parents.get(d.parent) ?? null) : null));
      const input = await presentInput(deps, ctx, readable, contextOf(ctx.input.context), parents);
      return { body: readable.map((d) => presentMedia(d, input)), headers: pagingHeaders(deps.site, BASE, ctx.req.query, page, perPage, total) };
    },
  });

  app.bind(MEDIA_ENDPOINTS.get, {
    async permission(ctx) {
      const doc = await loadMedia(ctx, deps);
      if (ctx.input.context === 'edit' && !canEditMedia(ctx.user, doc)) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', authStatus(ctx.user));
      }
      const parent = doc.parent ? await deps.posts.byId(doc.parent) : null;
      return canReadMedia(ctx.user, doc, parent);
    },
    async handle(ctx) {
      const doc = await loadMedia(ctx, deps);
      return { body: await presentOne(deps, ctx, doc, contextOf(ctx.input.context)) };
    },
  });

  app.bind(MEDIA_ENDPOINTS.create, {
    async permission(ctx) {
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a list's `author` is a list of ids and its `post` undeclared, so the types are tested.
      const p = ctx.input;
      if (typeof p.author === 'number' && p.author !== 0 && p.author !== ctx.user?.id && !can(ctx.user, 'edit_others_posts')) {
        return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', authStatus(ctx.user));
      }
      // An attachment's create_posts capability is upload_files.
      if (!can(ctx.user, 'upload_files'))
        return new RestError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', authStatus(ctx.user));
      if (typeof p.post === 'number' && p.post > 0) {
        const parent = await loadParent(ctx, deps);
        if (!parent || !canEditPost(ctx.user, parent))
          return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.', authStatus(ctx.user));
      }
      const type = ctx.req.upload?.files?.file?.type ?? '';
      if (type.startsWith('image/') && !EDITABLE_IMAGES.has(type) && !['image/svg+xml', 'image/heic', 'image/heif'].includes(type)) {
        return new RestError(
          'rest_upload_image_type_not_supported',
          'The web server cannot generate responsive image sizes for this image. Convert it to JPEG or PNG before uploading.',
          400,
        );
      }
      return true;
    },
    async handle(ctx) {
      const p = ctx.input;
      const parent = await loadParent(ctx, deps);
      checkParentType(parent);
      // Checked before the file is stored, so a bad field stores nothing.
      const fields = await writeFields(deps, ctx, null);
      const file: NewFile = {
        bytes: Buffer.alloc(0),
        name: '',
        user: ctx.user,
        parent: parent?.id ?? 0,
        subSizes: p.generate_sub_sizes,
        // As media_handle_upload: an upload attached to a post (not a page) is filed under the post's month.
        ...(parent && parent.type !== 'page' && parent.date_gmt ? { time: new Date(parent.date_gmt) } : {}),
      };
      if (p.url) {
        const got = await fetchImage(p.url, deps.imagePolicy, () => deps.media.tooBig());
        Object.assign(file, { bytes: got.bytes, name: got.name, sourceUrl: got.url });
      } else {
        const up = uploadedFile(ctx.req.upload);
        Object.assign(file, { bytes: up.bytes, name: up.name });
        // A form upload is titled after the client's file name (extension dropped), as the reference.
        if (up.fromForm && fields.title === undefined) {
          const stem = up.name.includes('.') ? up.name.slice(0, up.name.lastIndexOf('.')) : up.name;
          const clean = sanitizeTextField(stem);
          if (clean) file.fallbackTitle = clean;
        }
      }
      if (fields.title !== undefined) file.title = fields.title;
      if (fields.excerpt !== undefined) file.caption = fields.excerpt;
      let created: PostDoc;
      try {
        created = await deps.media.add(file);
      } catch (e) {
        // A refused form upload is wp_handle_upload's error, reported under its own code.
        if (e instanceof RestError && e.code === 'rest_upload_sideload_error' && ctx.req.upload?.files)
          throw new RestError('rest_upload_unknown_error', e.message, e.status);
        throw e;
      }
      const changes: Partial<PostDoc> = { ...fields };
      delete changes.title;
      if (changes.meta) changes.meta = mergeMeta(created.meta, changes.meta);
      if (changes.slug === undefined && p.slug === '') delete changes.slug;
      const doc = Object.keys(changes).length ? ((await deps.posts.save(created.id, changes)) ?? created) : created;
      return {
        status: 201,
        body: await presentOne(deps, ctx, doc, 'edit'),
        headers: { Location: restUrl(deps.site, `${BASE}/${doc.id}`), 'X-WP-Upload-Attachment-ID': String(doc.id) },
      };
    },
  });

  app.bind(MEDIA_ENDPOINTS.update, {
    async permission(ctx) {
      const doc = await loadMedia(ctx, deps);
      const p = ctx.input;
      if (!canEditMedia(ctx.user, doc)) return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(ctx.user));
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a read's `author` is undeclared, so its type is tested.
      if (typeof p.author === 'number' && p.author !== 0 && p.author !== ctx.user?.id && p.author !== doc.author && !can(ctx.user, 'edit_others_posts')) {
        return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const doc = await loadMedia(ctx, deps);
      const parent = await loadParent(ctx, deps);
      checkParentType(parent);
      const changes = await writeFields(deps, ctx, doc);
      const at = new Date();
      const saved = (await deps.posts.save(doc.id, { ...changes, modified: mysqlLocal(at, deps.site.timezone), modified_gmt: at })) ?? doc;
      return { body: await presentOne(deps, ctx, saved, 'edit') };
    },
  });

  app.bind(MEDIA_ENDPOINTS.delete, {
    async permission(ctx) {
      const doc = await loadMedia(ctx, deps);
      if (!canDeleteMedia(ctx.user, doc)) return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this post.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const doc = await loadMedia(ctx, deps);
      // Attachments have no trash (MEDIA_TRASH is off in the reference).
      if (!ctx.input.force) throw new RestError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501);
      const previous = await presentOne(deps, ctx, doc, 'edit', false);
      await deps.posts.remove(doc.id);
      await deps.media.deleteFiles(doc);
      await deps.posts.clearFeaturedMedia(doc.id);
      return { body: { deleted: true, previous } };
    },
  });
}
