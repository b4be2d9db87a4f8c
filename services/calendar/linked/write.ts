/**
 * Creating and updating venues and organizers: from their own routes and from an event's inline
 * `venue`/`organizer` entries. Inline entries are validated with the same argument declarations as the
 * create route. A create finds a duplicate first (same title, case-insensitive, and the same
 * description when one is given) and returns it instead of inserting, as the reference does.
 */
import type { Caller } from '#libs/auth/user';
import { coordinateOf, fieldEntries } from '#libs/calendar/fields';
import { newCalendarRecord, storeRecords } from '#libs/calendar/save';
import { strtotime } from '#libs/calendar/strtotime';
import { textFilterFor, type TextFilter } from '#libs/posts/save-filter';
import type { PostDoc } from '#libs/posts/types';
import { sanitizeTitle } from '#libs/posts/slug';
import { mysqlLocal } from '#libs/dates/format';
import type { ArgDecl } from '#libs/rest/registry';
import { organizerWriteArgs, venueWriteArgs } from '#libs/routes/vendor-events/linked';
import { ownEntry, validateArg } from '#libs/rest/validate';
import { TAG_TAXONOMY, VENUE_META, truthyMeta, venueCoordinates } from '#libs/calendar/meta';
import { scaleStatus, statusForDate } from '../access';
import type { CalendarDeps } from '../deps';
import { INVALID } from '../errors';
import { postFieldChanges, type PostFieldsInput } from '../post-fields';
import { checkImage, keepImage, storeImage, type ImageRef } from '../images';
import type { LinkedKindDef } from './kind';

/** A venue or organizer write: the values the gateway validated, each present only when given. */
export interface LinkedInput {
  /** The record's name (its title). */
  name?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  author?: number;
  /** The publication date, read in the site's zone (`date`) or in UTC (`dateUtc`, which wins). */
  date?: string;
  dateUtc?: string;
  /** The featured image: an attachment id, an image URL, or empty to remove it. */
  image?: unknown;
  sticky?: boolean;
  tags?: number[];
  post?: PostFieldsInput;
  /** The kind's own fields (libs/calendar/fields.ts) by name: text, or a flag's boolean. */
  fields: Record<string, string | boolean>;
}

const ARG_DECLS: Record<'venue' | 'organizer', Record<string, ArgDecl>> = { venue: venueWriteArgs(true), organizer: organizerWriteArgs(true) };
/** Keys inline entries may spell differently from the routes (the kind's field aliases, libs/calendar/fields.ts). */
const aliasesOf = (kind: LinkedKindDef): Record<string, string> =>
  Object.fromEntries(fieldEntries(kind.fields).flatMap(([name, field]) => (field.aliases ?? []).map((alias) => [alias, name])));

/**
 * A write from vendor/events/v1 arguments by name (validated, only those given): a venue's or organizer's
 * own route, or an inline entry of an event.
 */
export function v1LinkedInput(kind: LinkedKindDef, args: Readonly<Record<string, unknown>>): LinkedInput {
  const text = (name: string) => {
    const v = args[name];
    return typeof v === 'string' ? v : undefined;
  };
  const fields: LinkedInput['fields'] = {};
  for (const [name] of fieldEntries(kind.fields)) {
    const v = args[name];
    if (typeof v === 'string' || typeof v === 'boolean') fields[name] = v;
    else if (typeof v === 'number') fields[name] = String(v);
  }
  return {
    name: text(kind.key),
    description: text('description'),
    status: text('status'),
    author: args.author !== undefined && args.author !== null ? Number(args.author) : undefined,
    date: text('date'),
    dateUtc: text('date_utc'),
    image: args.image ?? undefined,
    fields,
  };
}

/** Validates an inline entry against the kind's create arguments; returns the input or why it is refused. */
export function inlineInput(kind: LinkedKindDef, entry: Record<string, unknown>): { input: LinkedInput } | { error: string } {
  const decls = ARG_DECLS[kind.key];
  const aliases = aliasesOf(kind);
  const raw: Record<string, unknown> = Object.fromEntries(Object.entries(entry).map(([k, v]) => [ownEntry(aliases, k) ?? k, v]));
  const values: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(decls)) {
    const value = raw[name];
    if (value === undefined || value === null) {
      if (decl.required) return { error: `${name} is required` };
      continue;
    }
    const r = validateArg(name, value, decl, raw);
    if ('error' in r) return { error: typeof r.error === 'string' ? `${name}: ${r.error}` : r.error.message };
    values[name] = r.value;
  }
  return { input: v1LinkedInput(kind, values) };
}

/** Checks that need the store: the author exists, the image is usable. Returns failures by argument. */
export async function checkLinkedInput(deps: CalendarDeps, user: Caller, input: LinkedInput): Promise<{ failures: Array<[string, string]>; image?: ImageRef }> {
  const failures: Array<[string, string]> = [];
  let image: ImageRef | undefined;
  if (input.author !== undefined && !(await deps.users.byId(input.author))) failures.push(['author', INVALID]);
  if (input.image !== undefined) {
    const ref = await checkImage(deps, user, input.image);
    if ('invalid' in ref) failures.push(['image', ref.invalid]);
    else image = ref;
  }
  return { failures, image };
}

const lower = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

/** An existing record of the kind with the same title (and description, when given), ignoring case. */
async function findDuplicate(deps: CalendarDeps, kind: LinkedKindDef, name: string, description: unknown): Promise<PostDoc | null> {
  const wanted = name.trim();
  if (!wanted) return null;
  const candidates = await deps.posts.find({ type: kind.type, status: { $ne: 'trash' }, title: { $icontains: wanted } }, { sort: [['id', 1]] });
  return (
    candidates.find(
      (c) => lower(c.title) === lower(wanted) && (typeof description !== 'string' || description === '' || lower(c.content) === lower(description)),
    ) ?? null
  );
}

/** Post dates from `dateUtc` or `date` (site time zone), else now. */
function postDate(deps: CalendarDeps, input: LinkedInput, now: Date): Date {
  if (input.dateUtc !== undefined) {
    const d = strtotime(input.dateUtc, { zone: 'UTC', now });
    if (d) return d.toJSDate();
  }
  if (input.date !== undefined) {
    const d = strtotime(input.date, { zone: deps.site.timezone, now });
    if (d) return d.toJSDate();
  }
  return now;
}

/**
 * Meta changes of an input, each field stored as its type says (libs/calendar/fields.ts): URLs as
 * esc_url_raw leaves them, text (and e-mail addresses) without markup for writers without
 * unfiltered_html, flags as booleans, coordinates as numeric text (extended edition); empty strings remove a key (the record then drops the field).
 */
function metaChanges(deps: CalendarDeps, kind: LinkedKindDef, input: LinkedInput, filter: TextFilter): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [name, field] of fieldEntries(kind.fields)) {
    const v = input.fields[name];
    if (v === undefined || field.readOnly) continue;
    // The geolocation fields are written in the extended edition only (the free one, as the free reference, reads none).
    if (field.edition && deps.edition !== 'extended') continue;
    if (field.type === 'flag') {
      changes[field.meta] = v === true;
      continue;
    }
    if (field.type === 'coordinate') {
      const at = coordinateOf(v, field.range ?? 0);
      // Stored as text, as the reference keeps meta (cms/v2 declares these keys as strings).
      changes[field.meta] = typeof at === 'number' ? String(at) : undefined;
      continue;
    }
    const stored = typeof v !== 'string' ? v : field.type === 'url' ? filter.url(v) : filter.text(v.trim());
    changes[field.meta] = stored === '' ? undefined : stored;
  }
  return changes;
}
const given = (v: unknown) => v !== undefined && v !== '';

/**
 * The "use these coordinates" override of a venue's meta after a write (extended edition), as the
 * reference's Pro geolocation keeps `_VenueOverwriteCoords`: on when the writer says so, or gives both
 * coordinates without saying (as its CSV importer does); otherwise as it was. It holds only while the
 * venue has coordinates; off, the address is geocoded again.
 */
export function settleOverride(deps: CalendarDeps, kind: LinkedKindDef, input: LinkedInput, meta: Record<string, unknown>): void {
  if (kind.key !== 'venue' || deps.edition !== 'extended') return;
  const flag = input.fields.overwrite_coords;
  const gaveBoth = given(input.fields.geo_lat) && given(input.fields.geo_lng);
  const on = (typeof flag === 'boolean' ? flag : gaveBoth || truthyMeta(meta[VENUE_META.overwriteCoords])) && venueCoordinates(meta) !== null;
  if (on) meta[VENUE_META.overwriteCoords] = true;
  else if (VENUE_META.overwriteCoords in meta || flag !== undefined) meta[VENUE_META.overwriteCoords] = false;
}

/** A record's meta under the kind's field names (what an input would give to produce it). */
export function metaAsFields(kind: LinkedKindDef, doc: PostDoc): Record<string, unknown> {
  return Object.fromEntries(fieldEntries(kind.fields).map(([name, field]) => [name, doc.meta?.[field.meta]]));
}

/**
 * Post fields an input may carry besides the kind's own (ec/v1 writes them): excerpt, comment and ping
 * status, format, template, sticky (kept as menu order -1, as events keep it) and tag ids.
 */
function postFields(input: LinkedInput, current: PostDoc | null, filter: TextFilter): Partial<PostDoc> {
  const out = input.post ? postFieldChanges(input.post) : {};
  if (input.excerpt !== undefined) out.excerpt = filter.html(input.excerpt);
  if (input.sticky !== undefined) out.menu_order = input.sticky ? -1 : 0;
  if (input.tags) out.tax = { ...(current?.tax ?? {}), [TAG_TAXONOMY]: input.tags };
  return out;
}

/** The existing record a create of `input` would duplicate: the same title and description as the writer's filter stores them. */
export function duplicateOf(deps: CalendarDeps, user: Caller, kind: LinkedKindDef, input: LinkedInput): Promise<PostDoc | null> {
  const filter = textFilterFor(user);
  return findDuplicate(deps, kind, filter.title((input.name ?? '').trim()), input.description !== undefined ? filter.html(input.description) : undefined);
}

/**
 * Creates a record of the kind, or returns the duplicate that already exists (vendor/events/v1 finds
 * duplicates; ec/v1 creates what it is asked to, `dedupe: false`). A `slug` input names the slug.
 */
export async function createLinked(
  deps: CalendarDeps,
  user: Caller,
  kind: LinkedKindDef,
  input: LinkedInput,
  image?: ImageRef,
  opts: { dedupe?: boolean } = {},
): Promise<{ doc: PostDoc; existing: boolean }> {
  const dup = opts.dedupe === false ? null : await duplicateOf(deps, user, kind, input);
  if (dup) return { doc: dup, existing: true };
  // Writers without unfiltered_html save the title and description through the reference's kses filters.
  const filter = textFilterFor(user);
  const name = filter.title((input.name ?? '').trim());
  const description = input.description !== undefined ? filter.html(input.description) : undefined;
  const now = deps.now();
  const dateGmt = postDate(deps, input, now);
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metaChanges(deps, kind, input, filter))) if (v !== undefined) meta[k] = v;
  settleOverride(deps, kind, input, meta);
  const after: PostDoc = newCalendarRecord(deps.site, now, {
    id: 0,
    type: kind.type,
    status: statusForDate(scaleStatus(user, kind.cap, input.status), dateGmt, now),
    slug: '',
    title: name,
    content: description ?? '',
    author: input.author ?? user?.id ?? 0,
    date_gmt: dateGmt,
    meta,
    ...postFields(input, null, filter),
  });
  const { records } = await storeRecords(deps, [{ before: null, after, slug: sanitizeTitle(input.slug ?? name) }], {
    prepare: image ? async (doc) => void (doc.featured_media = await storeImage(deps, user, image, doc.id)) : undefined,
  });
  return { doc: records[0]!, existing: false };
}

/** Applies an update (no duplicate check: renaming to an existing name is allowed). */
export async function updateLinked(
  deps: CalendarDeps,
  user: Caller,
  kind: LinkedKindDef,
  current: PostDoc,
  input: LinkedInput,
  image?: ImageRef,
): Promise<PostDoc> {
  const now = deps.now();
  const changes: Partial<PostDoc> = { modified: mysqlLocal(now, deps.site.timezone), modified_gmt: now };
  const filter = textFilterFor(user);
  if (input.name !== undefined) changes.title = filter.title(input.name.trim());
  if (input.description !== undefined) changes.content = filter.html(input.description);
  if (input.author !== undefined) changes.author = input.author;
  Object.assign(changes, postFields(input, current, filter));
  let dateGmt = current.date_gmt ?? now;
  if (input.date !== undefined || input.dateUtc !== undefined) {
    dateGmt = postDate(deps, input, now);
    changes.date = mysqlLocal(dateGmt, deps.site.timezone);
    changes.date_gmt = dateGmt;
  }
  if (input.status !== undefined || changes.date_gmt) {
    changes.status = statusForDate(scaleStatus(user, kind.cap, input.status, current.status), dateGmt, now);
  }
  const meta = { ...(current.meta ?? {}) };
  for (const [k, v] of Object.entries(metaChanges(deps, kind, input, filter))) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  settleOverride(deps, kind, input, meta);
  changes.meta = meta;
  if (image) changes.featured_media = await storeImage(deps, user, image, current.id);
  const slug = input.slug !== undefined ? sanitizeTitle(input.slug) : undefined;
  const { records } = await storeRecords(deps, [{ before: current, after: { ...current, ...changes }, slug }]);
  return records[0]!;
}

/**
 * The write command of a venue or organizer: creates one (current null; a create that finds a duplicate
 * answers with it, unless `dedupe: false`) or updates one. The record and the tag counts it moves are
 * one unit of work (Store.unit); a fetched image is kept in the media library before it, and only for a
 * record that is written.
 */
export async function saveLinked(
  deps: CalendarDeps,
  user: Caller,
  kind: LinkedKindDef,
  input: LinkedInput,
  image: ImageRef | undefined,
  current: PostDoc | null,
  opts: { dedupe?: boolean } = {},
): Promise<{ doc: PostDoc; existing: boolean }> {
  const dup = current || opts.dedupe === false ? null : await duplicateOf(deps, user, kind, input);
  if (dup) return { doc: dup, existing: true };
  const kept = image && (await keepImage(deps, user, image));
  const saved = await deps.store.unit(async () => {
    const doc = current
      ? await updateLinked(deps, user, kind, current, input, kept)
      : (await createLinked(deps, user, kind, input, kept, { dedupe: false })).doc;
    // A venue's or organizer's tags count it while it is published, whatever changed.
    await deps.terms.countWrite(current, doc);
    return { doc, existing: false };
  });
  // Once stored, a venue whose address needs it is geocoded on workers (extended edition).
  if (kind.key === 'venue') deps.venueWritten?.(saved.doc);
  return saved;
}
