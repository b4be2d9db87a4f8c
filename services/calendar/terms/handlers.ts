/**
 * vendor/events/v1 event categories (`vendor_events_cat`) and tags (`post_tag`): archive, create, get,
 * update, delete (permanent, answering with the term as it was). Reference: Term_Archive_Base,
 * Term_Single_Base over the terms controller.
 */
import { can, canReadRecord } from '#libs/auth/user';
import { CATEGORY_TAXONOMY, EVENT_TYPE, TAG_TAXONOMY } from '#libs/calendar/meta';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostDoc } from '#libs/posts/types';
import { invalidParams, type ParamError } from '#libs/rest/errors';
import { listSkip, totalPages } from '#libs/rest/paging';
import { shared, type InputOf, type Shared } from '#libs/rest/params';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { restUrl } from '#libs/rest/site';
import { VENDOR_TERM_ENDPOINTS } from '#libs/routes/vendor-events/index';
import { termErrors } from '#libs/terms/errors';
import type { TermDoc, TermInput } from '#libs/terms/repository';
import { taxonomy, termCan } from '#libs/terms/taxonomies';
import type { CalendarDeps } from '../deps';
import { INVALID, paramFailure } from '../errors';
import { archiveHeaders, through } from '../http';
import { V1 } from '../links';
import { presentTerm } from './present';

interface TermRoute {
  plural: 'categories' | 'tags';
  taxonomy: string;
  hierarchical: boolean;
}

const ROUTES: TermRoute[] = [
  { plural: 'categories', taxonomy: CATEGORY_TAXONOMY, hierarchical: true },
  { plural: 'tags', taxonomy: TAG_TAXONOMY, hierarchical: false },
];

const CATEGORIES = VENDOR_TERM_ENDPOINTS.categories;

/**
 * The `parent` a request to a categories endpoint carried (tags have none; an undeclared one is ignored);
 * undefined when it carried none. A JSON null names no term (0), as it always has.
 */
function parentOf(ctx: HandlerContext): number | undefined {
  if (!through(ctx, CATEGORIES.list, CATEGORIES.create, CATEGORIES.update) || !ctx.has('parent')) return undefined;
  return ctx.input.parent ?? 0;
}

export function bindTerms(app: ServiceApp, deps: CalendarDeps): void {
  const { site } = deps;
  for (const r of ROUTES) {
    const eps = VENDOR_TERM_ENDPOINTS[r.plural];
    const collection = restUrl(site, `${V1}/${r.plural}/`);
    const tax = taxonomy(r.taxonomy);
    // Editing events and managing the taxonomy's terms (manage_terms of its capability map).
    const manage = (ctx: HandlerContext) => can(ctx.user, 'edit_vendor_events') && termCan(ctx.user, tax, 'manage_terms');

    /** Ancestors of a page of terms, for hierarchical archive links (none for tags). */
    const ancestors = async (terms: TermDoc[]) => (r.hierarchical ? deps.terms.ancestors(terms) : undefined);
    // The id capture; a JSON null in the body replaces it (the body's arguments win over the URL's) and names no term.
    const term = (ctx: HandlerContext<InputOf<Shared<typeof eps.get>>>) => ctx.once('term', () => deps.terms.ofTaxonomy(ctx.input.id ?? 0, r.taxonomy));
    /** The id must name a term of this taxonomy: a 400 before any permission check. */
    const mustExist = async (ctx: HandlerContext<InputOf<Shared<typeof eps.get>>>): Promise<TermDoc> => {
      const t = await term(ctx);
      if (!t) throw invalidParams([['id', INVALID]]);
      return t;
    };
    const parentMustExist = async (ctx: HandlerContext) => {
      const parent = parentOf(ctx);
      if (parent !== undefined && !(await deps.terms.ofTaxonomy(parent, r.taxonomy))) throw invalidParams([['parent', INVALID]]);
    };

    app.bind(shared(eps.list), {
      async handle(ctx) {
        // A list is a GET: its arguments come from the query string, so one without a default has a value
        // exactly when the request carried it.
        const q = ctx.input;
        const failures: Array<[string, ParamError | string]> = [];
        const include = q.include ?? [];
        const exclude = q.exclude ?? [];
        const parent = parentOf(ctx);
        const known = await deps.terms.byIds([...include, ...exclude]);
        if (include.some((id) => known.get(id)?.taxonomy !== r.taxonomy)) failures.push(['include', INVALID]);
        if (exclude.some((id) => known.get(id)?.taxonomy !== r.taxonomy)) failures.push(['exclude', INVALID]);
        if (parent !== undefined && !(await deps.terms.ofTaxonomy(parent, r.taxonomy))) failures.push(['parent', INVALID]);
        // `event` is an alias of `post` and wins when both are given.
        const post = q.event != null ? { arg: 'event', id: q.event } : q.post != null ? { arg: 'post', id: q.post } : null;
        let postTerms: number[] | undefined;
        let postEvent: PostDoc | null = null;
        if (post) {
          const event = await deps.posts.byId(post.id);
          if (event?.type !== EVENT_TYPE) failures.push([post.arg, INVALID]);
          else {
            postEvent = event;
            postTerms = event.tax?.[r.taxonomy] ?? [];
          }
        }
        const failure = paramFailure(failures);
        if (failure) throw failure;
        // The terms of an event the caller may not read (a draft, say) are not shown, as cms/v2 refuses them.
        if (postEvent && !canReadRecord(ctx.user, 'vendor_event', postEvent)) throw termErrors.postForbidden(ctx.user);

        const { page, per_page: perPage } = q;
        const { items: found, total } = await deps.terms.query(tax, {
          include,
          exclude,
          parent,
          within: postTerms,
          slugs: q.slug != null ? [sanitizeTitle(q.slug)] : undefined,
          search: q.search ?? undefined,
          hideEmpty: q.hide_empty,
          orderby: q.orderby,
          order: q.order,
          offset: listSkip(undefined, page, perPage),
          limit: perPage,
        });
        const pages = totalPages(total, perPage);
        const anc = await ancestors(found);
        const items = found.map((t) => presentTerm(site, t, r.hierarchical, anc));
        const body: Record<string, unknown> = { rest_url: collection, total, total_pages: pages, [r.plural]: items };
        // Paging links carry only `page`.
        if (page < pages) body.next_rest_url = `${collection}?page=${page + 1}`;
        if (page > 1 && page - 1 <= pages) body.previous_rest_url = page === 2 ? collection : `${collection}?page=${page - 1}`;
        return { body, headers: archiveHeaders(total, perPage) };
      },
    });

    // A write's body may carry a JSON null: text then reads as 'null' (String) and a parent as none, as they always have.
    app.bind(shared(eps.create), {
      async validate(ctx) {
        await parentMustExist(ctx);
        return true;
      },
      permission: async (ctx) => manage(ctx),
      async handle(ctx) {
        const q = ctx.input;
        const created = await deps.terms.insertTerm(tax, {
          name: q.name,
          slug: ctx.has('slug') ? String(q.slug) : undefined,
          description: ctx.has('description') ? String(q.description) : '',
          parent: parentOf(ctx) ?? 0,
        });
        // The reference creates through the core terms controller, whose Location is the core route.
        return {
          status: 201,
          body: presentTerm(site, created, r.hierarchical, await ancestors([created])),
          headers: { Location: restUrl(site, `/cms/v2/${tax.base}/${created.id}`) },
        };
      },
    });

    app.bind(shared(eps.get), {
      async handle(ctx) {
        const t = await mustExist(ctx);
        return { body: presentTerm(site, t, r.hierarchical, await ancestors([t])) };
      },
    });

    app.bind(shared(eps.update), {
      async validate(ctx) {
        const t = await mustExist(ctx);
        await parentMustExist(ctx);
        if (parentOf(ctx) === t.id) throw invalidParams([['parent', INVALID]]);
        return true;
      },
      permission: async (ctx) => manage(ctx),
      async handle(ctx) {
        const t = await mustExist(ctx);
        const q = ctx.input;
        const input: TermInput = {};
        const parent = parentOf(ctx);
        if (ctx.has('name')) input.name = String(q.name);
        if (ctx.has('description')) input.description = String(q.description);
        if (ctx.has('slug')) input.slug = String(q.slug);
        if (parent !== undefined) input.parent = parent;
        const saved = Object.keys(input).length ? await deps.terms.updateTerm(tax, t, input) : t;
        return { body: presentTerm(site, saved, r.hierarchical, await ancestors([saved])) };
      },
    });

    app.bind(shared(eps.delete), {
      async validate(ctx) {
        await mustExist(ctx);
        return true;
      },
      permission: async (ctx) => manage(ctx),
      async handle(ctx) {
        const t = await mustExist(ctx);
        const previous = presentTerm(site, t, r.hierarchical, await ancestors([t]));
        await deps.terms.deleteTerm(tax, t);
        return { body: previous };
      },
    });
  }
}
