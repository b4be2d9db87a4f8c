/**
 * vendor/events/v1 event categories (`vendor_events_cat`) and tags (`post_tag`): archive, create, get,
 * update, delete (permanent, answering with the term as it was). Reference: Term_Archive_Base,
 * Term_Single_Base over the terms controller.
 */
import { can } from '../../../libs/auth/user';
import { CATEGORY_TAXONOMY, EVENT_TYPE, TAG_TAXONOMY } from '../../../libs/calendar/meta';
import { sanitizeTitle } from '../../../libs/posts/slug';
import { invalidParams, type ParamError } from '../../../libs/rest/errors';
import { totalPages } from '../../../libs/rest/paging';
import type { HandlerContext, ServiceApp } from '../../../libs/rest/service';
import { restUrl } from '../../../libs/rest/site';
import type { Filter } from '../../../libs/store/types';
import type { TermDoc } from '../../../libs/terms/repository';
import type { CalendarDeps } from '../deps';
import { INVALID, calendarErrors, paramFailure } from '../errors';
import { archiveHeaders, guarded } from '../http';
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

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Sorts terms as the terms controller's orderby does (names without regard to case: A, b, C). */
export function sortTerms(terms: TermDoc[], orderby: string, order: 'asc' | 'desc', include: number[]): TermDoc[] {
  const by: Record<string, (a: TermDoc, b: TermDoc) => number> = {
    id: (a, b) => a.id - b.id,
    name: (a, b) => collator.compare(a.name, b.name) || a.id - b.id,
    slug: (a, b) => collator.compare(a.slug, b.slug) || a.id - b.id,
    include_slugs: (a, b) => collator.compare(a.slug, b.slug) || a.id - b.id,
    description: (a, b) => collator.compare(a.description, b.description) || a.id - b.id,
    count: (a, b) => a.count - b.count || a.id - b.id,
    term_group: (a, b) => a.id - b.id,
    include: (a, b) => include.indexOf(a.id) - include.indexOf(b.id),
  };
  const cmp = by[orderby] ?? by.name;
  const sorted = [...terms].sort(cmp);
  return order === 'desc' && orderby !== 'include' ? sorted.reverse() : sorted;
}

export function bindTerms(app: ServiceApp, deps: CalendarDeps): void {
  const { site } = deps;
  const manage = (ctx: HandlerContext) => can(ctx.user, 'edit_vendor_events') && can(ctx.user, 'manage_categories');

  for (const r of ROUTES) {
    const p = `vendor.${r.plural}`;
    const collection = restUrl(site, `${V1}/${r.plural}/`);

    const term = (ctx: HandlerContext) => ctx.cached('term', () => deps.terms.ofTaxonomy(Number(ctx.params.id), r.taxonomy));
    /** The id must name a term of this taxonomy: a 400 before any permission check. */
    const mustExist = async (ctx: HandlerContext): Promise<TermDoc> => {
      const t = await term(ctx);
      if (!t) throw invalidParams([['id', INVALID]]);
      return t;
    };
    const parentMustExist = async (ctx: HandlerContext) => {
      if (r.hierarchical && ctx.has('parent') && !(await deps.terms.ofTaxonomy(Number(ctx.params.parent), r.taxonomy))) throw invalidParams([['parent', INVALID]]);
    };

    app.bind(`${p}.list`, {
      async handle(ctx) {
        const q = ctx.params;
        const failures: Array<[string, ParamError | string]> = [];
        const filter: Filter = { taxonomy: r.taxonomy };
        const and: Filter[] = [];
        const include = ctx.has('include') ? (q.include as number[]) : [];
        const exclude = ctx.has('exclude') ? (q.exclude as number[]) : [];
        const known = await deps.terms.byIds([...include, ...exclude]);
        if (include.some((id) => known.get(id)?.taxonomy !== r.taxonomy)) failures.push(['include', INVALID]);
        if (exclude.some((id) => known.get(id)?.taxonomy !== r.taxonomy)) failures.push(['exclude', INVALID]);
        if (r.hierarchical && ctx.has('parent') && !(await deps.terms.ofTaxonomy(Number(q.parent), r.taxonomy))) failures.push(['parent', INVALID]);
        // `event` is an alias of `post` and wins when both are given.
        const postArg = ctx.has('event') ? 'event' : ctx.has('post') ? 'post' : null;
        let postTerms: number[] | null = null;
        if (postArg) {
          const event = await deps.posts.byId(Number(q[postArg]));
          if (event?.type !== EVENT_TYPE) failures.push([postArg, INVALID]);
          else postTerms = event.tax?.[r.taxonomy] ?? [];
        }
        const failure = paramFailure(failures);
        if (failure) throw failure;

        if (include.length) and.push({ id: { $in: include } });
        if (exclude.length) and.push({ id: { $nin: exclude } });
        if (r.hierarchical && ctx.has('parent')) and.push({ parent: Number(q.parent) });
        if (postTerms) and.push({ id: { $in: postTerms } });
        if (ctx.has('slug')) and.push({ slug: String(q.slug) });
        if (ctx.has('search')) and.push({ $or: [{ name: { $icontains: String(q.search) } }, { slug: { $icontains: String(q.search) } }] });
        if (q.hide_empty !== false) and.push({ count: { $gt: 0 } });
        const all = await deps.terms.collection.find(and.length ? { ...filter, $and: and } : filter);
        const sorted = sortTerms(all, String(q.orderby), q.order === 'desc' ? 'desc' : 'asc', include);
        const page = Number(q.page);
        const perPage = Number(q.per_page);
        const total = sorted.length;
        const pages = totalPages(total, perPage);
        const items = sorted.slice((page - 1) * perPage, page * perPage).map((t) => presentTerm(site, t, r.hierarchical));
        const body: Record<string, unknown> = { rest_url: collection, total, total_pages: pages, [r.plural]: items };
        // Paging links carry only `page`.
        if (page < pages) body.next_rest_url = `${collection}?page=${page + 1}`;
        if (page > 1 && page - 1 <= pages) body.previous_rest_url = page === 2 ? collection : `${collection}?page=${page - 1}`;
        return { body, headers: archiveHeaders(total, perPage) };
      },
    });

    app.bind(
      `${p}.create`,
      guarded(`${p}.create`, {
        check: parentMustExist,
        allow: async (ctx) => manage(ctx),
        async handle(ctx) {
          const q = ctx.params;
          const name = String(q.name).trim();
          const parent = r.hierarchical && ctx.has('parent') ? Number(q.parent) : 0;
          const same = (await deps.terms.collection.find({ taxonomy: r.taxonomy, name: { $icontains: name } })).find((t) => t.name.toLowerCase() === name.toLowerCase() && (!r.hierarchical || t.parent === parent));
          if (same) throw calendarErrors.termExists(same.id);
          let slug: string | undefined;
          if (ctx.has('slug')) {
            slug = sanitizeTitle(String(q.slug));
            if (slug && (await deps.terms.bySlugs(r.taxonomy, [slug])).length) throw calendarErrors.duplicateTermSlug(slug);
          }
          const created = await deps.terms.create({ taxonomy: r.taxonomy, name, slug, description: ctx.has('description') ? String(q.description) : '', parent });
          return { status: 201, body: presentTerm(site, created, r.hierarchical) };
        },
      }),
    );

    app.bind(`${p}.get`, {
      async handle(ctx) {
        return { body: presentTerm(site, await mustExist(ctx), r.hierarchical) };
      },
    });

    app.bind(
      `${p}.update`,
      guarded(`${p}.update`, {
        check: async (ctx) => {
          const t = await mustExist(ctx);
          await parentMustExist(ctx);
          if (r.hierarchical && ctx.has('parent') && Number(ctx.params.parent) === t.id) throw invalidParams([['parent', INVALID]]);
        },
        allow: async (ctx) => manage(ctx),
        async handle(ctx) {
          const t = await mustExist(ctx);
          const q = ctx.params;
          const set: Partial<TermDoc> = {};
          if (ctx.has('name')) set.name = String(q.name).trim();
          if (ctx.has('description')) set.description = String(q.description);
          if (r.hierarchical && ctx.has('parent')) set.parent = Number(q.parent);
          const name = set.name ?? t.name;
          const parent = set.parent ?? t.parent;
          if (set.name !== undefined || set.parent !== undefined) {
            const same = (await deps.terms.collection.find({ taxonomy: r.taxonomy, name: { $icontains: name } })).find(
              (o) => o.id !== t.id && o.name.toLowerCase() === name.toLowerCase() && (!r.hierarchical || o.parent === parent),
            );
            if (same) throw calendarErrors.termExists(same.id);
          }
          if (ctx.has('slug')) {
            const slug = sanitizeTitle(String(q.slug));
            if ((await deps.terms.bySlugs(r.taxonomy, [slug])).some((o) => o.id !== t.id)) throw calendarErrors.duplicateTermSlug(slug);
            set.slug = slug || t.slug;
          }
          const saved = Object.keys(set).length ? await deps.terms.update(t.id, { $set: set }) : t;
          return { body: presentTerm(site, saved ?? t, r.hierarchical) };
        },
      }),
    );

    app.bind(
      `${p}.delete`,
      guarded(`${p}.delete`, {
        check: async (ctx) => void (await mustExist(ctx)),
        allow: async (ctx) => manage(ctx),
        async handle(ctx) {
          const t = await mustExist(ctx);
          const previous = presentTerm(site, t, r.hierarchical);
          // Records lose the term, children move up to its parent, then the term goes.
          await deps.posts.collection.updateMany({ terms: t.id }, { $pull: { terms: t.id, [`tax.${r.taxonomy}`]: t.id } });
          if (r.hierarchical) await deps.terms.collection.updateMany({ taxonomy: r.taxonomy, parent: t.id }, { $set: { parent: t.parent } });
          await deps.terms.remove(t.id);
          return { body: previous };
        },
      }),
    );
  }
}
