/**
 * Creating and updating a post or page as the reference does (prepare_item_for_database, then
 * wp_insert_post / wp_update_post): statuses and the publish/future switch, floating draft dates and
 * their reset, unique slugs, authors, passwords and sticky, parents, terms, meta. Every check runs before
 * anything is written, and the record is written in one step.
 */
import type { Caller } from '#libs/auth/user';
import { writtenMeta } from '#libs/calendar/meta';
import { mysqlLocal } from '#libs/dates/format';
import { fromLocal, now, parseDateInput, type PostDate } from '#libs/dates/post-dates';
import type { PostsRepository } from '#libs/posts/repository';
import { textFilterFor } from '#libs/posts/save-filter';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostDoc } from '#libs/posts/types';
import { Args, isRecord } from '#libs/rest/args';
import { ParamError, RestError, authStatus, invalidParams } from '#libs/rest/errors';
import type { Site } from '#libs/rest/site';
import type { KindInfo } from '#libs/routes/cms/post-args';
import type { TermsRepository } from '#libs/terms/repository';
import type { UsersRepository } from '#libs/auth/users';
import { FLOATING_STATUSES, typeCan } from './access';
import { guidFor } from '#libs/posts/record';
import { ownKeys } from '../own-keys';
import { requestedTerms } from './write-terms';

export { canAssignTerms } from './write-terms';

export interface WriteDeps {
  site: Site;
  posts: PostsRepository;
  terms: TermsRepository;
  users: UsersRepository;
  defaultCategory: () => number;
  /** The site's default comment and ping status for new posts (pages are always closed). */
  defaultDiscussion?: () => { comment_status: 'open' | 'closed'; ping_status: 'open' | 'closed' };
}

/** What the request asks to change, checked (the reference's prepared post). */
export interface Prepared {
  title?: string;
  content?: string;
  excerpt?: string;
  status?: string;
  date?: PostDate;
  /** The date was set explicitly (a floating draft keeps floating otherwise). */
  editDate: boolean;
  /** `date: null` or `date_gmt: null`: back to a floating date. */
  resetDate: boolean;
  slug?: string;
  author?: number;
  password?: string;
  parent?: number;
  menu_order?: number;
  comment_status?: 'open' | 'closed';
  ping_status?: 'open' | 'closed';
}

/**
 * The write arguments, typed as posts and pages declare them (libs/routes/cms/post-args.ts): each is
 * optional here, as a page has no sticky, format or terms and a post no parent or menu_order; those are
 * read for the type that has them only.
 */
export interface WriteParams {
  readonly title?: string | Record<string, unknown> | null;
  readonly content?: string | Record<string, unknown> | null;
  readonly excerpt?: string | Record<string, unknown> | null;
  readonly status?: string | null;
  readonly date?: string | null;
  readonly date_gmt?: string | null;
  readonly slug?: string | null;
  readonly author?: number | null;
  readonly password?: string | null;
  readonly sticky?: boolean | null;
  readonly parent?: number | null;
  readonly menu_order?: number | null;
  readonly comment_status?: 'open' | 'closed' | null;
  readonly ping_status?: 'open' | 'closed' | null;
  readonly categories?: number[] | null;
  readonly tags?: number[] | null;
  readonly format?: string | null;
  readonly template?: string | null;
  readonly featured_media?: number | null;
  readonly meta?: unknown;
}

/**
 * A write request: its typed arguments, its arguments read by a name known at run time (a taxonomy's
 * terms, named by its rest base), whether it carried one, and the caller (a HandlerContext is one).
 */
export interface Request {
  readonly input: WriteParams;
  readonly args: Args;
  has(name: string): boolean;
  readonly user: Caller;
}

/** Whether a write asks to make the record sticky (only posts declare `sticky`; other types' requests have none). */
export const stickyRequested = (req: Pick<Request, 'input'>): boolean => req.input.sticky === true;

function textOf(v: unknown, requireNonEmptyRaw: boolean): string | undefined {
  if (typeof v === 'string') return v;
  if (isRecord(v)) {
    const raw = v.raw;
    if (typeof raw === 'string' && (!requireNonEmptyRaw || raw !== '')) return raw;
  }
  return undefined;
}

const invalidField = (message: string) => new RestError('rest_invalid_field', message, 400);

/** prepare_item_for_database: reads and checks the request against the record being updated (if any). */
export async function prepare(deps: WriteDeps, kind: KindInfo, req: Request, existing: PostDoc | null): Promise<Prepared> {
  const p = req.input;
  const out: Prepared = { editDate: false, resetDate: false };
  const zone = deps.site.timezone;
  if (p.title !== undefined && p.title !== null) out.title = textOf(p.title, true);
  if (p.content !== undefined && p.content !== null) out.content = textOf(p.content, false);
  if (p.excerpt !== undefined && p.excerpt !== null) out.excerpt = textOf(p.excerpt, false);
  // Writers without unfiltered_html (authors, contributors) cannot store scripts or unsafe markup.
  const filter = textFilterFor(req.user);
  if (out.title !== undefined) out.title = filter.title(out.title);
  if (out.content !== undefined) out.content = filter.html(out.content);
  if (out.excerpt !== undefined) out.excerpt = filter.html(out.excerpt);

  if (p.status != null && (!existing || existing.status !== p.status)) {
    const s = p.status;
    if ((s === 'publish' || s === 'future' || s === 'private') && !typeCan(req.user, kind.kind, 'publish')) {
      const message =
        s === 'private'
          ? 'Sorry, you are not allowed to create private posts in this post type.'
          : 'Sorry, you are not allowed to publish posts in this post type.';
      throw new RestError('rest_cannot_publish', message, authStatus(req.user));
    }
    out.status = s;
  }

  if (p.date) {
    const d = parseDateInput(p.date, zone);
    if (d && (!existing || existing.date !== d.local)) {
      out.date = d;
      out.editDate = true;
    }
  } else if (p.date_gmt) {
    const d = parseDateInput(p.date_gmt, zone, true);
    const current = existing?.date_gmt ? new Date(existing.date_gmt).getTime() : null;
    if (d && current !== d.gmt.getTime()) {
      out.date = d;
      out.editDate = true;
    }
  }
  if ((req.has('date_gmt') && p.date_gmt === null) || (req.has('date') && p.date === null)) out.resetDate = true;

  if (p.slug != null) out.slug = p.slug;

  if (p.author != null && p.author !== 0) {
    if (p.author !== req.user?.id && !(p.author > 0 && (await deps.users.byId(p.author))))
      throw new RestError('rest_invalid_author', 'Invalid author ID.', 400);
    out.author = p.author;
  }

  if (p.password != null) {
    out.password = p.password;
    if (p.password !== '') {
      if (kind.sticky && p.sticky === true) throw invalidField('A post can not be sticky and have a password.');
      if (existing?.sticky) throw invalidField('A sticky post can not be password protected.');
    }
  }
  if (kind.sticky && p.sticky === true && existing?.password) throw invalidField('A password protected post can not be set to sticky.');

  if (kind.hierarchical && p.parent != null) {
    if (p.parent === 0) out.parent = 0;
    else {
      const parent = p.parent > 0 ? await deps.posts.byId(p.parent) : null;
      if (!parent) throw new RestError('rest_post_invalid_id', 'Invalid post parent ID.', 400);
      out.parent = existing && (await makesLoop(deps, existing.id, parent)) ? 0 : parent.id;
    }
  }
  if (kind.hierarchical && p.menu_order != null) out.menu_order = p.menu_order;
  if (p.comment_status === 'open' || p.comment_status === 'closed') out.comment_status = p.comment_status;
  if (p.ping_status === 'open' || p.ping_status === 'closed') out.ping_status = p.ping_status;
  return out;
}

/** wp_check_post_hierarchy_for_loops: a parent that is the record itself or one of its descendants. */
async function makesLoop(deps: WriteDeps, selfId: number, parent: PostDoc): Promise<boolean> {
  const seen = new Set<number>();
  let at: PostDoc | null = parent;
  while (at && !seen.has(at.id)) {
    if (at.id === selfId) return true;
    seen.add(at.id);
    at = at.parent > 0 ? await deps.posts.byId(at.parent) : null;
  }
  return false;
}

/**
 * The reference's check_template: with no theme templates registered, only "" and the record's current
 * template are valid. Reported like an argument failure, before the permission checks.
 */
export function checkTemplate(t: unknown, existing: PostDoc | null): void {
  // A permission check runs it, for Allow with another endpoint's arguments too: any value but a string passes.
  if (typeof t !== 'string' || t === '' || t === (existing?.template ?? '')) return;
  throw invalidParams([['template', new ParamError('rest_invalid_param', 'template is not one of .')]]);
}

/**
 * get_default_comment_status: pages are closed; a type supporting comments (trackbacks, for pings) takes
 * the site's default; any other type is closed.
 */
function defaultStatus(deps: WriteDeps, kind: KindInfo, which: 'comment_status' | 'ping_status'): 'open' | 'closed' {
  if (kind.kind === 'page') return 'closed';
  if (!kind.supports.includes(which === 'comment_status' ? 'comments' : 'trackbacks')) return 'closed';
  return deps.defaultDiscussion?.()[which] ?? 'open';
}

async function featuredMedia(deps: WriteDeps, value: number | null | undefined, current: number): Promise<number> {
  if (value == null) return current;
  if (value === 0) return 0;
  // Only an attachment can be a thumbnail; anything else leaves it as it was.
  const media = await deps.posts.byId(value);
  return media && media.type === 'attachment' ? media.id : current;
}

/** wp_insert_post's empty check, for a type supporting a title, an editor and an excerpt. */
function isEmptyContent(kind: KindInfo, doc: Pick<PostDoc, 'title' | 'content' | 'excerpt'>): boolean {
  return ['title', 'editor', 'excerpt'].every((f) => kind.supports.includes(f)) && !doc.title && !doc.content && !doc.excerpt;
}

const emptyContent = () => new RestError('empty_content', 'Content, title, and excerpt are empty.', 400);

/** Dates and status after a write (wp_insert_post): floating drafts, defaults, and publish ⇄ future. */
function settleDates(status: string, local: string | null, gmt: Date | null, zone: string): { status: string; date: string; date_gmt: Date | null } {
  const date = local ?? mysqlLocal(gmt ?? now(), zone);
  const dateGmt = gmt ?? (FLOATING_STATUSES.has(status) ? null : fromLocal(date, zone));
  let s = status;
  if (dateGmt) {
    const ahead = dateGmt.getTime() - now().getTime();
    if (s === 'publish' && ahead >= 60_000) s = 'future';
    else if (s === 'future' && ahead < 60_000) s = 'publish';
  }
  return { status: s, date, date_gmt: dateGmt };
}

async function finalSlug(
  deps: WriteDeps,
  kind: KindInfo,
  wanted: string | undefined,
  status: string,
  title: string,
  id: number,
  parent: number,
  current?: string,
): Promise<string> {
  const scope = { type: kind.kind, hierarchical: kind.hierarchical, parent, selfId: id, currentSlug: current };
  let slug = wanted ?? '';
  // The reference makes a sent slug unique even for drafts, which otherwise keep theirs as given.
  if (slug && FLOATING_STATUSES.has(status)) return deps.posts.uniqueSlug(slug, scope);
  if (!slug) slug = FLOATING_STATUSES.has(status) ? '' : sanitizeTitle(title);
  if (FLOATING_STATUSES.has(status)) return slug;
  // A title without letters or digits gives the id as the slug.
  return deps.posts.uniqueSlug(slug || String(id), scope);
}

/** The new record of a create. */
export async function buildCreate(deps: WriteDeps, kind: KindInfo, req: Request, prep: Prepared, id: number): Promise<PostDoc> {
  const p = req.input;
  const zone = deps.site.timezone;
  const title = prep.title ?? '';
  const content = prep.content ?? '';
  const excerpt = prep.excerpt ?? '';
  if (isEmptyContent(kind, { title, content, excerpt })) throw emptyContent();
  const dates = settleDates(prep.status ?? 'draft', prep.resetDate ? null : (prep.date?.local ?? null), prep.resetDate ? null : (prep.date?.gmt ?? null), zone);
  const parent = prep.parent ?? 0;
  const slug = await finalSlug(deps, kind, prep.slug, dates.status, title, id, parent);
  const tax: Record<string, number[]> = {};
  const requested = await requestedTerms(deps, kind, req);
  // A post without categories is in the default one (wp_insert_post).
  for (const t of kind.taxonomies) tax[t.name] = requested.get(t.name) ?? (t.name === 'category' ? [deps.defaultCategory()] : []);
  const format = kind.supports.includes('post-formats') && p.format != null && p.format !== 'standard' ? p.format : '';
  return {
    id,
    type: kind.kind,
    status: dates.status,
    slug,
    title,
    content,
    excerpt,
    author: prep.author ?? req.user?.id ?? 0,
    parent,
    menu_order: prep.menu_order ?? 0,
    password: dates.status === 'private' ? '' : (prep.password ?? ''),
    date: dates.date,
    date_gmt: dates.date_gmt,
    // A new record was last modified when it was dated.
    modified: dates.date,
    modified_gmt: dates.date_gmt ?? fromLocal(dates.date, zone),
    comment_status: prep.comment_status ?? defaultStatus(deps, kind, 'comment_status'),
    ping_status: prep.ping_status ?? defaultStatus(deps, kind, 'ping_status'),
    template: p.template ?? '',
    format,
    sticky: kind.sticky && p.sticky === true,
    featured_media: await featuredMedia(deps, p.featured_media, 0),
    guid: guidFor(deps.site.home, kind.kind, id),
    tax,
    terms: [],
    // Calendar meta is derived as every calendar writer derives it (UTC strings, index fields); an event always has its index fields.
    ...writtenMeta(null, isRecord(p.meta) ? textFilterFor(req.user).meta(p.meta) : {}, zone, kind.kind),
    revision_count: 0,
  };
}

/** The changed fields of an update, and the record after it. */
export async function buildUpdate(
  deps: WriteDeps,
  kind: KindInfo,
  req: Request,
  prep: Prepared,
  old: PostDoc,
): Promise<{ changes: Partial<PostDoc>; after: PostDoc }> {
  const p = req.input;
  const zone = deps.site.timezone;
  const status = prep.status ?? old.status;
  const floating = FLOATING_STATUSES.has(old.status) && !prep.editDate && !old.date_gmt;
  let local: string | null = prep.date?.local ?? old.date;
  let gmt: Date | null = prep.date?.gmt ?? (old.date_gmt ? new Date(old.date_gmt) : null);
  if (prep.resetDate) {
    local = null;
    gmt = null;
  }
  // A floating draft is dated "now" on every save until a date is set.
  if (floating) {
    local = mysqlLocal(now(), zone);
    gmt = null;
  }
  const dates = settleDates(status, local, gmt, zone);
  const after: PostDoc = { ...old };
  if (prep.title !== undefined) after.title = prep.title;
  if (prep.content !== undefined) after.content = prep.content;
  if (prep.excerpt !== undefined) after.excerpt = prep.excerpt;
  if (isEmptyContent(kind, after)) throw emptyContent();
  after.status = dates.status;
  after.date = dates.date;
  after.date_gmt = dates.date_gmt;
  if (prep.author !== undefined) after.author = prep.author;
  if (prep.password !== undefined) after.password = prep.password;
  if (after.status === 'private') after.password = '';
  if (prep.parent !== undefined) after.parent = prep.parent;
  if (prep.menu_order !== undefined) after.menu_order = prep.menu_order;
  if (prep.comment_status) after.comment_status = prep.comment_status;
  if (prep.ping_status) after.ping_status = prep.ping_status;
  let wanted = prep.slug ?? old.slug;
  if (old.status === 'trash' && after.status !== 'trash') {
    // Leaving the trash gives back the slug the record had before it.
    if (prep.slug === undefined && old.trash?.desired_slug !== undefined) wanted = old.trash.desired_slug;
    after.trash = undefined;
  }
  after.slug = await finalSlug(deps, kind, wanted, after.status, after.title, old.id, after.parent, old.slug);
  if (p.template != null) after.template = p.template;
  if (kind.supports.includes('post-formats') && p.format) after.format = p.format === 'standard' ? '' : p.format;
  if (kind.sticky && p.sticky != null) after.sticky = p.sticky;
  if (kind.taxonomies.length) after.tax = { ...(old.tax ?? {}), ...Object.fromEntries(await requestedTerms(deps, kind, req)) };
  after.featured_media = await featuredMedia(deps, p.featured_media, old.featured_media ?? 0);
  if (isRecord(p.meta)) Object.assign(after, writtenMeta(old, textFilterFor(req.user).meta(p.meta), zone, kind.kind));
  const t = now();
  after.modified = mysqlLocal(t, zone);
  after.modified_gmt = t;

  const changes: Partial<PostDoc> = {};
  const keep = <K extends keyof PostDoc>(k: K) => {
    changes[k] = after[k];
  };
  for (const k of ownKeys(after)) if (JSON.stringify(after[k]) !== JSON.stringify(old[k])) keep(k);
  if ('trash' in changes && after.trash === undefined) changes.trash = undefined;
  return { changes, after };
}
