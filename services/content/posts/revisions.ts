/**
 * Revisions and autosaves of posts and pages (reference: wp_save_post_revision, the revisions and
 * autosaves controllers). Both are records of type `revision` under their parent; autosaves are told
 * apart by their slug (`<id>-autosave-v1`), one per user and post. The parent keeps the number of its
 * revisions and the newest one, for its `version-history` links.
 */
import type { Caller } from '#libs/auth/user';
import { writtenMeta } from '#libs/calendar/meta';
import { textFilterFor } from '#libs/posts/save-filter';
import { mysqlLocal } from '#libs/dates/format';
import { now } from '#libs/dates/post-dates';
import type { PostDoc } from '#libs/posts/types';
import { RestError, authStatus } from '#libs/rest/errors';
import { listSkip, pagingHeaders, totalPages } from '#libs/rest/paging';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import type { KindInfo } from '#libs/routes/cms/post-args';
import { POST_ENDPOINTS } from '#libs/routes/cms/posts';
import { shared } from '#libs/rest/params';
import type { Filter, SortSpec } from '#libs/store/types';
import { canDeletePost, canEditPost, typeCan } from './access';
import type { PostsDeps } from './handlers';
import { contextOf } from '../context';
import { permalink, presentRevision } from './present';
import { excludedBySearch, parseSearch, relevanceRank, searchFilter } from './query';
import { newPostRecord } from '#libs/posts/record';
import { buildUpdate, canAssignTerms, checkTemplate, prepare, stickyRequested } from './write';

const normalizeWs = (s: string) =>
  (s ?? '')
    .replace(/\r\n|\r/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
const revisionSlug = (id: number) => `${id}-revision-v1`;
const autosaveSlug = (id: number) => `${id}-autosave-v1`;

function revisionDoc(post: PostDoc, id: number, author: number, autosave: boolean, site: PostsDeps['site']): PostDoc {
  const modifiedGmt = new Date(post.modified_gmt);
  return newPostRecord(site, modifiedGmt, {
    id,
    type: 'revision',
    status: 'inherit',
    slug: autosave ? autosaveSlug(post.id) : revisionSlug(post.id),
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    author,
    parent: post.id,
    // A revision is dated when its parent was modified.
    date: post.modified,
    date_gmt: modifiedGmt,
    modified: post.modified,
    meta: { ...(post.meta ?? {}) },
  });
}

/** Recounts a parent's revisions and finds the newest, after one was added, replaced or removed. */
export async function revisionStats(deps: PostsDeps, parentId: number): Promise<Pick<PostDoc, 'revision_count' | 'latest_revision'>> {
  const filter = { parent: parentId, type: 'revision' };
  const [count, latest] = await Promise.all([
    deps.posts.count(filter),
    deps.posts.findOne(filter, {
      sort: [
        ['date', -1],
        ['id', -1],
      ],
      fields: ['id'],
    }),
  ]);
  return { revision_count: count, latest_revision: latest?.id };
}

/**
 * wp_save_post_revision after an update: a revision of the new state when the record has none yet or
 * when title, content or excerpt differ from its newest revision. Written before the record itself, so
 * a repeated update finds it and writes none again.
 */
export async function saveRevision(deps: PostsDeps, after: PostDoc, user: Caller): Promise<Pick<PostDoc, 'revision_count' | 'latest_revision'> | null> {
  if (after.status === 'auto-draft') return null;
  const latest = await deps.posts.findOne({ parent: after.id, type: 'revision', slug: revisionSlug(after.id) }, { sort: [['id', -1]] });
  if (latest && (['title', 'content', 'excerpt'] as const).every((f) => normalizeWs(latest[f]) === normalizeWs(after[f]))) return null;
  const id = await deps.posts.nextId();
  await deps.posts.create(revisionDoc(after, id, user?.id ?? after.author, false, deps.site));
  return revisionStats(deps, after.id);
}

/** Removes a record's revisions and autosaves with it (a permanent delete). */
export async function deleteRevisionsOf(deps: PostsDeps, parentId: number): Promise<void> {
  await deps.posts.deleteRevisions(parentId);
}

const invalidParent = () => new RestError('rest_post_invalid_parent', 'Invalid post parent ID.', 404);

/** The post whose revisions or autosaves are asked for: `id` is the route's capture of it. */
async function parentOf(ctx: HandlerContext, deps: PostsDeps, kind: KindInfo, id: number): Promise<PostDoc> {
  return ctx.once('parent', async () => {
    const parent = id > 0 ? await deps.posts.ofType(id, kind.kind) : null;
    if (!parent) throw invalidParent();
    return parent;
  });
}

function readCheck(ctx: HandlerContext, parent: PostDoc, what: 'revisions' | 'autosaves'): true | RestError {
  if (canEditPost(ctx.user, parent)) return true;
  return new RestError('rest_cannot_read', `Sorry, you are not allowed to view ${what} of this post.`, authStatus(ctx.user));
}

async function revisionById(deps: PostsDeps, id: number): Promise<PostDoc> {
  const rev = id > 0 ? await deps.posts.ofType(id, 'revision') : null;
  if (!rev) throw new RestError('rest_post_invalid_id', 'Invalid revision ID.', 404);
  return rev;
}

/** get_preview_post_link: the post's link with `preview=true` (and `preview_id` for an autosave). */
function previewLink(deps: PostsDeps, post: PostDoc, ofAutosave: boolean): string {
  const base = permalink(post, { site: deps.site, parents: new Map() });
  const query = ofAutosave ? `preview_id=${post.id}&preview=true` : 'preview=true';
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

/** The post an autosave is for: a body `id` wins over the path's, as with every parameter. */
function autosaveTarget(ctx: HandlerContext, deps: PostsDeps, kind: KindInfo): Promise<PostDoc> {
  return ctx.once('post', async () => {
    const postId = Number(ctx.params.id);
    const doc = postId > 0 ? await deps.posts.ofType(postId, kind.kind) : null;
    if (!doc) throw new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);
    return doc;
  });
}

export function bindRevisions(app: ServiceApp, deps: PostsDeps, kind: KindInfo): void {
  const eps = POST_ENDPOINTS[kind.kind];
  const base = `/cms/v2/${kind.base}`;
  const view = (ctx: HandlerContext<{ readonly context: string }>) => ({ site: deps.site, kind, context: contextOf(ctx.input.context) });

  app.bind(shared(eps.revisions.list), {
    async permission(ctx) {
      return readCheck(ctx, await parentOf(ctx, deps, kind, ctx.input.parent), 'revisions');
    },
    async handle(ctx) {
      const p = ctx.input;
      const parent = await parentOf(ctx, deps, kind, p.parent);
      if (p.orderby === 'relevance' && !p.search) {
        throw new RestError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
      }
      const include = p.include ?? [];
      const exclude = p.exclude ?? [];
      if (p.orderby === 'include' && !include.length) {
        throw new RestError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
      }
      const and: Filter[] = [{ parent: parent.id }, { type: 'revision' }];
      if (include.length) and.push({ id: { $in: include } });
      if (exclude.length) and.push({ id: { $nin: exclude } });
      const search = p.search?.trim() ? parseSearch(p.search, [], false) : undefined;
      const sf = search && searchFilter(search);
      if (sf) and.push(sf);
      const dir = p.order === 'asc' ? 1 : -1;
      const field = p.orderby === 'id' ? 'id' : p.orderby === 'slug' ? 'slug' : p.orderby === 'title' ? 'title' : 'date';
      const sort: SortSpec =
        field === 'date'
          ? [
              ['date', dir],
              ['id', dir],
            ]
          : [[field, dir]];
      // A post's revisions are few; they are ordered and paged here, as the reference pages WP_Query.
      let all = await deps.posts.find({ $and: and }, { sort });
      if (search) all = all.filter((r) => !excludedBySearch(r, search));
      if (p.orderby === 'include') all.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
      if (p.orderby === 'relevance' && search) all.sort((a, b) => relevanceRank(a, search) - relevanceRank(b, search));
      const total = all.length;
      const perPage = p.per_page ?? undefined;
      const page = p.page;
      const offset = perPage !== undefined && p.offset != null ? Math.abs(p.offset) : 0;
      const pages = perPage ? totalPages(total, perPage) : total > 0 ? 1 : 0;
      if (total > 0) {
        if (offset >= total)
          throw new RestError(
            'rest_revision_invalid_offset_number',
            'The offset number requested is larger than or equal to the number of available revisions.',
            400,
          );
        if (!offset && page > pages)
          throw new RestError('rest_revision_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
      }
      // A given offset wins over the page, 0 included (WP_Query reads a numeric offset so).
      const start = perPage ? (p.offset != null ? offset : listSkip(undefined, page, perPage)) : 0;
      const items = perPage ? all.slice(start, start + perPage) : all;
      const headers = pagingHeaders(deps.site, `${base}/${parent.id}/revisions`, ctx.req.query, page, perPage ?? Math.max(total, 1), total);
      headers['X-WP-TotalPages'] = String(pages);
      return { body: items.map((r) => presentRevision(r, view(ctx))), headers };
    },
  });

  app.bind(shared(eps.revisions.get), {
    async permission(ctx) {
      return readCheck(ctx, await parentOf(ctx, deps, kind, ctx.input.parent), 'revisions');
    },
    async handle(ctx) {
      const parent = await parentOf(ctx, deps, kind, ctx.input.parent);
      const rev = await revisionById(deps, ctx.input.id);
      if (rev.parent !== parent.id)
        throw new RestError('rest_revision_parent_id_mismatch', `The revision does not belong to the specified parent with id of "${parent.id}"`, 404);
      return { body: presentRevision(rev, view(ctx)) };
    },
  });

  // The reference maps delete_post on a revision to do_not_allow: nobody deletes a revision through the
  // API (revisions go with their post), so every caller is refused, after the parent and revision checks.
  const cannotDeleteRevision = (ctx: HandlerContext) =>
    new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this revision.', authStatus(ctx.user));
  app.bind(shared(eps.revisions.delete), {
    async permission(ctx) {
      const parent = await parentOf(ctx, deps, kind, ctx.input.parent);
      if (!canDeletePost(ctx.user, parent))
        return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.', authStatus(ctx.user));
      await revisionById(deps, ctx.input.id);
      const read = readCheck(ctx, parent, 'revisions');
      return read === true ? cannotDeleteRevision(ctx) : read;
    },
    async handle(ctx) {
      throw cannotDeleteRevision(ctx);
    },
  });

  // The autosaves route captures the post as `id`, an argument it does not declare (its declarations
  // name the post `parent`), so the capture is read from the untyped parameters.
  app.bind(shared(eps.autosaves.list), {
    async permission(ctx) {
      return readCheck(ctx, await parentOf(ctx, deps, kind, Number(ctx.params.id)), 'autosaves');
    },
    async handle(ctx) {
      const parent = await parentOf(ctx, deps, kind, Number(ctx.params.id));
      const list = await deps.posts.find(
        { parent: parent.id, type: 'revision', slug: autosaveSlug(parent.id) },
        {
          sort: [
            ['date', -1],
            ['id', -1],
          ],
        },
      );
      return { body: list.map((r) => presentRevision(r, view(ctx))) };
    },
  });

  app.bind(shared(eps.autosaves.get), {
    async permission(ctx) {
      return readCheck(ctx, await parentOf(ctx, deps, kind, ctx.input.parent), 'revisions');
    },
    async handle(ctx) {
      const parentId = ctx.input.parent;
      // The reference answers the newest autosave of the parent, whatever id the path names.
      const autosave = await deps.posts.findOne(
        { parent: parentId, type: 'revision', slug: autosaveSlug(parentId) },
        {
          sort: [
            ['date', -1],
            ['id', -1],
          ],
        },
      );
      if (!autosave) throw new RestError('rest_post_no_autosave', 'There is no autosave revision for this post.', 404);
      return { body: presentRevision(autosave, view(ctx)) };
    },
  });

  app.bind(shared(eps.autosaves.create), {
    async permission(ctx) {
      if (!Number(ctx.params.id)) return new RestError('rest_post_invalid_id', 'Invalid item ID.', 404);
      const post = await autosaveTarget(ctx, deps, kind);
      checkTemplate(ctx.input.template, post);
      if (!canEditPost(ctx.user, post)) return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(ctx.user));
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: the list's query may carry any `author`, so the type is tested.
      const author = ctx.input.author;
      if (typeof author === 'number' && author !== 0 && author !== ctx.user?.id && !typeCan(ctx.user, kind.kind, 'edit_others')) {
        return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.', authStatus(ctx.user));
      }
      if (stickyRequested(ctx) && !typeCan(ctx.user, kind.kind, 'edit_others') && !typeCan(ctx.user, kind.kind, 'publish')) {
        return new RestError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', authStatus(ctx.user));
      }
      if (!(await canAssignTerms(deps, kind, ctx)))
        return new RestError('rest_cannot_assign_term', 'Sorry, you are not allowed to assign the provided terms.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const post = await autosaveTarget(ctx, deps, kind);
      const userId = ctx.user!.id;
      const prep = await prepare(deps, kind, ctx, post);
      if ((post.status === 'draft' || post.status === 'auto-draft') && post.author === userId) {
        // The author's own draft: the autosave is the post itself, updated in place without a revision.
        const { changes, after } = await buildUpdate(deps, kind, ctx, prep, post);
        const saved = Object.keys(changes).length ? ((await deps.posts.save(post.id, changes)) ?? after) : post;
        return { body: presentRevision(saved, { site: deps.site, kind, context: 'edit' }, previewLink(deps, saved, false)) };
      }
      const fields = {
        title: prep.title ?? post.title,
        content: prep.content ?? post.content,
        excerpt: prep.excerpt ?? post.excerpt,
      };
      const existing = await deps.posts.findOne({ parent: post.id, type: 'revision', slug: autosaveSlug(post.id), author: userId });
      const differs = (['title', 'content', 'excerpt'] as const).some((f) => normalizeWs(fields[f]) !== normalizeWs(post[f]));
      let autosave: PostDoc;
      if (existing && !differs) autosave = existing;
      else {
        const t = now();
        const stamp = { modified: mysqlLocal(t, deps.site.timezone), modified_gmt: t };
        const changed = ctx.args.obj('meta');
        const meta = changed ? writtenMeta(post, textFilterFor(ctx.user).meta(changed), deps.site.timezone).meta : post.meta;
        const source: PostDoc = { ...post, ...fields, ...stamp, meta };
        if (existing) {
          const doc = revisionDoc(source, existing.id, userId, true, deps.site);
          const { id: _id, ...rest } = doc;
          autosave = (await deps.posts.save(existing.id, rest))!;
        } else {
          autosave = revisionDoc(source, await deps.posts.nextId(), userId, true, deps.site);
          await deps.posts.create(autosave);
        }
        await deps.posts.save(post.id, await revisionStats(deps, post.id));
      }
      return { body: presentRevision(autosave, { site: deps.site, kind, context: 'edit' }, previewLink(deps, post, true)) };
    },
  });
}
