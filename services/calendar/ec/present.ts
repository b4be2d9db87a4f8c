/**
 * ec/v1 entities (the reference's posts-controller record plus the type's own fields): the cms/v2 post
 * fields in view context, rendered as cms/v2 renders them, then the event's computed fields or the
 * venue's or organizer's contact fields. Events embed their organizers and venues as entities.
 * A password-protected entity read without its password keeps its identity and title and has every
 * other field masked, recursively, as the reference does.
 */
import { canReadRecord, type Caller } from '#libs/auth/user';
import { formatCost } from '#libs/calendar/cost';
import { copiedValue, eventCopies } from '#libs/calendar/event-field-orders';
import { ecName, fieldEntries } from '#libs/calendar/fields';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY, VENUE_META, eventCostMeta } from '#libs/calendar/meta';
import { mysqlLocal, rfc3339, rfc3339Gmt } from '#libs/dates/format';
import { fromLocal } from '#libs/dates/post-dates';
import { permalinkOf } from '#libs/posts/permalink';
import { renderContent, renderExcerpt, renderTitle } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import { isRecord } from '#libs/rest/args';
import type { Site } from '#libs/rest/site';
import { inNameOrder } from '#libs/terms/order';
import type { TermDoc } from '#libs/terms/repository';
import { EC_EVENT, EC_ORGANIZER, EC_VENUE, type EcKind } from './kinds';
import { eventDateFields } from './schedule';

/** What presenting needs besides the records, loaded once for a whole page. */
export interface EcView {
  site: Site;
  user: Caller;
  now: Date;
  /** Linked venues and organizers by id. */
  posts: Map<number, PostDoc>;
  /** Terms of the records and of their linked records, by id. */
  terms: Map<number, TermDoc>;
  /** The `?password=` of a single read. */
  password?: string;
  /** Keeps what is presented the same way for everybody (embedded venues and organizers) between requests. */
  remember?: (key: string, make: () => Record<string, unknown>) => Record<string, unknown>;
}

/** Fields a protected entity shows as they are. */
const UNMASKED = new Set(['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author', 'class_list']);
const MASK = 'Password protected';
const EPOCH = { date: '1970-01-01 00:00:00.000000', timezone_type: 3, timezone: 'UTC' };

const isPhpDate = (v: Record<string, unknown>) => Object.keys(v).length === 3 && 'date' in v && 'timezone_type' in v && 'timezone' in v;

/** Strings become "Password protected", numbers 0, other scalars null, dates the epoch; lists and objects recursively. */
export function mask(v: unknown): unknown {
  if (typeof v === 'string') return MASK;
  if (typeof v === 'number') return 0;
  if (Array.isArray(v)) return v.map(mask);
  if (isRecord(v)) {
    if (isPhpDate(v)) return { ...EPOCH };
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mask(x)]));
  }
  return null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The reference's urlencode: spaces as `+`, everything but letters, digits and `-_.` percent-encoded. */
const phpUrlencode = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** A map search for the venue's address, as the reference links it (`&` printed as `&#038;`); empty without an address. */
export function directionsLink(meta: Record<string, unknown>): string {
  const region = text(meta[VENUE_META.stateprovince]) || text(meta[VENUE_META.state]) || text(meta[VENUE_META.province]);
  const parts = [meta[VENUE_META.address], meta[VENUE_META.city], region, meta[VENUE_META.zip], meta[VENUE_META.country]]
    .map((p) => text(p).trim())
    .filter(Boolean);
  if (!parts.length) return '';
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${phpUrlencode(parts.join(' '))}`;
}

/** Published records have their pretty address; every other status the query form, as the reference prints them. */
function linkOf(site: Site, doc: PostDoc): string {
  if (doc.status === 'publish') return permalinkOf(site, doc);
  return `${site.home}/?post_type=${doc.type}&p=${doc.id}`;
}

function classList(doc: PostDoc, view: EcView, hidden: boolean): string[] {
  const out = [`post-${doc.id}`, doc.type, `type-${doc.type}`, `status-${doc.status}`];
  if (doc.password) out.push(hidden ? 'post-password-required' : 'post-password-protected');
  if (doc.featured_media && !hidden) out.push('has-post-thumbnail');
  out.push('hentry');
  for (const [tax, prefix] of [
    [TAG_TAXONOMY, 'tag'],
    [CATEGORY_TAXONOMY, CATEGORY_TAXONOMY],
  ] as const) {
    for (const id of doc.tax?.[tax] ?? []) {
      const t = view.terms.get(id);
      if (t) out.push(`${prefix}-${t.slug}`);
    }
  }
  return out;
}

/** The linked records of an event the caller may read, in the event's order. */
function linkedOf(doc: PostDoc, field: 'venues' | 'organizers', kind: EcKind, view: EcView): PostDoc[] {
  return (doc[field] ?? [])
    .map((id) => view.posts.get(id))
    .filter((p): p is PostDoc => !!p && p.type === kind.type && p.status !== 'trash' && canReadRecord(view.user, kind.cap, p));
}

const EC_COPIES = eventCopies('ec');

function eventFields(doc: PostDoc, view: EcView): Record<string, unknown> {
  const m = doc.meta ?? {};
  const { dates, week, schedule } = eventDateFields(m, view.site.timezone, view.now);
  const organizers = linkedOf(doc, 'organizers', EC_ORGANIZER, view);
  const venues = linkedOf(doc, 'venues', EC_VENUE, view);
  // Embedded entities are shown without a password, as in a list, so every caller sees them alike.
  const nested = { ...view, password: undefined };
  const embed = (kind: EcKind, doc: PostDoc) =>
    view.remember ? view.remember(`ec.embedded:${doc.id}`, () => presentEntity(kind, doc, nested)) : presentEntity(kind, doc, nested);
  return {
    ...dates,
    ...week,
    // The plain copies of the field table (libs/calendar/event-fields.ts), in its order.
    ...Object.fromEntries(EC_COPIES.map((c) => [c.name, copiedValue(c, m)])),
    sticky: doc.menu_order === -1,
    cost: formatCost(eventCostMeta(m)),
    organizer_names: organizers.map((o) => (o.title ?? '').trim()),
    organizers: organizers.map((o) => embed(EC_ORGANIZER, o)),
    venues: venues.map((v) => embed(EC_VENUE, v)),
    ...schedule,
  };
}

/** The fields ec/v1 computes among a linked record's own (named in the field table's `ecOrder`). */
const COMPUTED: Record<string, (meta: Record<string, unknown>) => unknown> = { directions_link: directionsLink };

/** A venue's or organizer's own fields (libs/calendar/fields.ts) as stored, in ec/v1's order and names; a venue's directions link among them. */
function linkedFields(kind: EcKind, doc: PostDoc): Record<string, unknown> {
  const m = doc.meta ?? {};
  const table = kind.linked!.fields;
  const fields = new Map(fieldEntries(table));
  const out: Record<string, unknown> = {};
  for (const name of table.ecOrder) {
    const field = fields.get(name);
    if (!field) out[name] = COMPUTED[name](m);
    else if (field.ec) out[ecName(name, field)] = text(m[field.meta]);
  }
  return out;
}

export function presentEntity(kind: EcKind, doc: PostDoc, view: EcView): Record<string, unknown> {
  const zone = view.site.timezone;
  const hidden = !!doc.password && view.password !== doc.password;
  const gmt = doc.date_gmt ? new Date(doc.date_gmt) : fromLocal(doc.date, zone);
  const modifiedGmt = new Date(doc.modified_gmt);
  const out: Record<string, unknown> = {
    id: doc.id,
    date: rfc3339(doc.date),
    date_gmt: rfc3339Gmt(gmt),
    guid: { rendered: doc.guid },
    modified: rfc3339(doc.modified || mysqlLocal(modifiedGmt, zone)),
    modified_gmt: rfc3339Gmt(modifiedGmt),
    slug: doc.slug,
    status: doc.status,
    type: doc.type,
    link: linkOf(view.site, doc),
    title: { rendered: renderTitle(doc.title ?? '') },
    content: { rendered: renderContent(doc.content ?? ''), protected: !!doc.password },
    excerpt: { rendered: renderExcerpt(doc.excerpt ?? '', doc.content ?? ''), protected: !!doc.password },
    author: doc.author,
    featured_media: doc.featured_media ?? 0,
    template: doc.template ?? '',
  };
  // Only events are a viewable type with taxonomies: the reference gives venues and organizers no
  // term lists and no class_list (WordPress adds it to viewable types only).
  if (kind === EC_EVENT) {
    out.tags = inNameOrder(doc.tax?.[TAG_TAXONOMY] ?? [], (id) => view.terms.get(id)?.name);
    out[CATEGORY_TAXONOMY] = inNameOrder(doc.tax?.[CATEGORY_TAXONOMY] ?? [], (id) => view.terms.get(id)?.name);
    out.class_list = classList(doc, view, hidden);
  }
  Object.assign(out, kind === EC_EVENT ? eventFields(doc, view) : linkedFields(kind, doc));
  if (!hidden) return out;
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, UNMASKED.has(k) ? v : mask(v)]));
}
