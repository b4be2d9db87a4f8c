/**
 * cms/v2 terms of every taxonomy: list, create, get, update, delete (reference: the terms controller).
 * The term rules themselves (duplicate names, slugs, parents, deletion) live in the terms repository,
 * shared with the calendar's category and tag routes.
 */
import { can, canReadRecord } from '#libs/auth/user';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { kses, TITLE_TAGS } from '#libs/posts/kses';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { RestError, authStatus } from '#libs/rest/errors';
import { listSkip, pagingHeaders } from '#libs/rest/paging';
import type { RouteRegistry } from '#libs/rest/registry';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { restUrl, type Site } from '#libs/rest/site';
import { termEndpoints, type TermEndpoints } from '#libs/routes/cms/terms';
import { shared, type InputOf, type Shared } from '#libs/rest/params';
import { DuplicateKeyError, type Store } from '#libs/store/types';
import { termErrors } from '#libs/terms/errors';
import type { TermDoc, TermInput, TermsRepository } from '#libs/terms/repository';
import { CMS_TAXONOMIES, termCan, type TaxonomyInfo } from '#libs/terms/taxonomies';
import { canReadPost, PUBLIC_STATUSES } from '../posts/access';
import { contextOf } from '../context';
import { BatchResults } from '../batch-results';
import { presentTerm, termLinkTargets, type Context, type TermLinkTargets } from './present';

export interface TermsDeps {
  site: Site;
  store: Store;
  terms: TermsRepository;
  posts: PostsRepository;
  /** The category posts fall back to; it cannot be deleted. */
  defaultCategory: () => number;
  /** Post list answers name term slugs (class_list): term writes drop them. */
}

/** What a create and an update write, in every taxonomy (a hierarchical one's `parent` is not among them). */
type WriteInput = InputOf<Shared<TermEndpoints['create'] | TermEndpoints['update']>>;

/** The reference's read_post for the records that carry terms. */
function canReadTermsOf(ctx: HandlerContext, post: PostDoc): boolean {
  if (PUBLIC_STATUSES.has(post.status)) return true;
  return post.type === EVENT_TYPE ? canReadRecord(ctx.user, 'vendor_event', post) : canReadPost(ctx.user, post);
}

/** A term write's fields from the request: only those it carries (prepare_item_for_database). */
function termInput(ctx: HandlerContext<WriteInput>, tax: TaxonomyInfo): TermInput {
  const p = ctx.input;
  const input: TermInput = {};
  if (p.name != null) input.name = p.name;
  if (p.slug != null) input.slug = p.slug;
  if (p.description != null) {
    // Descriptions are filtered like other text for writers without unfiltered_html.
    input.description = can(ctx.user, 'unfiltered_html') ? p.description : kses(p.description, TITLE_TAGS);
  }
  // Only a hierarchical taxonomy declares `parent`, so it is read from the untyped parameters.
  const parent = ctx.params.parent;
  if (tax.hierarchical && typeof parent === 'number') input.parent = parent;
  return input;
}

export function bindTerms(app: ServiceApp, deps: TermsDeps, registry: RouteRegistry): void {
  for (const tax of CMS_TAXONOMIES) bindTaxonomy(app, deps, tax, termLinkTargets(registry, tax));
}

function bindTaxonomy(app: ServiceApp, deps: TermsDeps, tax: TaxonomyInfo, targets: TermLinkTargets): void {
  const { site, terms } = deps;
  const base = `/cms/v2/${tax.base}`;
  const eps = termEndpoints(tax);
  // Answers of permanent deletes made by batch sub-requests, by idempotency key (as for posts).
  const results = new BatchResults(deps.store);

  const loadTerm = (ctx: HandlerContext<{ readonly id: number }>): Promise<TermDoc> =>
    ctx.once('term', async () => {
      const t = await terms.ofTaxonomy(ctx.input.id, tax.name);
      if (!t) throw termErrors.invalid();
      return t;
    });

  const present = async (ctx: HandlerContext, docs: TermDoc[], context: Context) => {
    const ancestors = tax.hierarchical ? await terms.ancestors(docs) : new Map<number, { slug: string; parent: number }>();
    return { site, tax, context, ancestors, targets, user: ctx.user };
  };

  /**
   * The parent a write names must be a term of this taxonomy (0 means none); taxonomies without a
   * hierarchy take none (they do not declare it, so it is read from the untyped parameters).
   */
  const checkParent = async (ctx: HandlerContext) => {
    const parent = ctx.params.parent;
    if (parent === undefined || parent === null) return;
    if (!tax.hierarchical) throw termErrors.notHierarchical();
    if (parent !== 0 && !(await terms.ofTaxonomy(Number(parent), tax.name))) throw termErrors.parentInvalid();
  };

  app.bind(shared(eps.list), {
    async permission(ctx) {
      if (ctx.input.context === 'edit' && !termCan(ctx.user, tax, 'edit_terms')) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.', authStatus(ctx.user));
      }
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a create's `post` is undeclared, so it is read untyped (as a number).
      if (ctx.params.post) {
        const post = await ctx.once('post', () => deps.posts.byId(Number(ctx.params.post)));
        if (!post) return new RestError('rest_post_invalid_id', 'Invalid post ID.', 400);
        if (!tax.objectTypes.includes(post.type) || !canReadTermsOf(ctx, post)) {
          return termErrors.postForbidden(ctx.user);
        }
      }
      return true;
    },
    async handle(ctx) {
      const p = ctx.input;
      const perPage = p.per_page;
      // `offset` (flat taxonomies) and `parent` (hierarchical ones) are not declared by both, so they are read untyped.
      const { offset: rawOffset, parent } = ctx.params;
      const offset = listSkip(tax.hierarchical ? undefined : rawOffset, p.page, perPage);
      const postId = p.post;
      const post = postId ? await ctx.once('post', () => deps.posts.byId(postId)) : null;
      const { items, total } = await terms.query(tax, {
        include: p.include ?? [],
        exclude: p.exclude ?? [],
        parent: tax.hierarchical && typeof parent === 'number' ? parent : undefined,
        within: post ? (post.tax?.[tax.name] ?? []) : undefined,
        slugs: p.slug?.map(sanitizeTitle),
        search: p.search || undefined,
        hideEmpty: p.hide_empty,
        orderby: p.orderby,
        order: p.order,
        offset,
        limit: perPage,
      });
      const input = await present(ctx, items, contextOf(ctx.input.context));
      const page = Math.ceil(offset / perPage + 1);
      return { body: items.map((t) => presentTerm(t, input)), headers: pagingHeaders(site, base, ctx.req.query, page, perPage, total) };
    },
  });

  app.bind(shared(eps.get), {
    async permission(ctx) {
      await loadTerm(ctx);
      if (ctx.input.context === 'edit' && !termCan(ctx.user, tax, 'edit_terms')) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit this term.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const t = await loadTerm(ctx);
      return { body: presentTerm(t, await present(ctx, [t], contextOf(ctx.input.context))) };
    },
  });

  app.bind(shared(eps.create), {
    async permission(ctx) {
      // Hierarchical terms are created with edit_terms; the others with assign_terms (anyone who tags may add a tag).
      if (!termCan(ctx.user, tax, tax.hierarchical ? 'edit_terms' : 'assign_terms')) {
        return new RestError('rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const reply = async (created: TermDoc) => ({
        status: 201,
        body: presentTerm(created, await present(ctx, [created], 'edit')),
        headers: { Location: restUrl(site, `${base}/${created.id}`) },
      });
      // A retried batch sub-request answers with the term its first run made.
      const key = ctx.req.idempotencyKey;
      const done = key ? await terms.findOne({ batch_key: key }) : null;
      if (done) return reply(done);
      await checkParent(ctx);
      let created: TermDoc;
      try {
        created = await terms.insertTerm(tax, { ...termInput(ctx, tax), name: ctx.input.name }, key);
      } catch (e) {
        const first = key && e instanceof DuplicateKeyError ? await terms.findOne({ batch_key: key }) : null;
        if (!first) throw e;
        created = first;
      }
      return reply(created);
    },
  });

  app.bind(shared(eps.update), {
    async permission(ctx) {
      await loadTerm(ctx);
      if (!termCan(ctx.user, tax, 'edit_terms'))
        return new RestError('rest_cannot_update', 'Sorry, you are not allowed to edit this term.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      const t = await loadTerm(ctx);
      await checkParent(ctx);
      const input = termInput(ctx, tax);
      const saved = Object.keys(input).length ? await terms.updateTerm(tax, t, input) : t;
      return { body: presentTerm(saved, await present(ctx, [saved], 'edit')) };
    },
  });

  app.bind(shared(eps.delete), {
    async permission(ctx) {
      const key = ctx.req.idempotencyKey;
      // A permanent delete that already ran answers as it did, though the term is gone.
      if (key && (await results.answer(key))) return true;
      const t = await loadTerm(ctx);
      // The default category is never deletable (delete_term maps to do_not_allow for it).
      const isDefault = tax.name === 'category' && t.id === deps.defaultCategory();
      if (isDefault || !termCan(ctx.user, tax, 'delete_terms')) {
        return new RestError('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const key = ctx.req.idempotencyKey;
      const done = key ? await results.answer(key) : null;
      if (done) {
        const left = await terms.ofTaxonomy(ctx.input.id, tax.name);
        if (left) await terms.deleteTerm(tax, left, tax.name === 'category' ? deps.defaultCategory() : undefined);
        return { status: Number(done.status), body: done.body };
      }
      const t = await loadTerm(ctx);
      if (!ctx.input.force) throw new RestError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
      const previous = presentTerm(t, await present(ctx, [t], 'view'), false);
      const body = { deleted: true, previous };
      // Recorded before the delete: a retry after a crash in between finishes it and answers the same.
      if (key) {
        await results.record(key, body);
      }
      await terms.deleteTerm(tax, t, tax.name === 'category' ? deps.defaultCategory() : undefined);
      return { body };
    },
  });
}
