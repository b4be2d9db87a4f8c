/**
 * cms/v2 posts, pages and events: list, create, get, update, delete (reference: the posts controller), with
 * their revisions and autosaves bound beside them. Batch sub-requests carry an idempotency key: a
 * create stores it on the record, an update or a trash records it on the record in the same write,
 * and a permanent delete records its answer first, so a retried batch finds what was already done.
 */
import { can } from '#libs/auth/user';
import type { UsersRepository } from '#libs/auth/users';
import { loadAncestors } from '#libs/posts/permalink';
import type { PostsRepository } from '#libs/posts/repository';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostDoc } from '#libs/posts/types';
import { mysqlLocal } from '#libs/dates/format';
import { now } from '#libs/dates/post-dates';
import { ParamError, RestError, authStatus, invalidParams } from '#libs/rest/errors';
import { pagingHeaders } from '#libs/rest/paging';
import type { HandlerContext, Reply, ServiceApp } from '#libs/rest/service';
import { restUrl, type Site } from '#libs/rest/site';
import { KINDS, type KindInfo, type PostKind } from '#libs/routes/cms/post-args';
import { POST_ENDPOINTS } from '#libs/routes/cms/posts';
import { shared, type InputOf, type Shared } from '#libs/rest/params';
import type { BatchResults } from '../batch-results';
import { DuplicateKeyError } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { CommentsRepository } from '#libs/comments/repository';
import { canDeletePost, canEditPost, canReadPost, capType, typeCan } from './access';
import { presentPost, type Context, type LinkTargets, type PresentInput } from './present';
import { versionOf, viewerKey } from '#libs/rest/presented';
import type { KeptPresenter, ReadCache } from '#libs/rest/read-cache';
import { checkListOrder, pageOfPlan, planList } from './query';
import { contextOf } from '../context';
import { bindRevisions, deleteRevisionsOf, saveRevision } from './revisions';
import { buildCreate, buildUpdate, canAssignTerms, checkTemplate, prepare, stickyRequested, type WriteDeps } from './write';

export interface PostsDeps extends WriteDeps {
  site: Site;
  posts: PostsRepository;
  terms: TermsRepository;
  users: UsersRepository;
  links: LinkTargets;
  /** Answers of permanent deletes made by batch sub-requests, by idempotency key. */
  results: BatchResults;
  /** What the content service keeps between requests: presented records, callers' answers, list pages and totals (libs/rest/read-cache.ts). */
  cache: ReadCache<Reply>;
  /** A post's comments are hidden while it is in the trash and go with it when it is deleted for good. */
  comments: CommentsRepository;
}

/** How many batch keys a record remembers (a batch has at most 25 requests). */
const KEPT_BATCH_KEYS = 50;

/** The endpoints posts and pages share one handler set for, seen through the arguments both types have. */
type PostEndpoints = (typeof POST_ENDPOINTS)[PostKind];
type ListInput = InputOf<Shared<PostEndpoints['list']>>;

const invalidId = () => new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);

function loadPost(ctx: HandlerContext<{ readonly id: number }>, deps: PostsDeps, kind: KindInfo): Promise<PostDoc> {
  return ctx.once('post', async () => {
    const id = ctx.input.id;
    const post = Number.isInteger(id) && id > 0 ? await ctx.record(deps.posts, id) : null;
    if (!post || post.type !== kind.kind) throw invalidId();
    return post;
  });
}

/**
 * Records as the list and the single read present them (ctx.present), kept under the record at its
 * version, the context, the caller's rights and the single read's own options (`single`).
 */
function postPresenter(
  ctx: HandlerContext,
  deps: PostsDeps,
  kind: KindInfo,
  context: Context,
  single?: Pick<PresentInput, 'password' | 'excerptLength'>,
): KeptPresenter<PostDoc, Record<string, unknown>> {
  const extra = single ? JSON.stringify([single.password ?? null, single.excerptLength ?? null]) : '';
  // A record without a slug shows in the edit context the slug it would get, which depends on the slugs
  // other records hold: its key names the posts' write generation, so a new record makes it afresh.
  const suggested = (post: PostDoc) => (context === 'edit' && !post.slug ? String(deps.cache.written(deps.posts.name)) : '');
  return {
    key: (post) => `${kind.kind}:${post.id}:${versionOf(post)}:${context}:${viewerKey(ctx.user)}:${extra}:${suggested(post)}`,
    async present(docs) {
      const input = { ...(await presentInput(ctx, deps, kind, docs, context)), ...single };
      return docs.map((d) => presentPost(d, input));
    },
  };
}

/** Term slugs, ancestors and generated slugs for a page of records, in a few queries for all of them. */
async function presentInput(ctx: HandlerContext, deps: PostsDeps, kind: KindInfo, docs: PostDoc[], context: Context): Promise<PresentInput> {
  const input: PresentInput = { site: deps.site, kind, context, user: ctx.user, links: deps.links, terms: new Map(), parents: new Map() };
  if (kind.taxonomies.length && context !== 'embed') {
    const ids = [...new Set(docs.flatMap((d) => kind.taxonomies.flatMap((t) => d.tax?.[t.name] ?? [])))];
    if (ids.length) for (const t of (await deps.terms.byIds(ids)).values()) input.terms.set(t.id, { slug: t.slug, taxonomy: t.taxonomy, name: t.name });
  }
  if (kind.hierarchical) await loadAncestors(deps.posts, docs, input.parents);
  if (context === 'edit') {
    const missing = docs.filter((d) => !d.slug);
    if (missing.length) {
      const candidates = new Map(missing.map((d) => [d.id, sanitizeTitle(d.title) || String(d.id)]));
      const taken = new Set(
        (await deps.posts.find({ type: kind.kind, slug: { $in: [...new Set(candidates.values())] } }, { fields: ['slug'] })).map((r) => String(r.slug)),
      );
      input.generatedSlugs = new Map();
      for (const d of missing) {
        const c = candidates.get(d.id)!;
        const slug =
          taken.has(c) || /^\d+$/.test(c)
            ? await deps.posts.uniqueSlug(c, { type: kind.kind, hierarchical: kind.hierarchical, parent: d.parent, selfId: d.id })
            : c;
        input.generatedSlugs.set(d.id, slug);
      }
    }
  }
  return input;
}

async function presentOne(
  ctx: HandlerContext,
  deps: PostsDeps,
  kind: KindInfo,
  post: PostDoc,
  context: Context,
  extra: Partial<PresentInput> = {},
  withLinks = true,
): Promise<Record<string, unknown>> {
  return presentPost(post, { ...(await presentInput(ctx, deps, kind, [post], context)), ...extra }, withLinks);
}

function forbiddenStatus(ctx: HandlerContext<ListInput>, kind: KindInfo): RestError | null {
  // The reference checks statuses in a sanitize callback, so a refusal is a 400 around rest_forbidden_status.
  for (const s of ctx.input.status) {
    if (s === 'publish') continue;
    if (typeCan(ctx.user, kind.kind, 'edit') || (s === 'private' && typeCan(ctx.user, kind.kind, 'read_private'))) continue;
    return invalidParams([['status', new ParamError('rest_forbidden_status', 'Status is forbidden.', { status: authStatus(ctx.user) })]]);
  }
  return null;
}

/** After a write: moves the published counts of the terms it touched. */
function recount(deps: PostsDeps, before: PostDoc | null, after: PostDoc | null): Promise<void> {
  return deps.terms.countWrite(before, after);
}

function withKey(post: PostDoc, key: string | undefined): Partial<PostDoc> {
  return key ? { batch_keys: [...(post.batch_keys ?? []), key].slice(-KEPT_BATCH_KEYS) } : {};
}

export function bindPosts(app: ServiceApp, deps: PostsDeps): void {
  for (const kind of Object.values(KINDS)) {
    bindKind(app, deps, kind);
    bindRevisions(app, deps, kind);
  }
}

function bindKind(app: ServiceApp, deps: PostsDeps, kind: KindInfo): void {
  const eps = POST_ENDPOINTS[kind.kind];
  const base = `/cms/v2/${kind.base}`;
  const t = capType(kind.kind);

  app.bind(shared(eps.list), {
    async validate(ctx) {
      return forbiddenStatus(ctx, kind) ?? true;
    },
    async permission(ctx) {
      if (ctx.input.context === 'edit' && !typeCan(ctx.user, kind.kind, 'edit')) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authStatus(ctx.user));
      }
      return true;
    },
    // Callers with the same rights see the same page for the same query.
    keep: { answer: (ctx) => JSON.stringify(ctx.req.query) },
    handle: (ctx) => listPage(ctx),
  });

  async function listPage(ctx: HandlerContext<ListInput>): Promise<Reply> {
    // A post's own list arguments (terms, sticky, format) are there too, though the family's type leaves them out.
    const p = ctx.input;
    checkListOrder(p);
    const plan = await planList(p, kind, ctx.user, deps.terms, deps.site.timezone, ctx.args);
    const { items, total, page, perPage } = await pageOfPlan(deps.posts, p, plan, (f) => deps.cache.counts.count(deps.posts, f), undefined, deps.cache.pages);
    const context = contextOf(ctx.input.context);
    const body = await ctx.present(items, postPresenter(ctx, deps, kind, context));
    return { body, headers: pagingHeaders(deps.site, base, ctx.req.query, page, perPage, total) };
  }

  app.bind(shared(eps.get), {
    async permission(ctx) {
      const post = await loadPost(ctx, deps, kind);
      if (ctx.input.context === 'edit' && !canEditPost(ctx.user, post)) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', authStatus(ctx.user));
      }
      // Only a password in the query string is checked (one in a body is ignored).
      const password = ctx.req.queryKeys.includes('password') ? ctx.req.query.password : undefined;
      if (typeof password === 'string' && password !== '' && password !== post.password) {
        return new RestError('rest_post_incorrect_password', 'Incorrect post password.', 403);
      }
      return canReadPost(ctx.user, post);
    },
    async handle(ctx) {
      const post = await loadPost(ctx, deps, kind);
      const password = ctx.req.queryKeys.includes('password') && typeof ctx.req.query.password === 'string' ? ctx.req.query.password : undefined;
      const excerptLength = ctx.input.excerpt_length != null && ctx.input.excerpt_length > 0 ? ctx.input.excerpt_length : undefined;
      const context = contextOf(ctx.input.context);
      const [body] = await ctx.present([post], postPresenter(ctx, deps, kind, context, { password, excerptLength }));
      return { body, headers: { Link: `<${String(body.link)}>; rel="alternate"; type=text/html` } };
    },
  });

  const created = async (ctx: HandlerContext, post: PostDoc): Promise<Reply> => ({
    status: 201,
    body: await presentOne(ctx, deps, kind, post, 'edit'),
    headers: { Location: restUrl(deps.site, `${base}/${post.id}`) },
  });

  app.bind(shared(eps.create), {
    async permission(ctx) {
      checkTemplate(ctx.input.template, null);
      // `id` is no argument of a create: any the request carries is refused.
      const id = ctx.params.id;
      if (id !== undefined && id !== null && id !== '' && id !== 0 && id !== '0') return new RestError('rest_post_exists', 'Cannot create existing post.', 400);
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a list's `author` is a list of ids, so the type is tested.
      const author = ctx.input.author;
      if (typeof author === 'number' && author !== 0 && author !== ctx.user?.id && !can(ctx.user, `edit_others_${t}s`)) {
        return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', authStatus(ctx.user));
      }
      if (stickyRequested(ctx) && !can(ctx.user, `edit_others_${t}s`) && !can(ctx.user, `publish_${t}s`)) {
        return new RestError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', authStatus(ctx.user));
      }
      if (!can(ctx.user, `edit_${t}s`))
        return new RestError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', authStatus(ctx.user));
      if (!(await canAssignTerms(deps, kind, ctx)))
        return new RestError('rest_cannot_assign_term', 'Sorry, you are not allowed to assign the provided terms.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const key = ctx.req.idempotencyKey;
      if (key) {
        const done = await deps.posts.byBatchKey(key);
        if (done) return created(ctx, done);
      }
      const prep = await prepare(deps, kind, ctx, null);
      const postId = await deps.posts.nextId();
      const doc = await buildCreate(deps, kind, ctx, prep, postId);
      if (key) doc.batch_key = key;
      let post: PostDoc;
      try {
        post = await deps.posts.create(doc);
      } catch (e) {
        // Two runs of one batch sub-request: the first one's record is the answer.
        const done = key && e instanceof DuplicateKeyError ? await deps.posts.byBatchKey(key) : null;
        if (!done) throw e;
        return created(ctx, done);
      }
      await recount(deps, null, post);
      return created(ctx, post);
    },
  });

  app.bind(shared(eps.update), {
    async permission(ctx) {
      const post = await loadPost(ctx, deps, kind);
      checkTemplate(ctx.input.template, post);
      if (!canEditPost(ctx.user, post)) return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(ctx.user));
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a list's `author` is a list of ids, so the type is tested.
      const author = ctx.input.author;
      if (typeof author === 'number' && author !== 0 && author !== ctx.user?.id && !can(ctx.user, `edit_others_${t}s`)) {
        return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.', authStatus(ctx.user));
      }
      if (stickyRequested(ctx) && !can(ctx.user, `edit_others_${t}s`) && !can(ctx.user, `publish_${t}s`)) {
        return new RestError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', authStatus(ctx.user));
      }
      if (!(await canAssignTerms(deps, kind, ctx)))
        return new RestError('rest_cannot_assign_term', 'Sorry, you are not allowed to assign the provided terms.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const post = await loadPost(ctx, deps, kind);
      const key = ctx.req.idempotencyKey;
      if (key && post.batch_keys?.includes(key)) return { body: await presentOne(ctx, deps, kind, post, 'edit') };
      const prep = await prepare(deps, kind, ctx, post);
      const { changes, after } = await buildUpdate(deps, kind, ctx, prep, post);
      const stats = await saveRevision(deps, after, ctx.user);
      const saved = (await deps.posts.save(post.id, { ...changes, ...(stats ?? {}), ...withKey(post, key) }))!;
      await recount(deps, post, saved);
      if (post.status === 'trash' && saved.status !== 'trash') await deps.comments.restoreForPost(post.id);
      return { body: await presentOne(ctx, deps, kind, saved, 'edit') };
    },
  });

  app.bind(shared(eps.delete), {
    async permission(ctx) {
      const key = ctx.req.idempotencyKey;
      // A permanent delete that already ran answers as it did, though the record is gone.
      if (key && (await deps.results.answer(key))) return true;
      const post = await loadPost(ctx, deps, kind);
      if (!canDeletePost(ctx.user, post)) return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this post.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const key = ctx.req.idempotencyKey;
      if (key) {
        const done = await deps.results.answer(key);
        if (done) {
          const left = await deps.posts.byId(ctx.input.id);
          if (left) await removePost(deps, left);
          return { status: Number(done.status), body: done.body };
        }
      }
      const post = await loadPost(ctx, deps, kind);
      if (ctx.input.force) {
        const previous = await presentOne(ctx, deps, kind, post, 'edit', {}, false);
        const body = { deleted: true, previous };
        // Recorded before the delete: a retry after a crash in between finishes it and answers the same.
        if (key) {
          await deps.results.record(key, body);
        }
        await removePost(deps, post);
        return { body };
      }
      if (key && post.batch_keys?.includes(key)) return { body: await presentOne(ctx, deps, kind, post, 'edit') };
      if (post.status === 'trash') throw new RestError('rest_already_trashed', 'The post has already been deleted.', 410);
      const at = now();
      const trashed = await deps.posts.trash(post, at, { modified: mysqlLocal(at, deps.site.timezone), modified_gmt: at, ...withKey(post, key) });
      await recount(deps, post, trashed);
      await deps.comments.hideForTrashedPost(post.id);
      return { body: await presentOne(ctx, deps, kind, trashed, 'edit') };
    },
  });
}

/** wp_delete_post: the record, its revisions, autosaves and comments; a page's children and its attachments move up to its parent. */
async function removePost(deps: PostsDeps, post: PostDoc): Promise<void> {
  await deleteRevisionsOf(deps, post.id);
  await deps.comments.removeForPost(post.id);
  await deps.posts.reparentChildren(post);
  await deps.posts.remove(post.id);
  await recount(deps, post, null);
}
