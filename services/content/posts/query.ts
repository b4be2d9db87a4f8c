/**
 * The post and page list as a store query (the reference's WP_Query arguments of get_items): every
 * list parameter becomes a condition on an indexed field, and what the caller may not read is left out
 * by the query itself, so totals and pages agree with what is shown.
 */
import type { QueryCache } from '#libs/store/query-cache';
import { can, type Caller } from '#libs/auth/user';
import { filterDate } from '#libs/dates/post-dates';
import { searchPrivacy } from '#libs/posts/search';
import type { PostDoc } from '#libs/posts/types';
import { isRecord, type Args } from '#libs/rest/args';
import type { KindTaxonomy } from '#libs/routes/cms/post-args';
import { RestError } from '#libs/rest/errors';
import { totalPages } from '#libs/rest/paging';
import type { Filter, ReadableCollection, SortSpec } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import { ANY_STATUSES, capType } from './access';
import { listSkip } from '#libs/rest/paging';

const STOPWORDS = new Set('about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(' '));

export interface SearchSpec {
  text: string;
  terms: string[];
  /** Terms counted as the reference counts them (quoted phrases are one). */
  termCount: number;
  columns: Array<'title' | 'excerpt' | 'content'>;
  exact: boolean;
}

const SEARCH_COLUMNS = ['title', 'excerpt', 'content'] as const;
const isSearchColumn = (c: string): c is SearchSpec['columns'][number] => SEARCH_COLUMNS.some((s) => s === c);

/** The reference's parse_search: words, "quoted phrases", -exclusions; stopwords and single letters dropped. */
export function parseSearch(raw: string, columns: string[], exact: boolean): SearchSpec {
  const text = raw.replace(/[\r\n]/g, '');
  const cols = (columns.length ? columns : ['post_title', 'post_excerpt', 'post_content']).map((c) => c.replace('post_', '')).filter(isSearchColumn);
  if (exact) return { text, terms: [text], termCount: 1, columns: cols, exact };
  const matches = text.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  let terms = matches
    .map((m) => (/^".+"$/.test(m) ? m.replace(/^[\s"']+|[\s"']+$/g, '') : m.trim()))
    .filter((t) => t && !(t.length === 1 && /^[a-z-]$/i.test(t)) && !STOPWORDS.has(t.toLowerCase()));
  if (!terms.length || terms.length > 9) terms = [text];
  return { text, terms, termCount: matches.length || 1, columns: cols, exact };
}

/** The store condition of a search; `-word` exclusions are not expressible there (see `excludedBySearch`). */
export function searchFilter(s: SearchSpec): Filter | null {
  if (s.exact) return { $or: s.columns.map((c) => ({ [c]: s.text })) };
  const and: Filter[] = s.terms.filter((t) => !isExclusion(t)).map((term) => ({ $or: s.columns.map((c) => ({ [c]: { $icontains: term } })) }));
  if (!and.length) return null;
  return and.length === 1 ? and[0] : { $and: and };
}

const isExclusion = (term: string) => term.startsWith('-') && term.length > 1;

export function hasExclusions(s: SearchSpec | undefined): boolean {
  return !!s && !s.exact && s.terms.some(isExclusion);
}

/** Whether a record contains one of the search's `-word` terms in a searched column. */
export function excludedBySearch(post: Pick<PostDoc, 'title' | 'excerpt' | 'content'>, s: SearchSpec): boolean {
  return s.terms.filter(isExclusion).some((t) =>
    s.columns.some((c) =>
      String(post[c] ?? '')
        .toLowerCase()
        .includes(t.slice(1).toLowerCase()),
    ),
  );
}

/** The reference's relevance order: title has the phrase, all words, any word; then excerpt, then content. */
export function relevanceRank(post: Pick<PostDoc, 'title' | 'excerpt' | 'content'>, s: SearchSpec): number {
  const low = (v: string) => (v ?? '').toLowerCase();
  const title = low(post.title);
  const words = s.terms.filter((t) => !t.startsWith('-')).map(low);
  if (s.termCount > 1) {
    const phrase = /(?:\s|^)-/.test(s.text) ? '' : low(s.text);
    if (phrase && title.includes(phrase)) return 1;
    if (words.length < 7 && words.length && words.every((w) => title.includes(w))) return 2;
    if (words.length > 1 && words.length < 7 && words.some((w) => title.includes(w))) return 3;
    if (phrase && low(post.excerpt).includes(phrase)) return 4;
    if (phrase && low(post.content).includes(phrase)) return 5;
    return 6;
  }
  return words.length && title.includes(words[0]) ? 0 : 1;
}

/** The record type a list is planned for: posts, pages and events (a KindInfo), attachments, or a searched type. */
export interface ListKind {
  /** The stored `type`. */
  kind: string;
  hierarchical: boolean;
  /** The taxonomies whose term filters the list takes (`<base>`, `<base>_exclude`): none when absent. */
  taxonomies?: ReadonlyArray<Pick<KindTaxonomy, 'name' | 'base'>>;
  /** The list takes `sticky` and `ignore_sticky` (core posts). */
  sticky?: boolean;
  /** The list takes `format` (the type supports post formats). */
  supports?: readonly string[];
}

/**
 * The list arguments the planner reads, typed as the posts list declares them (libs/routes/cms/post-args.ts).
 * Pages and attachments declare fewer of them and the search handler passes a few, so each is optional
 * here; the arguments only a non-hierarchical type has (terms, sticky, format) are read for such a type only.
 */
export interface ListParams {
  readonly context?: string | null;
  readonly status?: string[] | null;
  readonly include?: number[] | null;
  readonly exclude?: number[] | null;
  readonly author?: number[] | null;
  readonly author_exclude?: number[] | null;
  readonly slug?: string[] | null;
  readonly parent?: number[] | null;
  readonly parent_exclude?: number[] | null;
  readonly menu_order?: number | null;
  readonly after?: string | null;
  readonly before?: string | null;
  readonly modified_after?: string | null;
  readonly modified_before?: string | null;
  readonly search?: string | null;
  readonly search_columns?: string[] | null;
  readonly search_semantics?: string | null;
  /** A list of term ids or an object naming them (the declaration's oneOf). */
  readonly categories?: unknown;
  readonly categories_exclude?: unknown;
  readonly tags?: unknown;
  readonly tags_exclude?: unknown;
  readonly tax_relation?: string | null;
  readonly sticky?: boolean | null;
  readonly format?: string[] | null;
  readonly order?: string | null;
  readonly orderby?: string | null;
  readonly ignore_sticky?: boolean | null;
}

/** What paging a planned list reads besides the plan's own arguments. */
export interface PageParams extends ListParams {
  readonly page: number;
  readonly per_page: number;
  readonly offset?: number | null;
}

export interface ListPlan {
  filter: Filter;
  sort: SortSpec;
  /** Orders that the store cannot express: done on the whole match in memory. */
  memorySort?: 'include' | 'include_slugs' | 'relevance';
  /** Search exclusions (`-word`), applied to the whole match in memory (the store has no NOT LIKE). */
  memoryFilter?: boolean;
  search?: SearchSpec;
}

type TermLimit = number[] | { terms?: number[]; include_children?: boolean; operator?: 'AND' | 'OR' } | undefined;

const integers = (v: unknown[]): number[] => v.filter((n): n is number => typeof n === 'number' && Number.isInteger(n));

/** A taxonomy limit argument (`categories`, `tags`...): a list of term IDs, or an object naming them. */
function termLimit(v: unknown): TermLimit {
  if (Array.isArray(v)) return integers(v);
  if (!isRecord(v)) return undefined;
  return {
    ...(Array.isArray(v.terms) ? { terms: integers(v.terms) } : {}),
    ...(typeof v.include_children === 'boolean' ? { include_children: v.include_children } : {}),
    ...(v.operator === 'AND' || v.operator === 'OR' ? { operator: v.operator } : {}),
  };
}

async function descendants(terms: TermsRepository, taxonomy: string, ids: number[]): Promise<Map<number, number[]>> {
  // One query per level of the taxonomy's tree, for all requested terms at once.
  const children = new Map<number, number[]>();
  let frontier = [...new Set(ids)];
  const seen = new Set(frontier);
  while (frontier.length) {
    const rows = await terms.find({ taxonomy, parent: { $in: frontier } }, { fields: ['parent'] });
    frontier = [];
    for (const r of rows) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      frontier.push(r.id);
      const list = children.get(r.parent) ?? [];
      list.push(r.id);
      children.set(r.parent, list);
    }
  }
  const expand = (id: number): number[] => [id, ...(children.get(id) ?? []).flatMap(expand)];
  return new Map(ids.map((id) => [id, expand(id)]));
}

async function taxClause(terms: TermsRepository, taxonomy: string, limit: TermLimit, exclude: boolean): Promise<Filter | null> {
  if (limit === undefined) return null;
  const spec = Array.isArray(limit) ? { terms: limit } : limit;
  const ids = spec.terms ?? [];
  if (!ids.length) return null;
  const tree = spec.include_children ? await descendants(terms, taxonomy, ids) : new Map(ids.map((id) => [id, [id]]));
  const all = [...new Set([...tree.values()].flat())];
  if (exclude) return { terms: { $nin: all } };
  if (spec.operator === 'AND') return { $and: ids.map((id) => ({ terms: { $in: tree.get(id)! } })) };
  return { terms: { $in: all } };
}

/**
 * Which of the requested statuses the caller may see, and of which only their own records: the
 * reference drops unreadable records from the page; leaving them out of the query keeps the counts true.
 */
function statusFilter(statuses: string[], kind: ListKind, user: Caller, edit: boolean): Filter {
  const t = capType(kind.kind);
  const all: string[] = [];
  const own: string[] = [];
  for (const s of statuses) {
    if (s === 'publish') {
      if (!edit || (can(user, `edit_others_${t}s`) && can(user, `edit_published_${t}s`))) all.push(s);
      else if (can(user, `edit_published_${t}s`)) own.push(s);
      continue;
    }
    if (s === 'private' && !edit) {
      if (can(user, `read_private_${t}s`)) all.push(s);
      else if (user) own.push(s);
      continue;
    }
    const others =
      can(user, `edit_others_${t}s`) && (s === 'future' ? can(user, `edit_published_${t}s`) : s === 'private' ? can(user, `edit_private_${t}s`) : true);
    if (others) all.push(s);
    else if (user && (edit ? can(user, `edit_${t}s`) : can(user, 'read'))) own.push(s);
  }
  // Each branch names the type too, so the store can serve each one from its own index.
  const or: Filter[] = [];
  if (all.length) or.push({ type: kind.kind, status: { $in: all } });
  if (own.length && user) or.push({ type: kind.kind, author: user.id, status: { $in: own } });
  if (!or.length) return { type: kind.kind, status: { $in: [] } };
  return or.length === 1 ? or[0] : { $or: or };
}

const SORT_FIELD: Record<string, string> = {
  author: 'author',
  date: 'date',
  id: 'id',
  modified: 'modified_gmt',
  parent: 'parent',
  slug: 'slug',
  title: 'title',
  menu_order: 'menu_order',
};

/**
 * `statusClause`, when given, replaces the posts' and pages' status rule (attachments have their own:
 * `inherit` is public); it must name the type itself. `args` reads the term filters of the kind's
 * taxonomies, named by their rest bases (`categories`, `tags`, `vendor_events_cat`...).
 */
export async function planList(
  p: ListParams,
  kind: ListKind,
  user: Caller,
  terms: TermsRepository,
  zone: string,
  args: Args,
  statusClause?: Filter,
): Promise<ListPlan> {
  let statuses = [...new Set(p.status ?? [])];
  if (statuses.includes('any')) statuses = [...new Set([...ANY_STATUSES, ...statuses.filter((s) => s !== 'any')])];
  // The type is part of the status condition (each of its branches), which keeps it index-served.
  const and: Filter[] = [statusClause ?? statusFilter(statuses, kind, user, p.context === 'edit')];

  const include = p.include ?? [];
  const exclude = p.exclude ?? [];
  if (include.length) and.push({ id: { $in: include } });
  if (exclude.length) and.push({ id: { $nin: exclude } });
  if (p.author?.length) and.push({ author: { $in: p.author } });
  if (p.author_exclude?.length) and.push({ author: { $nin: p.author_exclude } });
  const slugs = p.slug ?? [];
  if (slugs.length) and.push({ slug: { $in: slugs } });
  if (kind.hierarchical) {
    if (p.parent?.length) and.push({ parent: { $in: p.parent } });
    if (p.parent_exclude?.length) and.push({ parent: { $nin: p.parent_exclude } });
    if (p.menu_order != null) and.push({ menu_order: p.menu_order });
  }
  for (const [arg, op] of [
    ['after', '$gt'],
    ['before', '$lt'],
  ] as const) {
    const s = p[arg];
    const v = s != null ? filterDate(s, zone) : null;
    if (v) and.push({ date: { [op]: v } });
  }
  for (const [arg, op] of [
    ['modified_after', '$gt'],
    ['modified_before', '$lt'],
  ] as const) {
    const s = p[arg];
    const v = s != null ? filterDate(s, 'UTC') : null;
    if (v) and.push({ modified_gmt: { [op]: new Date(v.replace(' ', 'T') + 'Z') } });
  }

  let search: SearchSpec | undefined;
  if (p.search != null && p.search.trim() !== '') {
    search = parseSearch(p.search, p.search_columns ?? [], p.search_semantics === 'exact');
    const f = searchFilter(search);
    if (f) and.push(f);
    const privacy = searchPrivacy(user);
    if (privacy) and.push(privacy);
  }

  const clauses: Filter[] = [];
  for (const tax of kind.taxonomies ?? []) {
    for (const [arg, ex] of [
      [tax.base, false],
      [`${tax.base}_exclude`, true],
    ] as const) {
      const c = await taxClause(terms, tax.name, termLimit(args.raw[arg]), ex);
      if (c) clauses.push(c);
    }
  }
  if (clauses.length === 1) and.push(clauses[0]);
  else if (clauses.length > 1) and.push(p.tax_relation === 'OR' ? { $or: clauses } : { $and: clauses });
  if (kind.sticky) {
    if (p.sticky === true) and.push({ sticky: true });
    else if (p.sticky === false) and.push({ sticky: { $ne: true } });
  }
  const formats = kind.supports?.includes('post-formats') ? (p.format ?? []) : [];
  if (formats.length) and.push({ format: { $in: formats.map((f) => (f === 'standard' ? '' : f)) } });

  const dir = p.order === 'asc' ? 1 : -1;
  const orderby = String(p.orderby ?? 'date');
  const sort: SortSpec = [[SORT_FIELD[orderby] ?? 'date', dir]];
  if (kind.sticky && p.ignore_sticky === false) sort.unshift(['sticky', -1]);
  const plan: ListPlan = { filter: and.length === 1 ? and[0] : { $and: and }, sort, search };
  if (orderby === 'include' || orderby === 'include_slugs' || orderby === 'relevance') plan.memorySort = orderby;
  if (hasExclusions(search)) plan.memoryFilter = true;
  return plan;
}

/** The reference's checks of an ordering that needs another argument (before the list is planned). */
export function checkListOrder(p: ListParams): void {
  if (p.orderby === 'relevance' && !p.search) {
    throw new RestError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  }
  if (p.orderby === 'include' && !p.include?.length) {
    throw new RestError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  }
}

/**
 * One page of a planned list, as the posts controller pages: the window from `offset` (read with
 * absint) or `page`, orderings the store cannot do made in memory, the total counted only when the
 * page does not tell it, and the reference's error for a page past the end.
 */
export async function pageOfPlan(
  posts: ReadableCollection<PostDoc>,
  p: PageParams,
  plan: ListPlan,
  count: (filter: Filter) => Promise<number>,
  filter: Filter = plan.filter,
  pages?: QueryCache,
): Promise<{ items: PostDoc[]; total: number; page: number; perPage: number }> {
  const perPage = p.per_page;
  const page = p.page;
  // WP_Query pages by `offset` unless it is empty (0 included); the stores clamp absurd windows.
  const skip = listSkip(p.offset, page, perPage);
  let items: PostDoc[];
  let total: number;
  if (plan.memorySort || plan.memoryFilter) {
    let all = await posts.find(filter, { sort: plan.sort });
    const search = plan.search;
    if (plan.memoryFilter && search) all = all.filter((d) => !excludedBySearch(d, search));
    if (plan.memorySort === 'include') {
      const include = p.include ?? [];
      all.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
    }
    if (plan.memorySort === 'include_slugs') {
      const slugs = p.slug ?? [];
      all.sort((a, b) => slugs.indexOf(a.slug) - slugs.indexOf(b.slug));
    }
    if (plan.memorySort === 'relevance' && search) all.sort((a, b) => relevanceRank(a, search) - relevanceRank(b, search));
    total = all.length;
    items = all.slice(skip, skip + perPage);
  } else {
    const window = { sort: plan.sort, skip, limit: perPage };
    items = pages ? await pages.find(posts, filter, window) : await posts.find(filter, window);
    // A short, non-empty page (or an empty first one) tells the total without counting.
    total = items.length < perPage && (items.length > 0 || skip === 0) ? skip + items.length : await count(filter);
  }
  if (total > 0 && page > totalPages(total, perPage)) {
    throw new RestError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  return { items, total, page, perPage };
}
