/**
 * cms/v2 comments: list, create, get, update, delete (reference: the comments controller). Guests
 * read approved comments of posts they may read; writing needs an account (the reference refuses
 * anonymous REST comments unless a filter allows them); moderators (moderate_comments) see and change
 * everything, others what their rights on the comment's post allow.
 */
import { can } from '../../../libs/auth/user';
import type { UsersRepository } from '../../../libs/auth/users';
import { filterDate, now, toLocal } from '../../../libs/posts/dates';
import type { PageParents } from '../../../libs/posts/permalink';
import type { PostsRepository } from '../../../libs/posts/repository';
import type { PostDoc } from '../../../libs/posts/types';
import { RestError, authStatus } from '../../../libs/rest/errors';
import { listSkip, pagingHeaders } from '../../../libs/rest/paging';
import type { RouteRegistry } from '../../../libs/rest/registry';
import type { HandlerContext, Reply, ServiceApp } from '../../../libs/rest/service';
import { restUrl, type Site } from '../../../libs/rest/site';
import { COMMENT_META } from '../../../libs/routes/cms/comments';
import type { Filter, SortSpec } from '../../../libs/store/types';
import { canEditAnyPost, canEditComment, canEditCommentCap, canReadComment, canReadPostOf, readablePostsCondition, supportsNotes, type PostAccess } from './access';
import { presentComment, type CommentPresentInput, type Context } from './present';
import type { CommentDoc, CommentsRepository } from '../../../libs/comments/repository';
import { allowComment, checkLengths, clientIp, contentAllowed, filterComment, prepare, statusChange } from './write';
import { ownEntry } from '../../../libs/rest/validate';

export interface CommentsDeps {
  site: Site;
  comments: CommentsRepository;
  posts: PostsRepository;
  users: UsersRepository;
  registry: RouteRegistry;
}


const BASE = '/cms/v2/comments';

const SORT_FIELDS: Record<string, string> = { date: 'date', date_gmt: 'date_gmt', id: 'id', post: 'post', parent: 'parent', type: 'type' };

/** REST bases of the post types whose records have a cms/v2 route. */
const POST_BASES: Record<string, string> = { post: 'posts', page: 'pages' };

const invalidComment = () => new RestError('rest_comment_invalid_id', 'Invalid comment ID.', 404);

const moderator = (ctx: HandlerContext) => can(ctx.user, 'moderate_comments');

/** A request argument the route does not declare (the reference reads `type`, `id` and `password` from any request). */
function raw(ctx: HandlerContext, name: string): unknown {
  return ctx.params[name];
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== 0 && v !== '0' && !(Array.isArray(v) && v.length === 0);

export function bindComments(app: ServiceApp, deps: CommentsDeps): void {
  const routes = new Map<string, string | null>();
  /** The item route of a post's type in this build (rest_get_route_for_post). */
  const postRoute = (post: PostDoc): string | null => {
    if (!routes.has(post.type)) {
      const base = POST_BASES[post.type] ?? post.type;
      const match = deps.registry.match(`/cms/v2/${base}/1`);
      routes.set(post.type, match && match.route.namespace === 'cms/v2' ? base : null);
    }
    const base = routes.get(post.type);
    return base ? `/cms/v2/${base}/${post.id}` : null;
  };

  async function postsById(ids: number[]): Promise<Map<number, PostDoc>> {
    return deps.posts.byIds(ids.filter((id) => id > 0));
  }

  /** The comment and its post (404 for a missing comment, or a comment whose post is gone). */
  function loadComment(ctx: HandlerContext): Promise<{ comment: CommentDoc; post: PostDoc | null }> {
    return ctx.cached('comment', async () => {
      const id = Number(ctx.params.id);
      const comment = Number.isInteger(id) && id > 0 ? await deps.comments.byId(id) : null;
      if (!comment) throw invalidComment();
      let post: PostDoc | null = null;
      if (comment.post) {
        post = await deps.posts.byId(comment.post);
        if (!post) throw new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);
      }
      return { comment, post };
    });
  }

  /** Everything presenting these comments needs, in a few queries for all of them. */
  async function presentInput(ctx: HandlerContext, docs: CommentDoc[], context: Context, access: PostAccess, known?: Map<number, PostDoc>): Promise<CommentPresentInput> {
    const posts = new Map(known ?? []);
    const missing = [...new Set(docs.map((d) => d.post))].filter((id) => id > 0 && !posts.has(id));
    for (const [id, p] of await postsById(missing)) posts.set(id, p);
    const parents: PageParents = new Map();
    let wanted = [...new Set([...posts.values()].filter((p) => p.type === 'page' && p.parent > 0).map((p) => p.parent))];
    while (wanted.length) {
      const found = await deps.posts.collection.find({ id: { $in: wanted } }, { fields: ['slug', 'parent'] });
      for (const f of found) parents.set(f.id, { slug: String(f.slug ?? ''), parent: Number(f.parent ?? 0) });
      wanted = [...new Set(found.map((f) => Number(f.parent ?? 0)).filter((p) => p > 0 && !parents.has(p)))];
    }
    const userIds = [...new Set(docs.map((d) => d.author).filter((a) => a > 0))];
    const emails = new Map<number, string>();
    if (userIds.length) for (const u of await deps.users.users.find({ id: { $in: userIds } }, { fields: ['email'] })) emails.set(u.id, String(u.email ?? ''));
    return {
      site: deps.site,
      context,
      user: ctx.user,
      access,
      posts,
      parents,
      withChildren: await deps.comments.withChildren(docs.map((d) => d.id)),
      emails,
      postRoute,
    };
  }

  /** One comment; `post` is its post when the caller already loaded it. */
  async function presentOne(ctx: HandlerContext, comment: CommentDoc, context: Context, post: PostDoc | null, withLinks = true): Promise<Record<string, unknown>> {
    const access: PostAccess = { context, password: raw(ctx, 'password'), named: true };
    const known = new Map(post && post.id === comment.post ? [[post.id, post]] : []);
    return presentComment(comment, await presentInput(ctx, [comment], context, access, known), withLinks);
  }

  // ---- list -------------------------------------------------------------------------------------

  /** The parameters a caller without edit_posts may not set (rest_forbidden_param). */
  function forbiddenParams(ctx: HandlerContext): string[] {
    const p = ctx.params;
    const out: string[] = [];
    for (const name of ['author', 'author_exclude', 'author_email', 'type', 'status']) {
      if (name === 'status' ? p.status !== 'approve' : name === 'type' ? p.type !== 'comment' : filled(p[name])) out.push(name);
    }
    return out;
  }

  const forbiddenParamError = (ctx: HandlerContext, names: string[]) =>
    new RestError('rest_forbidden_param', `Query parameter not permitted: ${names.join(', ')}`, authStatus(ctx.user));

  app.bind('cms.comments.list', {
    async permission(ctx) {
      const p = ctx.params;
      const isNote = p.type === 'note';
      const edit = p.context === 'edit';
      const postIds = (p.post as number[]) ?? [];
      const posts = postIds.length ? await ctx.cached('posts', () => postsById(postIds)) : new Map<number, PostDoc>();
      const access: PostAccess = { context: p.context, password: p.password, named: postIds.length === 1 };
      for (const id of postIds) {
        const post = posts.get(id);
        if (id !== 0 && post && !canReadPostOf(ctx.user, post, access)) {
          return new RestError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(ctx.user));
        } else if (id === 0 && !moderator(ctx)) {
          return new RestError('rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.', authStatus(ctx.user));
        }
        if (post && isNote && !supportsNotes(post)) {
          if (canEditAnyPost(ctx.user, post)) return new RestError('rest_comment_not_supported_post_type', 'Sorry, this post type does not support notes.', 403);
          return forbiddenParamError(ctx, forbiddenParams(ctx));
        }
      }
      if (edit && isNote && postIds.length) {
        for (const id of postIds) {
          const post = posts.get(id);
          if (!post || !canEditAnyPost(ctx.user, post)) return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit comments.', authStatus(ctx.user));
        }
      } else if (edit && !moderator(ctx)) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit comments.', authStatus(ctx.user));
      }
      if (!can(ctx.user, 'edit_posts')) {
        const names = forbiddenParams(ctx);
        if (names.length) return forbiddenParamError(ctx, names);
      }
      return true;
    },
    async handle(ctx) {
      return listPage(ctx);
    },
  });

  /** WP_Comment_Query's filters from the request. */
  function listFilter(ctx: HandlerContext): Filter {
    const p = ctx.params;
    const and: Filter[] = [];
    const ids = (name: string) => ((p[name] as number[] | undefined) ?? []).filter((n) => Number.isInteger(n));
    const status = String(p.status ?? '');
    if (status === 'hold') and.push({ approved: '0' });
    else if (status === 'approve') and.push({ approved: '1' });
    else if (status === 'all' || status === '') and.push({ approved: { $in: ['0', '1'] } });
    else if (status !== 'any') and.push({ approved: status });
    const type = String(p.type ?? '');
    if (type === 'comment' || type === 'comments') and.push({ type: 'comment' });
    else if (type === 'pings') and.push({ type: { $in: ['pingback', 'trackback'] } });
    else if (type !== '' && type !== 'all') and.push({ type });
    if (ids('post').length) and.push({ post: { $in: ids('post') } });
    if (ids('parent').length) and.push({ parent: { $in: ids('parent') } });
    if (ids('parent_exclude').length) and.push({ parent: { $nin: ids('parent_exclude') } });
    if (ids('include').length) and.push({ id: { $in: ids('include') } });
    if (ids('exclude').length) and.push({ id: { $nin: ids('exclude') } });
    if (ids('author').length) and.push({ author: { $in: ids('author') } });
    if (ids('author_exclude').length) and.push({ author: { $nin: ids('author_exclude') } });
    if (typeof p.author_email === 'string' && p.author_email) and.push({ author_email: p.author_email });
    for (const [arg, op] of [['after', '$gt'], ['before', '$lt']] as const) {
      const v = typeof p[arg] === 'string' ? filterDate(p[arg] as string, deps.site.timezone) : null;
      if (v) and.push({ date: { [op]: v } });
    }
    if (typeof p.search === 'string' && p.search !== '') {
      const needle = p.search;
      and.push({ $or: ['author_name', 'author_email', 'author_url', 'author_ip', 'content'].map((f) => ({ [f]: { $icontains: needle } })) });
    }
    return and.length === 1 ? and[0] : and.length ? { $and: and } : {};
  }

  async function listPage(ctx: HandlerContext): Promise<Reply> {
    const p = ctx.params;
    const postIds = (p.post as number[]) ?? [];
    const access: PostAccess = { context: p.context, password: p.password, named: postIds.length === 1 };
    // Comments on posts the caller may not read are left out by the query itself, so the total counts
    // only comments the caller is shown (the reference counts them and drops them from the page).
    const readable = await readablePostsCondition(ctx.user, access, (f) => deps.posts.collection.find(f, { fields: ['type', 'author', 'status', 'password', 'trash'] }), postIds);
    const base = listFilter(ctx);
    const filter = readable ? (Object.keys(base).length ? { $and: [base, readable] } : readable) : base;
    const dir: 1 | -1 = p.order === 'asc' ? 1 : -1;
    const include = (p.include as number[]) ?? [];
    const byInclude = p.orderby === 'include' && include.length > 0;
    const field = SORT_FIELDS[String(p.orderby)] ?? 'date_gmt';
    // Ties are broken by id in the same direction, as the reference's query does.
    const sort: SortSpec = field === 'id' ? [['id', dir]] : [[field, dir], ['id', dir]];
    const perPage = Number(p.per_page);
    const page = Number(p.page);
    const skip = listSkip(p.offset, page, perPage);
    let items: CommentDoc[];
    let total: number;
    if (byInclude) {
      // At most the listed ids match, so they are ordered here.
      const all = (await deps.comments.collection.find(filter, { sort })).sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
      total = all.length;
      items = all.slice(skip, skip + perPage);
    } else {
      items = await deps.comments.collection.find(filter, { sort, skip, limit: perPage });
      total = items.length < perPage && (items.length > 0 || skip === 0) ? skip + items.length : await deps.comments.count(filter);
    }
    const context = p.context as Context;
    const input = await presentInput(ctx, items, context, access, ctx.memo.get('posts') as Map<number, PostDoc> | undefined);
    // What else the caller may not read (unapproved comments, notes) is left out of the page.
    const body = items.filter((c) => canReadComment(ctx.user, c, input.posts.get(c.post), access)).map((c) => presentComment(c, input));
    return { body, headers: pagingHeaders(deps.site, BASE, ctx.req.query, page, perPage, total) };
  }

  // ---- single -----------------------------------------------------------------------------------

  const itemAccess = (ctx: HandlerContext): PostAccess => ({ context: ctx.params.context, password: raw(ctx, 'password'), named: true });

  app.bind('cms.comments.get', {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      const editCap = comment.type === 'note' ? !!post && canEditAnyPost(ctx.user, post) : moderator(ctx);
      if (ctx.params.context === 'edit' && !editCap) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit comments.', authStatus(ctx.user));
      }
      if (!canReadComment(ctx.user, comment, post, itemAccess(ctx))) {
        return new RestError('rest_cannot_read', 'Sorry, you are not allowed to read this comment.', authStatus(ctx.user));
      }
      if (post && !canReadPostOf(ctx.user, post, itemAccess(ctx))) {
        return new RestError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const { comment, post } = await loadComment(ctx);
      return { body: await presentOne(ctx, comment, ctx.params.context as Context, post) };
    },
  });

  // ---- create -----------------------------------------------------------------------------------

  /** Meta a request sets, refused unless the writer may edit the comment (the keys are protected). */
  function metaChanges(ctx: HandlerContext, post: PostDoc | null): Record<string, unknown> | null {
    const meta = ctx.params.meta as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object') return null;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(meta)) {
      if (!ownEntry(COMMENT_META, k)) continue;
      if (!canEditCommentCap(ctx.user, post)) {
        throw new RestError('rest_cannot_update', `Sorry, you are not allowed to edit the ${k} custom field.`, authStatus(ctx.user), { key: k });
      }
      out[k] = v;
    }
    return Object.keys(out).length ? out : null;
  }

  const withMeta = (stored: Record<string, unknown> | undefined, changes: Record<string, unknown> | null): Record<string, unknown> => {
    const out = { ...(stored ?? {}) };
    for (const [k, v] of Object.entries(changes ?? {})) {
      if (v === null) delete out[k];
      else out[k] = v;
    }
    return out;
  };

  app.bind('cms.comments.create', {
    async permission(ctx) {
      const p = ctx.params;
      const isNote = raw(ctx, 'type') === 'note';
      // Anonymous comments through the API are off, as the reference ships them.
      if (!ctx.user) return new RestError('rest_comment_login_required', 'Sorry, you must be logged in to comment.', 401);
      if (p.author !== undefined && p.author !== null && p.author !== ctx.user.id && !moderator(ctx)) {
        return new RestError('rest_comment_invalid_author', "Sorry, you are not allowed to edit 'author' for comments.", authStatus(ctx.user));
      }
      // Others may only name their own address.
      if (p.author_ip !== undefined && p.author_ip !== null && !moderator(ctx) && p.author_ip !== clientIp(ctx)) {
        return new RestError('rest_comment_invalid_author_ip', "Sorry, you are not allowed to edit 'author_ip' for comments.", authStatus(ctx.user));
      }
      const postId = typeof p.post === 'number' ? p.post : 0;
      const post = postId > 0 ? await ctx.cached('post', () => deps.posts.byId(postId)) : null;
      if (isNote && postId && !(post && canEditAnyPost(ctx.user, post))) {
        return new RestError('rest_cannot_create_note', 'Sorry, you are not allowed to create notes for this post.', authStatus(ctx.user));
      }
      const statusCap = isNote ? !!post && canEditAnyPost(ctx.user, post) : moderator(ctx);
      if (p.status !== undefined && p.status !== null && !statusCap) {
        return new RestError('rest_comment_invalid_status', "Sorry, you are not allowed to edit 'status' for comments.", authStatus(ctx.user));
      }
      if (!post) return new RestError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
      if (isNote && !supportsNotes(post)) return new RestError('rest_comment_not_supported_post_type', 'Sorry, this post type does not support notes.', 403);
      if (post.status === 'draft' && !isNote) return new RestError('rest_comment_draft_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
      if (post.status === 'trash') return new RestError('rest_comment_trash_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
      if (!canReadPostOf(ctx.user, post, { context: p.context, password: raw(ctx, 'password'), named: true })) {
        return new RestError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(ctx.user));
      }
      if (post.comment_status !== 'open' && !isNote) return new RestError('rest_comment_closed', 'Sorry, comments are closed for this item.', 403);
      return true;
    },
    async handle(ctx) {
      const p = ctx.params;
      if (filled(raw(ctx, 'id'))) throw new RestError('rest_comment_exists', 'Cannot create existing comment.', 400);
      const rawType = raw(ctx, 'type');
      if (filled(rawType) && rawType !== 'comment' && rawType !== 'note') throw new RestError('rest_invalid_comment_type', 'Cannot create a comment with that type.', 400);
      const type = rawType === 'note' ? 'note' : 'comment';
      const post = (await ctx.cached('post', () => deps.posts.byId(Number(p.post))))!;
      const prepared = await prepare(ctx, deps.users, deps.site.timezone);
      if (prepared.content === undefined) prepared.content = '';
      const meta = metaChanges(ctx, post);
      const noteStatus = meta?._cms_note_status;
      // An empty note is allowed when it only resolves or reopens a thread.
      const emptyNoteOk = type === 'note' && (noteStatus === 'resolved' || noteStatus === 'reopen');
      if (!emptyNoteOk && !contentAllowed(prepared)) throw new RestError('rest_comment_content_invalid', 'Invalid comment content.', 400);
      if (!prepared.date_gmt) {
        const at = now();
        prepared.date_gmt = at;
        prepared.date = toLocal(at, deps.site.timezone);
      }
      const missingAuthor = !prepared.author && !prepared.author_name && !prepared.author_email && !prepared.author_url;
      if (missingAuthor) {
        const me = await deps.users.byId(ctx.user!.id);
        if (me) Object.assign(prepared, { author: me.id, author_name: me.name, author_email: me.email, author_url: me.url ?? '' });
      }
      // The discussion setting "comment author must fill out name and email" is on by default.
      if (!prepared.author_name || !prepared.author_email) {
        throw new RestError('rest_comment_author_data_required', 'Creating a comment requires valid author name and email values.', 400);
      }
      checkLengths(prepared);
      const draft: CommentDoc = filterComment(
        {
          id: 0,
          post: post.id,
          parent: prepared.parent ?? 0,
          author: prepared.author ?? 0,
          author_name: prepared.author_name,
          author_email: prepared.author_email ?? '',
          author_url: prepared.author_url ?? '',
          author_ip: prepared.author_ip ?? '',
          agent: prepared.agent ?? '',
          date: prepared.date!,
          date_gmt: prepared.date_gmt,
          content: prepared.content,
          approved: '0',
          type,
          meta: withMeta({}, meta),
        },
        ctx.user,
        deps.site.home,
      );
      // Notes skip the duplicate and flood checks and are approved at once.
      draft.approved = type === 'note' ? '1' : await allowComment(deps.comments, deps.users, draft, post, ctx.user);
      if (typeof p.status === 'string') Object.assign(draft, statusChange(draft, p.status) ?? {});
      for (const k of Object.keys(draft) as Array<keyof CommentDoc>) if (draft[k] === undefined) delete draft[k];
      draft.id = await deps.comments.nextId();
      await deps.comments.insert(draft);
      const context: Context = moderator(ctx) ? 'edit' : 'view';
      return { status: 201, body: await presentOne(ctx, draft, context, post), headers: { Location: restUrl(deps.site, `${BASE}/${draft.id}`) } };
    },
  });

  // ---- update -----------------------------------------------------------------------------------

  app.bind('cms.comments.update', {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (!canEditComment(ctx.user, comment, post)) return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const { comment, post } = await loadComment(ctx);
      const p = ctx.params;
      const rawType = raw(ctx, 'type');
      if (rawType !== undefined && rawType !== null && rawType !== comment.type) {
        throw new RestError('rest_comment_invalid_type', 'Sorry, you are not allowed to change the comment type.', 404);
      }
      const prepared = await prepare(ctx, deps.users, deps.site.timezone);
      if (prepared.post) {
        const target = await deps.posts.byId(prepared.post);
        if (!target) throw new RestError('rest_comment_invalid_post_id', 'Invalid post ID.', 403);
      }
      if (!contentAllowed(prepared)) throw new RestError('rest_comment_content_invalid', 'Invalid comment content.', 400);
      checkLengths(prepared);
      const meta = metaChanges(ctx, post);
      const merged = filterComment({ ...comment, ...prepared }, ctx.user, deps.site.home);
      if (typeof p.status === 'string') Object.assign(merged, statusChange(comment, p.status) ?? {});
      if (meta) merged.meta = withMeta(comment.meta, meta);
      const set: Record<string, unknown> = {};
      const unset: Record<string, true> = {};
      for (const [k, v] of Object.entries(merged)) {
        if (k === 'id') continue;
        if (v === undefined) unset[k] = true;
        else set[k] = v;
      }
      const saved = (await deps.comments.update(comment.id, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }))!;
      return { body: await presentOne(ctx, saved, 'edit', post) };
    },
  });

  // ---- delete -----------------------------------------------------------------------------------

  app.bind('cms.comments.delete', {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (!canEditComment(ctx.user, comment, post)) return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (ctx.params.force === true) {
        const previous = await presentOne(ctx, comment, 'edit', post, false);
        await deps.comments.removeOne(comment);
        return { body: { deleted: true, previous } };
      }
      if (comment.approved === 'trash') throw new RestError('rest_already_trashed', 'The comment has already been trashed.', 410);
      const trashed = (await deps.comments.update(comment.id, { $set: statusChange(comment, 'trash')! }))!;
      return { body: await presentOne(ctx, trashed, 'edit', post) };
    },
  });
}
