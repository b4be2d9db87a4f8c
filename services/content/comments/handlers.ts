/**
 * cms/v2 comments: list, create, get, update, delete (reference: the comments controller). Guests
 * read approved comments of posts they may read; writing needs an account (the reference refuses
 * anonymous REST comments unless a filter allows them); moderators (moderate_comments) see and change
 * everything, others what their rights on the comment's post allow. The reads (list, get) are bound
 * here, the writes (create, update, delete) in write-handlers.ts, with what both share in common.ts.
 */
import { can } from '#libs/auth/user';
import { filterDate } from '#libs/dates/post-dates';
import type { PostDoc } from '#libs/posts/types';
import { RestError, authStatus } from '#libs/rest/errors';
import { listSkip, pagingHeaders } from '#libs/rest/paging';
import type { HandlerContext, Probed, Reply, ServiceApp } from '#libs/rest/service';
import type { InputOf } from '#libs/rest/params';
import { COMMENT_ENDPOINTS } from '#libs/routes/cms/comments';
import type { Filter, SortSpec } from '#libs/store/types';
import { canEditAnyPost, canReadComment, canReadPostOf, readablePostsCondition, supportsNotes, type PostAccess } from './access';
import { BASE, commentLoader, filled, moderator, type CommentsDeps } from './common';
import { contextOf } from '../context';
import { presentComment } from './present';
import type { CommentDoc } from '#libs/comments/repository';
import { bindCommentWrites } from './write-handlers';

const SORT_FIELDS: Record<string, string> = { date: 'date', date_gmt: 'date_gmt', id: 'id', post: 'post', parent: 'parent', type: 'type' };

type ListInput = InputOf<typeof COMMENT_ENDPOINTS.list>;

export function bindComments(app: ServiceApp, deps: CommentsDeps): void {
  const loader = commentLoader(deps);
  const { postsById, loadComment, presentInput, presentOne } = loader;

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

  app.bind(COMMENT_ENDPOINTS.list, {
    async permission(ctx) {
      const p = ctx.input;
      const isNote = p.type === 'note';
      const edit = p.context === 'edit';
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a create's `post` is one id, so the list is read untyped.
      const postIds = ctx.args.ints('post');
      const posts = postIds.length ? await ctx.once('posts', () => postsById(postIds)) : new Map<number, PostDoc>();
      const access: PostAccess = { context: p.context, password: p.password, named: postIds.length === 1 };
      for (const id of postIds) {
        const post = posts.get(id);
        if (id !== 0 && post && !canReadPostOf(ctx.user, post, access)) {
          return new RestError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(ctx.user));
        } else if (id === 0 && !moderator(ctx)) {
          return new RestError('rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.', authStatus(ctx.user));
        }
        if (post && isNote && !supportsNotes(post)) {
          if (canEditAnyPost(ctx.user, post))
            return new RestError('rest_comment_not_supported_post_type', 'Sorry, this post type does not support notes.', 403);
          return forbiddenParamError(ctx, forbiddenParams(ctx));
        }
      }
      if (edit && isNote && postIds.length) {
        for (const id of postIds) {
          const post = posts.get(id);
          if (!post || !canEditAnyPost(ctx.user, post))
            return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit comments.', authStatus(ctx.user));
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
  function listFilter(ctx: HandlerContext<ListInput>): Filter {
    const p = ctx.input;
    const and: Filter[] = [];
    const status = p.status;
    if (status === 'hold') and.push({ approved: '0' });
    else if (status === 'approve') and.push({ approved: '1' });
    else if (status === 'all' || status === '') and.push({ approved: { $in: ['0', '1'] } });
    else if (status !== 'any') and.push({ approved: status });
    const type = p.type;
    if (type === 'comment' || type === 'comments') and.push({ type: 'comment' });
    else if (type === 'pings') and.push({ type: { $in: ['pingback', 'trackback'] } });
    else if (type !== '' && type !== 'all') and.push({ type });
    if (p.post.length) and.push({ post: { $in: p.post } });
    if (p.parent.length) and.push({ parent: { $in: p.parent } });
    if (p.parent_exclude.length) and.push({ parent: { $nin: p.parent_exclude } });
    if (p.include?.length) and.push({ id: { $in: p.include } });
    if (p.exclude?.length) and.push({ id: { $nin: p.exclude } });
    if (p.author?.length) and.push({ author: { $in: p.author } });
    if (p.author_exclude?.length) and.push({ author: { $nin: p.author_exclude } });
    // author_email defaults to null, which the derived type (string) leaves out: the truthiness test covers it.
    if (p.author_email) and.push({ author_email: p.author_email });
    for (const [arg, op] of [
      ['after', '$gt'],
      ['before', '$lt'],
    ] as const) {
      const given = p[arg];
      const v = given != null ? filterDate(given, deps.site.timezone) : null;
      if (v) and.push({ date: { [op]: v } });
    }
    if (p.search) {
      const needle = p.search;
      and.push({ $or: ['author_name', 'author_email', 'author_url', 'author_ip', 'content'].map((f) => ({ [f]: { $icontains: needle } })) });
    }
    return and.length === 1 ? and[0] : and.length ? { $and: and } : {};
  }

  async function listPage(ctx: HandlerContext<ListInput>): Promise<Reply> {
    const p = ctx.input;
    const postIds = p.post;
    const access: PostAccess = { context: p.context, password: p.password, named: postIds.length === 1 };
    // Comments on posts the caller may not read are left out by the query itself, so the total counts
    // only comments the caller is shown (the reference counts them and drops them from the page).
    const readable = await readablePostsCondition(
      ctx.user,
      access,
      (f) => deps.posts.find(f, { fields: ['type', 'author', 'status', 'password', 'trash'] }),
      postIds,
    );
    const base = listFilter(ctx);
    const filter = readable ? (Object.keys(base).length ? { $and: [base, readable] } : readable) : base;
    const dir: 1 | -1 = p.order === 'asc' ? 1 : -1;
    const include = p.include ?? [];
    const byInclude = p.orderby === 'include' && include.length > 0;
    const field = SORT_FIELDS[p.orderby] ?? 'date_gmt';
    // Ties are broken by id in the same direction, as the reference's query does.
    const sort: SortSpec =
      field === 'id'
        ? [['id', dir]]
        : [
            [field, dir],
            ['id', dir],
          ];
    const perPage = p.per_page;
    const page = p.page;
    const skip = listSkip(p.offset, page, perPage);
    let items: CommentDoc[];
    let total: number;
    if (byInclude) {
      // At most the listed ids match, so they are ordered here.
      const all = (await deps.comments.find(filter, { sort })).sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
      total = all.length;
      items = all.slice(skip, skip + perPage);
    } else {
      items = await deps.comments.find(filter, { sort, skip, limit: perPage });
      total = items.length < perPage && (items.length > 0 || skip === 0) ? skip + items.length : await deps.comments.count(filter);
    }
    const context = contextOf(ctx.input.context);
    // The posts the permission check loaded (it loads them when the request names any).
    const known = postIds.length ? await ctx.once('posts', () => postsById(postIds)) : undefined;
    const input = await presentInput(ctx, items, context, access, known);
    // What else the caller may not read (unapproved comments, notes) is left out of the page.
    const body = items.filter((c) => canReadComment(ctx.user, c, input.posts.get(c.post), access)).map((c) => presentComment(c, input));
    return { body, headers: pagingHeaders(deps.site, BASE, ctx.req.query, page, perPage, total) };
  }

  // ---- single -----------------------------------------------------------------------------------

  const itemAccess = (ctx: HandlerContext<Probed<InputOf<typeof COMMENT_ENDPOINTS.get>, 'id'>>): PostAccess => ({
    context: ctx.input.context,
    password: ctx.input.password,
    named: true,
  });

  app.bind(COMMENT_ENDPOINTS.get, {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      const editCap = comment.type === 'note' ? !!post && canEditAnyPost(ctx.user, post) : moderator(ctx);
      if (ctx.input.context === 'edit' && !editCap) {
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
      return { body: await presentOne(ctx, comment, contextOf(ctx.input.context), post) };
    },
  });

  bindCommentWrites(app, deps, loader);
}
