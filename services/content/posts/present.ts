/**
 * Posts, pages, events, revisions and autosaves in `view`, `embed` and `edit` context, with their `_links`
 * (reference: prepare_item_for_response and prepare_links of the posts and revisions controllers).
 * Everything a page of records needs beyond the records themselves (term slugs, parent slugs, generated
 * slugs) is loaded once by the caller and handed in, so presenting never queries.
 */
import type { Caller } from '#libs/auth/user';
import { can } from '#libs/auth/user';
import { mysqlLocal, rfc3339, rfc3339Gmt } from '#libs/dates/format';
import { fromLocal } from '#libs/dates/post-dates';
import { readMeta } from '#libs/posts/meta';
import { ancestorsPath, permalinkOf } from '#libs/posts/permalink';
import { blockVersion, renderContent, renderExcerpt, renderStoredExcerpt, renderTitle } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import type { Method } from '#libs/rest/registry';
import { restUrl, type Site } from '#libs/rest/site';
import { CATEGORY_TAXONOMY, EVENT_TYPE } from '#libs/calendar/meta';
import { canTaxonomy } from '#libs/posts/registered';
import type { KindInfo } from '#libs/routes/cms/post-args';
import { inNameOrder } from '#libs/terms/order';
import { canDeletePost, canEditPost, canReadPost, typeCan } from './access';

export type Context = 'view' | 'embed' | 'edit';

/** Which optional link targets exist in this build (links point only at routes that answer). */
export interface LinkTargets {
  types: boolean;
  comments: boolean;
  media: boolean;
  /** The taxonomies whose cms/v2 terms routes exist. */
  taxonomies: ReadonlySet<string>;
}

/** What presenting a page of records needs besides the records. */
export interface PresentInput {
  site: Site;
  kind: KindInfo;
  context: Context;
  user: Caller;
  links: LinkTargets;
  /** Term id → slug and taxonomy, for class_list. */
  terms: Map<number, { slug: string; taxonomy: string; name: string }>;
  /** Page id → its slug and parent, for hierarchical permalinks. */
  parents: Map<number, { slug: string; parent: number }>;
  /** Post id → slug its title would get (edit context, records without a slug). */
  generatedSlugs?: Map<number, string>;
  /** The `?password=` of the request (single GET only). */
  password?: string;
  excerptLength?: number;
}

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The UTC date of a record, or the floating draft's date read in the site zone. */
export function gmtOf(post: PostDoc, zone: string): Date {
  return post.date_gmt ? new Date(post.date_gmt) : fromLocal(post.date, zone);
}

/** The reference's get_permalink with a /%postname%/ structure; drafts and scheduled ones get ?p=. */
export function permalink(post: PostDoc, input: Pick<PresentInput, 'site' | 'parents'>): string {
  return permalinkOf(input.site, post, input.parents);
}

/** The methods of the item route this caller may use (`targetHints.allow`). */
export function itemMethods(user: Caller, post: PostDoc): Method[] {
  const out: Method[] = [];
  if (canReadPost(user, post)) out.push('GET');
  if (canEditPost(user, post)) out.push('POST', 'PUT', 'PATCH');
  if (canDeletePost(user, post)) out.push('DELETE');
  return out;
}

/** Whether the caller sees a protected record's content (edit rights in edit context, or the right password). */
export function canSeeProtected(post: PostDoc, input: Pick<PresentInput, 'context' | 'user' | 'password'>): boolean {
  if (!post.password) return true;
  if (input.context === 'edit' && canEditPost(input.user, post)) return true;
  return input.password !== undefined && input.password !== '' && input.password === post.password;
}

/** Term classes: `category-`, `tag-`, or the taxonomy's name (get_post_class), then the calendar's `cat_` ones (its post_class filter). */
const TERM_CLASS: Record<string, string> = { category: 'category', post_tag: 'tag' };

function classList(post: PostDoc, input: PresentInput, protectedHidden: boolean): string[] {
  const out = [`post-${post.id}`, post.type, `type-${post.type}`, `status-${post.status}`];
  if (input.kind.supports.includes('post-formats')) out.push(`format-${post.format || 'standard'}`);
  if (post.password) out.push(protectedHidden ? 'post-password-required' : 'post-password-protected');
  if (post.featured_media && !protectedHidden) out.push('has-post-thumbnail');
  out.push('hentry');
  const slugs = (tax: string) => (post.tax?.[tax] ?? []).flatMap((id) => input.terms.get(id)?.slug ?? []);
  for (const tax of input.kind.taxonomies) for (const slug of slugs(tax.name)) out.push(`${TERM_CLASS[tax.name] ?? tax.name}-${slug}`);
  if (post.type === EVENT_TYPE) for (const slug of slugs(CATEGORY_TAXONOMY)) out.push(`cat_${slug}`);
  return out;
}

function links(post: PostDoc, input: PresentInput): Record<string, unknown> {
  const { site, kind } = input;
  const self = restUrl(site, `/cms/v2/${kind.base}/${post.id}`);
  const out: Record<string, unknown> = {
    self: [{ href: self, targetHints: { allow: itemMethods(input.user, post) } }],
    collection: [{ href: restUrl(site, `/cms/v2/${kind.base}`) }],
  };
  if (input.links.types) out.about = [{ href: restUrl(site, `/cms/v2/types/${kind.kind}`) }];
  if (post.author) out.author = [{ embeddable: true, href: restUrl(site, `/cms/v2/users/${post.author}`) }];
  if (input.links.comments) out.replies = [{ embeddable: true, href: restUrl(site, '/cms/v2/comments', { post: post.id }) }];
  const count = Number(post.revision_count ?? 0);
  const revisions = `/cms/v2/${kind.base}/${post.id}/revisions`;
  out['version-history'] = [{ count, href: restUrl(site, revisions) }];
  if (count > 0 && post.latest_revision)
    out['predecessor-version'] = [{ id: post.latest_revision, href: restUrl(site, `${revisions}/${post.latest_revision}`) }];
  if (kind.hierarchical && post.parent) out.up = [{ embeddable: true, href: restUrl(site, `/cms/v2/${kind.base}/${post.parent}`) }];
  if (input.links.media && post.featured_media) out['wp:featuredmedia'] = [{ embeddable: true, href: restUrl(site, `/cms/v2/media/${post.featured_media}`) }];
  if (input.links.media) out['wp:attachment'] = [{ href: restUrl(site, '/cms/v2/media', { parent: post.id }) }];
  const terms = kind.taxonomies
    .filter((t) => input.links.taxonomies.has(t.name))
    .map((t) => ({ taxonomy: t.name, embeddable: true, href: restUrl(site, `/cms/v2/${t.base}`, { post: post.id }) }));
  if (terms.length) out['wp:term'] = terms;
  if (input.context === 'edit') {
    const user = input.user;
    const actions: string[] = [];
    if (typeCan(user, kind.kind, 'publish')) actions.push('publish');
    if (can(user, 'unfiltered_html')) actions.push('unfiltered-html');
    if (kind.sticky && typeCan(user, kind.kind, 'edit_others') && typeCan(user, kind.kind, 'publish')) actions.push('sticky');
    if (kind.supports.includes('author') && typeCan(user, kind.kind, 'edit_others')) actions.push('assign-author');
    // Each taxonomy's terms are created with edit_terms (hierarchical) or assign_terms, and assigned with assign_terms.
    for (const t of kind.taxonomies) {
      if (canTaxonomy(user, t.createCap)) actions.push(`create-${t.base}`);
      if (canTaxonomy(user, t.assignCap)) actions.push(`assign-${t.base}`);
    }
    for (const a of actions) out[`wp:action-${a}`] = [{ href: self }];
  }
  if (Object.keys(out).some((rel) => rel.startsWith('wp:'))) out.curies = CURIES;
  return out;
}

/** A post or page in the requested context; `withLinks` false gives the bare data (a delete's `previous`). */
export function presentPost(post: PostDoc, input: PresentInput, withLinks = true): Record<string, unknown> {
  const { site, context, kind } = input;
  const zone = site.timezone;
  const edit = context === 'edit';
  const embed = context === 'embed';
  const hidden = !canSeeProtected(post, input);
  const out: Record<string, unknown> = { id: post.id, date: rfc3339(post.date) };
  if (!embed) {
    out.date_gmt = rfc3339Gmt(gmtOf(post, zone));
    out.guid = edit ? { rendered: post.guid, raw: post.guid } : { rendered: post.guid };
    out.modified = rfc3339(post.modified || mysqlLocal(new Date(post.modified_gmt), zone));
    out.modified_gmt = rfc3339Gmt(new Date(post.modified_gmt));
  }
  if (edit) out.password = post.password ?? '';
  out.slug = post.slug;
  if (!embed) out.status = post.status;
  out.type = post.type;
  out.link = permalink(post, input);
  out.title = edit ? { raw: post.title, rendered: renderTitle(post.title) } : { rendered: renderTitle(post.title) };
  if (!embed) {
    const content: Record<string, unknown> = {};
    if (edit) content.raw = post.content;
    content.rendered = hidden ? '' : renderContent(post.content);
    content.protected = !!post.password;
    if (edit) content.block_version = blockVersion(post.content);
    out.content = content;
  }
  const excerpt: Record<string, unknown> = {};
  if (edit) excerpt.raw = post.excerpt;
  excerpt.rendered = hidden ? '' : renderExcerpt(post.excerpt, post.content, input.excerptLength);
  excerpt.protected = !!post.password;
  out.excerpt = excerpt;
  out.author = post.author;
  out.featured_media = post.featured_media ?? 0;
  if (!embed) {
    if (kind.hierarchical) {
      out.parent = post.parent;
      out.menu_order = post.menu_order;
    }
    out.comment_status = post.comment_status;
    out.ping_status = post.ping_status;
    if (kind.sticky) out.sticky = !!post.sticky;
    out.template = post.template ?? '';
    if (kind.supports.includes('post-formats')) out.format = post.format || 'standard';
    out.meta = readMeta(post.meta);
    for (const t of kind.taxonomies) out[t.base] = inNameOrder(post.tax?.[t.name] ?? [], (id) => input.terms.get(id)?.name);
    out.class_list = classList(post, input, hidden);
  }
  if (edit) {
    out.permalink_template = kind.hierarchical ? `${site.home}/${ancestorsPath(post.parent, input.parents)}%pagename%/` : `${site.home}/%postname%/`;
    out.generated_slug = post.slug || input.generatedSlugs?.get(post.id) || '';
  }
  if (withLinks) out._links = links(post, input);
  return out;
}

/** A revision or autosave (reference: the revisions controller's prepare_item_for_response). */
export function presentRevision(rev: PostDoc, input: Pick<PresentInput, 'site' | 'kind' | 'context'>, preview?: string): Record<string, unknown> {
  const { context, site, kind } = input;
  const edit = context === 'edit';
  const embed = context === 'embed';
  const out: Record<string, unknown> = { author: rev.author, date: rev.date_gmt ? rfc3339(rev.date) : null };
  if (!embed) out.date_gmt = rev.date_gmt ? rfc3339Gmt(new Date(rev.date_gmt)) : null;
  out.id = rev.id;
  if (!embed) {
    out.modified = rfc3339(rev.modified);
    out.modified_gmt = rfc3339Gmt(new Date(rev.modified_gmt));
  }
  out.parent = rev.parent;
  out.slug = rev.slug;
  if (!embed) out.guid = edit ? { rendered: rev.guid, raw: rev.guid } : { rendered: rev.guid };
  out.title = edit ? { raw: rev.title, rendered: renderTitle(rev.title) } : { rendered: renderTitle(rev.title) };
  if (!embed) out.content = edit ? { raw: rev.content, rendered: renderContent(rev.content) } : { rendered: renderContent(rev.content) };
  out.excerpt = edit ? { raw: rev.excerpt, rendered: renderStoredExcerpt(rev.excerpt) } : { rendered: renderStoredExcerpt(rev.excerpt) };
  if (!embed) out.meta = readMeta(rev.meta);
  if (edit && preview !== undefined) out.preview_link = preview;
  if (rev.parent) out._links = { parent: [{ href: restUrl(site, `/cms/v2/${kind.base}/${rev.parent}`) }] };
  return out;
}
