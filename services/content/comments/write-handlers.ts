/**
 * cms/v2 comments writes: create, update and delete (reference: the comments controller's create_item,
 * update_item and delete_item with their permission checks). Writing needs an account; moderators
 * (moderate_comments) change everything, others what their rights on the comment's post allow.
 */
import { mysqlLocal } from '#libs/dates/format';
import { now } from '#libs/dates/post-dates';
import type { PostDoc } from '#libs/posts/types';
import { RestError, authStatus } from '#libs/rest/errors';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { restUrl } from '#libs/rest/site';
import { COMMENT_ENDPOINTS, COMMENT_META } from '#libs/routes/cms/comments';
import { canEditAnyPost, canEditComment, canEditCommentCap, canReadPostOf, supportsNotes } from './access';
import { BASE, filled, moderator, raw, type CommentLoader, type CommentsDeps } from './common';
import type { Context } from './present';
import type { CommentDoc } from '#libs/comments/repository';
import { allowComment, checkLengths, clientIp, contentAllowed, filterComment, prepare, statusChange, type CommentWriteInput } from './write';
import { ownEntry } from '#libs/rest/validate';
import { ownKeys } from '../own-keys';

export function bindCommentWrites(app: ServiceApp, deps: CommentsDeps, loader: CommentLoader): void {
  const { loadComment, presentOne } = loader;

  // ---- create -----------------------------------------------------------------------------------

  /** Meta a request sets, refused unless the writer may edit the comment (the keys are protected). */
  function metaChanges(ctx: HandlerContext<CommentWriteInput>, post: PostDoc | null): Record<string, unknown> | null {
    const meta = ctx.input.meta;
    if (!meta) return null;
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

  app.bind(COMMENT_ENDPOINTS.create, {
    async permission(ctx) {
      const p = ctx.input;
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
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a list's `post` is a list of ids, so the type is tested.
      const postId = typeof p.post === 'number' ? p.post : 0;
      const post = postId > 0 ? await ctx.once('post', () => deps.posts.byId(postId)) : null;
      if (isNote && postId && !(post && canEditAnyPost(ctx.user, post))) {
        return new RestError('rest_cannot_create_note', 'Sorry, you are not allowed to create notes for this post.', authStatus(ctx.user));
      }
      const statusCap = isNote ? !!post && canEditAnyPost(ctx.user, post) : moderator(ctx);
      if (p.status !== undefined && p.status !== null && !statusCap) {
        return new RestError('rest_comment_invalid_status', "Sorry, you are not allowed to edit 'status' for comments.", authStatus(ctx.user));
      }
      if (!post) return new RestError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
      if (isNote && !supportsNotes(post)) return new RestError('rest_comment_not_supported_post_type', 'Sorry, this post type does not support notes.', 403);
      if (post.status === 'draft' && !isNote)
        return new RestError('rest_comment_draft_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
      if (post.status === 'trash') return new RestError('rest_comment_trash_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
      if (!canReadPostOf(ctx.user, post, { context: raw(ctx, 'context'), password: raw(ctx, 'password'), named: true })) {
        return new RestError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(ctx.user));
      }
      if (post.comment_status !== 'open' && !isNote) return new RestError('rest_comment_closed', 'Sorry, comments are closed for this item.', 403);
      return true;
    },
    async handle(ctx) {
      const p = ctx.input;
      if (filled(raw(ctx, 'id'))) throw new RestError('rest_comment_exists', 'Cannot create existing comment.', 400);
      const rawType = raw(ctx, 'type');
      if (filled(rawType) && rawType !== 'comment' && rawType !== 'note')
        throw new RestError('rest_invalid_comment_type', 'Cannot create a comment with that type.', 400);
      const type = rawType === 'note' ? 'note' : 'comment';
      const post = (await ctx.once('post', () => deps.posts.byId(p.post)))!;
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
        prepared.date = mysqlLocal(at, deps.site.timezone);
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
      if (p.status != null) Object.assign(draft, statusChange(draft, p.status) ?? {});
      for (const k of ownKeys(draft)) if (draft[k] === undefined) delete draft[k];
      draft.id = await deps.comments.nextId();
      await deps.comments.insert(draft);
      const context: Context = moderator(ctx) ? 'edit' : 'view';
      return { status: 201, body: await presentOne(ctx, draft, context, post), headers: { Location: restUrl(deps.site, `${BASE}/${draft.id}`) } };
    },
  });

  // ---- update -----------------------------------------------------------------------------------

  app.bind(COMMENT_ENDPOINTS.update, {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (!canEditComment(ctx.user, comment, post))
        return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const { comment, post } = await loadComment(ctx);
      const p = ctx.input;
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
      if (p.status != null) Object.assign(merged, statusChange(comment, p.status) ?? {});
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

  app.bind(COMMENT_ENDPOINTS.delete, {
    async permission(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (!canEditComment(ctx.user, comment, post))
        return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const { comment, post } = await loadComment(ctx);
      if (ctx.input.force) {
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
