/**
 * cms/v2 search (reference: the search controller with its post, term and post-format handlers).
 * Posts are found with the posts list's own planning (statuses, include/exclude, the search words and
 * their relevance order), restricted to published records of the public types the caller may see;
 * a guest's search never matches a password-protected record. Terms come from the terms collection.
 */
import type { Caller } from '#libs/auth/user';
import { Args } from '#libs/rest/args';
import { loadAncestors, permalinkOf } from '#libs/posts/permalink';
import { postTypeObject, taxonomyObject } from '#libs/posts/registered';
import { renderTitle } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import { RestError } from '#libs/rest/errors';
import { listSkip, pageSlice, pagingHeaders, totalPages } from '#libs/rest/paging';
import type { RouteRegistry } from '#libs/rest/registry';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import type { InputOf } from '#libs/rest/params';
import { restUrl } from '#libs/rest/site';
import { POST_SUBTYPES, SEARCH_ENDPOINT, TERM_SUBTYPES } from '#libs/routes/cms/search';
import type { Filter } from '#libs/store/types';
import { loadTermAncestors, termLink } from '#libs/terms/link';
import type { TermDoc } from '#libs/terms/repository';
import type { ContentDeps } from '../deps';
import { excludedBySearch, planList, relevanceRank } from '../posts/query';

const BASE = '/cms/v2/search';

/** The post formats and their names (get_post_format_strings). */
export const FORMAT_STRINGS: Record<string, string> = {
  standard: 'Standard',
  aside: 'Aside',
  chat: 'Chat',
  gallery: 'Gallery',
  link: 'Link',
  image: 'Image',
  quote: 'Quote',
  status: 'Status',
  video: 'Video',
  audio: 'Audio',
};

type SearchInput = InputOf<typeof SEARCH_ENDPOINT>;

interface Found {
  items: Record<string, unknown>[];
  total: number;
}

/** The requested subtypes a handler serves: all of its subtypes for `any`, else those it has. */
function chosen(requested: readonly string[], available: string[]): string[] {
  return requested.includes('any') ? available : available.filter((s) => requested.includes(s));
}

export function bindSearch(app: ServiceApp, deps: ContentDeps, registry?: RouteRegistry): void {
  const { site } = deps;
  // Self links point at item routes this build answers (the terms routes may live in another release).
  const answers = (path: string, user: Caller) => (registry ? registry.match(path, user)?.route.namespace === 'cms/v2' : true);

  async function searchPosts(ctx: HandlerContext<SearchInput>, page: number, perPage: number): Promise<Found> {
    const p = ctx.input;
    const user: Caller = ctx.user;
    const subtypes = POST_SUBTYPES.filter((t) => postTypeObject(t)!.showInRest(user));
    const types = chosen(p.subtype, subtypes);
    if (!types.length) return { items: [], total: 0 };
    const search = p.search ?? '';
    // Only published records, as the reference's post handler asks WP_Query for.
    const args = {
      status: ['publish'],
      include: p.include,
      exclude: p.exclude,
      search,
      orderby: search.trim() ? 'relevance' : 'date',
      order: 'desc',
      context: 'view',
    };
    const plans = await Promise.all(types.map((type) => planList(args, { kind: type, hierarchical: false }, user, deps.terms, site.timezone, new Args(args))));
    const or: Filter[] = plans.map((pl) => pl.filter);
    // Each plan carries the guest search's privacy condition (libs/posts/search, through planList).
    const filter: Filter = or.length === 1 ? or[0] : { $or: or };
    const plan = plans[0];
    const skip = listSkip(undefined, page, perPage);
    let docs: PostDoc[];
    let total: number;
    if (plan.memorySort || plan.memoryFilter) {
      let all = await deps.posts.find(filter, { sort: plan.sort });
      const s = plan.search;
      if (plan.memoryFilter && s) all = all.filter((d) => !excludedBySearch(d, s));
      if (plan.memorySort === 'relevance' && s) all.sort((a, b) => relevanceRank(a, s) - relevanceRank(b, s));
      total = all.length;
      docs = all.slice(skip, skip + perPage);
    } else {
      docs = await deps.posts.find(filter, { sort: plan.sort, skip, limit: perPage });
      total = docs.length < perPage && (docs.length > 0 || skip === 0) ? skip + docs.length : await deps.posts.count(filter);
    }
    const parents = await loadAncestors(
      deps.posts,
      docs.filter((d) => d.type === 'page'),
    );
    const items = docs.map((d) => {
      const t = postTypeObject(d.type)!;
      const links: Record<string, unknown> = {};
      const self = `/${t.restNamespace}/${t.restBase}/${d.id}`;
      if (answers(self, ctx.user)) links.self = [{ embeddable: true, href: restUrl(site, self) }];
      links.about = [{ href: restUrl(site, `/cms/v2/types/${d.type}`) }];
      links.collection = [{ href: restUrl(site, BASE) }];
      return {
        id: d.id,
        title: renderTitle(d.title),
        url: permalinkOf(site, d, parents),
        type: 'post',
        subtype: d.type,
        label: t.singular,
        _links: links,
      };
    });
    return { items, total };
  }

  async function searchTerms(ctx: HandlerContext<SearchInput>, page: number, perPage: number): Promise<Found> {
    const p = ctx.input;
    const taxonomies = chosen(p.subtype, TERM_SUBTYPES);
    if (!taxonomies.length) return { items: [], total: 0 };
    const and: Filter[] = [{ taxonomy: { $in: taxonomies } }];
    const search = p.search ?? '';
    // WP_Term_Query's search: the text inside the name or the slug.
    if (search !== '') and.push({ $or: [{ name: { $icontains: search } }, { slug: { $icontains: search } }] });
    const include = p.include ?? [];
    const exclude = p.exclude ?? [];
    if (include.length) and.push({ id: { $in: include } });
    if (exclude.length) and.push({ id: { $nin: exclude } });
    const filter: Filter = and.length === 1 ? and[0] : { $and: and };
    const [terms, total] = await Promise.all([
      deps.terms.find(filter, {
        sort: [
          ['name', 1],
          ['id', 1],
        ],
        skip: listSkip(undefined, page, perPage),
        limit: perPage,
      }),
      deps.terms.count(filter),
    ]);
    const parents = await loadTermAncestors(
      deps.terms,
      terms.filter((t) => taxonomyObject(t.taxonomy)?.hierarchical),
    );
    const items = terms.map((term: TermDoc) => {
      const tax = taxonomyObject(term.taxonomy)!;
      const links: Record<string, unknown> = {};
      const self = `/${tax.restNamespace}/${tax.restBase}/${term.id}`;
      if (answers(self, ctx.user)) links.self = [{ embeddable: true, href: restUrl(site, self) }];
      links.about = [{ href: restUrl(site, `/cms/v2/taxonomies/${term.taxonomy}`) }];
      links.collection = [{ href: restUrl(site, BASE) }];
      // The reference's term handler reports the taxonomy as the type.
      return { id: term.id, title: term.name, url: termLink(site, term, parents), type: term.taxonomy, label: tax.singular, _links: links };
    });
    return { items, total };
  }

  async function searchFormats(ctx: HandlerContext<SearchInput>, page: number, perPage: number): Promise<Found> {
    const search = ctx.input.search?.toLowerCase() ?? '';
    // A format has an archive once some post was written in it (the reference's post_format term exists).
    const used = new Set((await deps.posts.distinct('format', { type: 'post', format: { $in: Object.keys(FORMAT_STRINGS) } })).map(String));
    const found = Object.entries(FORMAT_STRINGS)
      .filter(([slug, name]) => used.has(slug) && (!search || slug.includes(search) || name.toLowerCase().includes(search)))
      .map(([slug]) => slug);
    const items = pageSlice(found, page, perPage).map((slug) => ({
      id: slug,
      title: FORMAT_STRINGS[slug],
      url: termLink(site, { taxonomy: 'post_format', slug, parent: 0 }),
      type: 'post-format',
      label: FORMAT_STRINGS[slug],
      _links: { collection: [{ href: restUrl(site, BASE) }] },
    }));
    return { items, total: found.length };
  }

  app.bind(SEARCH_ENDPOINT, {
    async handle(ctx) {
      const page = ctx.input.page;
      const perPage = ctx.input.per_page;
      const type = ctx.input.type;
      const run = type === 'post' ? searchPosts : type === 'term' ? searchTerms : type === 'post-format' ? searchFormats : null;
      if (!run) throw new RestError('rest_search_invalid_type', 'Invalid type parameter.', 400);
      const { items, total } = await run(ctx, page, perPage);
      if (total > 0 && page > totalPages(total, perPage)) {
        throw new RestError('rest_search_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
      }
      return { body: items, headers: pagingHeaders(site, BASE, ctx.req.query, page, perPage, total) };
    },
  });
}
