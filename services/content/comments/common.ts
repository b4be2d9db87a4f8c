/**
 * What the comment handlers (handlers.ts for the reads, write-handlers.ts for the writes) share: their
 * dependencies, the checks both make of a request, and loading a comment with its post and everything
 * presenting comments needs.
 */
import { can, type Caller } from '#libs/auth/user';
import type { UsersRepository } from '#libs/auth/users';
import type { PageParents } from '#libs/posts/permalink';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { RestError } from '#libs/rest/errors';
import type { CompiledRoute, RouteRegistry } from '#libs/rest/registry';
import type { HandlerContext } from '#libs/rest/service';
import type { Site } from '#libs/rest/site';
import type { PostAccess } from './access';
import { presentComment, type CommentPresentInput, type Context } from './present';
import type { CommentDoc, CommentsRepository } from '#libs/comments/repository';

export interface CommentsDeps {
  site: Site;
  comments: CommentsRepository;
  posts: PostsRepository;
  users: UsersRepository;
  registry: RouteRegistry;
}

export const BASE = '/cms/v2/comments';

/** REST bases of the post types whose records have a cms/v2 route. */
const POST_BASES: Record<string, string> = { post: 'posts', page: 'pages' };

const invalidComment = () => new RestError('rest_comment_invalid_id', 'Invalid comment ID.', 404);

export const moderator = (ctx: HandlerContext) => can(ctx.user, 'moderate_comments');

/** A request argument the route does not declare (the reference reads `type`, `id` and `password` from any request). */
export function raw(ctx: HandlerContext, name: string): unknown {
  return ctx.params[name];
}

export const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== 0 && v !== '0' && !(Array.isArray(v) && v.length === 0);

/**
 * Loading a comment and presenting comments, bound to the service's stores; made once per binding, so
 * the reads and the writes share its cache of post routes.
 */
export function commentLoader(deps: CommentsDeps) {
  const routes = new Map<string, { base: string; route: CompiledRoute } | null>();
  /** The item route of a post's type in this build, if it exists for the caller (rest_get_route_for_post). */
  const postRoute = (post: PostDoc, user: Caller): string | null => {
    if (!routes.has(post.type)) {
      const base = POST_BASES[post.type] ?? post.type;
      const match = deps.registry.match(`/cms/v2/${base}/1`, 'anyone');
      routes.set(post.type, match && match.route.namespace === 'cms/v2' ? { base, route: match.route } : null);
    }
    const found = routes.get(post.type);
    return found && deps.registry.shows(found.route, user) ? `/cms/v2/${found.base}/${post.id}` : null;
  };

  async function postsById(ids: number[]): Promise<Map<number, PostDoc>> {
    return deps.posts.byIds(ids.filter((id) => id > 0));
  }

  /** The comment and its post (404 for a missing comment, or a comment whose post is gone). */
  function loadComment(ctx: HandlerContext<{ readonly id: number }>): Promise<{ comment: CommentDoc; post: PostDoc | null }> {
    return ctx.once('comment', async () => {
      const id = ctx.input.id;
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
  async function presentInput(
    ctx: HandlerContext,
    docs: CommentDoc[],
    context: Context,
    access: PostAccess,
    known?: Map<number, PostDoc>,
  ): Promise<CommentPresentInput> {
    const posts = new Map(known ?? []);
    const missing = [...new Set(docs.map((d) => d.post))].filter((id) => id > 0 && !posts.has(id));
    for (const [id, p] of await postsById(missing)) posts.set(id, p);
    const parents: PageParents = new Map();
    let wanted = [...new Set([...posts.values()].filter((p) => p.type === 'page' && p.parent > 0).map((p) => p.parent))];
    while (wanted.length) {
      const found = await deps.posts.find({ id: { $in: wanted } }, { fields: ['slug', 'parent'] });
      for (const f of found) parents.set(f.id, { slug: String(f.slug ?? ''), parent: Number(f.parent ?? 0) });
      wanted = [...new Set(found.map((f) => Number(f.parent ?? 0)).filter((p) => p > 0 && !parents.has(p)))];
    }
    const userIds = [...new Set(docs.map((d) => d.author).filter((a) => a > 0))];
    const emails = new Map<number, string>();
    if (userIds.length) for (const u of await deps.users.find({ id: { $in: userIds } }, { fields: ['email'] })) emails.set(u.id, String(u.email ?? ''));
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
  async function presentOne(
    ctx: HandlerContext,
    comment: CommentDoc,
    context: Context,
    post: PostDoc | null,
    withLinks = true,
  ): Promise<Record<string, unknown>> {
    const access: PostAccess = { context, password: raw(ctx, 'password'), named: true };
    const known = new Map(post && post.id === comment.post ? [[post.id, post]] : []);
    return presentComment(comment, await presentInput(ctx, [comment], context, access, known), withLinks);
  }

  return { postsById, loadComment, presentInput, presentOne };
}

export type CommentLoader = ReturnType<typeof commentLoader>;
