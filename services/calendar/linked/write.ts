/**
 * Creating and updating venues and organizers: from their own routes and from an event's inline
 * `venue`/`organizer` entries. Inline entries are validated with the same argument declarations as the
 * create route. A create finds a duplicate first (same title, case-insensitive, and the same
 * description when one is given) and returns it instead of inserting, as the reference does.
 */
import type { Caller } from '../../../libs/auth/user';
import { fieldEntries } from '../../../libs/calendar/fields';
import { newCalendarRecord } from '../../../libs/calendar/records';
import { strtotime } from '../../../libs/calendar/strtotime';
import { textFilterFor, type TextFilter } from '../../../libs/posts/save-filter';
import type { PostDoc } from '../../../libs/posts/types';
import { sanitizeTitle, uniquePostSlug } from '../../../libs/posts/slug';
import { mysqlLocal } from '../../../libs/dates/format';
import type { ArgDecl } from '../../../libs/rest/registry';
import { organizerWriteArgs, venueWriteArgs } from '../../../libs/routes/vendor-events/linked';
import { Args } from '../../../libs/rest/args';
import { ownEntry, validateArg } from '../../../libs/rest/validate';
import { TAG_TAXONOMY } from '../../../libs/calendar/meta';
import { scaleStatus, statusForDate } from '../access';
import type { CalendarDeps } from '../deps';
import { INVALID } from '../errors';
import { postFieldChanges } from '../post-fields';
import { checkImage, storeImage, type ImageRef } from '../images';
import type { LinkedKindDef } from './kind';

/** A validated write: argument name → value, only for the arguments given. */
export type LinkedInput = Record<string, unknown>;

const ARG_DECLS: Record<'venue' | 'organizer', Record<string, ArgDecl>> = { venue: venueWriteArgs(true), organizer: organizerWriteArgs(true) };
/** Keys inline entries may spell differently from the routes (the kind's field aliases, libs/calendar/fields.ts). */
const aliasesOf = (kind: LinkedKindDef): Record<string, string> =>
  Object.fromEntries(fieldEntries(kind.fields).flatMap(([name, field]) => (field.aliases ?? []).map((alias) => [alias, name])));

/** Validates an inline entry against the kind's create arguments; returns the input or why it is refused. */
export function inlineInput(kind: LinkedKindDef, entry: Record<string, unknown>): { input: LinkedInput } | { error: string } {
  const decls = ARG_DECLS[kind.key];
  const aliases = aliasesOf(kind);
  const raw: Record<string, unknown> = Object.fromEntries(Object.entries(entry).map(([k, v]) => [ownEntry(aliases, k) ?? k, v]));
  const input: LinkedInput = {};
  for (const [name, decl] of Object.entries(decls)) {
    const value = raw[name];
    if (value === undefined || value === null) {
      if (decl.required) return { error: `${name} is required` };
      continue;
    }
    const r = validateArg(name, value, decl, raw);
    if ('error' in r) return { error: typeof r.error === 'string' ? `${name}: ${r.error}` : r.error.message };
    input[name] = r.value;
  }
  return { input };
}

/** Checks that need the store: the author exists, the image is usable. Returns failures by argument. */
export async function checkLinkedInput(deps: CalendarDeps, user: Caller, input: LinkedInput): Promise<{ failures: Array<[string, string]>; image?: ImageRef }> {
  const failures: Array<[string, string]> = [];
  let image: ImageRef | undefined;
  if (input.author !== undefined && !(await deps.users.byId(Number(input.author)))) failures.push(['author', INVALID]);
  if (input.image !== undefined) {
    const ref = await checkImage(deps, user, input.image);
    if ('invalid' in ref) failures.push(['image', ref.invalid]);
    else image = ref;
  }
  return { failures, image };
}

const lower = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

/** An existing record of the kind with the same title (and description, when given), ignoring case. */
export async function findDuplicate(deps: CalendarDeps, kind: LinkedKindDef, name: string, description: unknown): Promise<PostDoc | null> {
  const wanted = name.trim();
  if (!wanted) return null;
  const candidates = await deps.posts.find({ type: kind.type, status: { $ne: 'trash' }, title: { $icontains: wanted } }, { sort: [['id', 1]] });
  return (
    candidates.find(
      (c) => lower(c.title) === lower(wanted) && (typeof description !== 'string' || description === '' || lower(c.content) === lower(description)),
    ) ?? null
  );
}

/** Post dates from `date` (site time zone) or `date_utc`, else now. */
function postDate(deps: CalendarDeps, input: LinkedInput, now: Date): Date {
  if (typeof input.date_utc === 'string' || typeof input.date_utc === 'number') {
    const d = strtotime(input.date_utc, { zone: 'UTC', now });
    if (d) return d.toJSDate();
  }
  if (typeof input.date === 'string' || typeof input.date === 'number') {
    const d = strtotime(input.date, { zone: deps.site.timezone, now });
    if (d) return d.toJSDate();
  }
  return now;
}

/** The status an input asks for (a validated `status` is a string). */
const statusOf = (input: LinkedInput): string | undefined => (typeof input.status === 'string' ? input.status : undefined);

/**
 * Meta changes of an input, each field stored as its type says (libs/calendar/fields.ts): URLs as
 * esc_url_raw leaves them, text (and e-mail addresses) without markup for writers without
 * unfiltered_html, flags as booleans; empty strings remove a key (the record then drops the field).
 */
function metaChanges(kind: LinkedKindDef, input: LinkedInput, filter: TextFilter): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [name, field] of fieldEntries(kind.fields)) {
    const v = input[name];
    if (v === undefined) continue;
    if (field.type === 'flag') {
      changes[field.meta] = v === true;
      continue;
    }
    const stored = typeof v !== 'string' ? v : field.type === 'url' ? filter.url(v) : filter.text(v.trim());
    changes[field.meta] = stored === '' ? undefined : stored;
  }
  return changes;
}
/** A record's meta under the kind's argument names (what an input would give to produce it). */
export function metaAsInput(kind: LinkedKindDef, doc: PostDoc): LinkedInput {
  return Object.fromEntries(fieldEntries(kind.fields).map(([name, field]) => [name, doc.meta?.[field.meta]]));
}

/**
 * Post fields an input may carry besides the kind's own (ec/v1 writes them): excerpt, comment and ping
 * status, format, template, sticky (kept as menu order -1, as events keep it) and tag ids.
 */
function postFields(input: LinkedInput, current: PostDoc | null, filter: TextFilter): Partial<PostDoc> {
  const out = postFieldChanges({ has: (n) => input[n] !== undefined, get: (n) => input[n] });
  if (typeof input.excerpt === 'string') out.excerpt = filter.html(input.excerpt);
  if (typeof input.sticky === 'boolean') out.menu_order = input.sticky ? -1 : 0;
  if (Array.isArray(input.tags)) out.tax = { ...(current?.tax ?? {}), [TAG_TAXONOMY]: new Args(input).ints('tags') };
  return out;
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
  // Writers without unfiltered_html save the title and description through the reference's kses filters.
  const filter = textFilterFor(user);
  const name = filter.title(String(input[kind.key] ?? '').trim());
  const description = typeof input.description === 'string' ? filter.html(input.description) : undefined;
  const dup = opts.dedupe === false ? null : await findDuplicate(deps, kind, name, description);
  if (dup) return { doc: dup, existing: true };
  const now = deps.now();
  const dateGmt = postDate(deps, input, now);
  const id = await deps.posts.nextId();
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metaChanges(kind, input, filter))) if (v !== undefined) meta[k] = v;
  const doc: PostDoc = newCalendarRecord(deps.site, now, {
    id,
    type: kind.type,
    status: statusForDate(scaleStatus(user, kind.cap, statusOf(input)), dateGmt, now),
    slug: await uniquePostSlug(deps.posts, sanitizeTitle(typeof input.slug === 'string' ? input.slug : name) || String(id), {
      type: kind.type,
      hierarchical: false,
    }),
    title: name,
    content: description ?? '',
    author: input.author !== undefined ? Number(input.author) : (user?.id ?? 0),
    date_gmt: dateGmt,
    meta,
    ...postFields(input, null, filter),
  });
  if (image) doc.featured_media = await storeImage(deps, user, image, id);
  return { doc: await deps.posts.create(doc), existing: false };
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
  const title = input[kind.key];
  if (typeof title === 'string') changes.title = filter.title(title.trim());
  if (typeof input.description === 'string') changes.content = filter.html(input.description);
  if (input.author !== undefined) changes.author = Number(input.author);
  if (typeof input.slug === 'string')
    changes.slug = await uniquePostSlug(deps.posts, sanitizeTitle(input.slug) || String(current.id), {
      type: kind.type,
      hierarchical: false,
      selfId: current.id,
      currentSlug: current.slug,
    });
  Object.assign(changes, postFields(input, current, filter));
  let dateGmt = current.date_gmt ?? now;
  if (input.date !== undefined || input.date_utc !== undefined) {
    dateGmt = postDate(deps, input, now);
    changes.date = mysqlLocal(dateGmt, deps.site.timezone);
    changes.date_gmt = dateGmt;
  }
  if (input.status !== undefined || changes.date_gmt) {
    changes.status = statusForDate(scaleStatus(user, kind.cap, statusOf(input), current.status), dateGmt, now);
  }
  const meta = { ...(current.meta ?? {}) };
  for (const [k, v] of Object.entries(metaChanges(kind, input, filter))) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  changes.meta = meta;
  if (image) changes.featured_media = await storeImage(deps, user, image, current.id);
  return (await deps.posts.save(current.id, changes))!;
}
