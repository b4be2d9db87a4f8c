/**
 * Creating and updating events (the reference's Single_Event create/update). Two steps, so a bad
 * request changes nothing: `checkEventWrite` runs every check that needs stored data (before the
 * permission check, as the reference validates before it authorises) and returns a plan;
 * `saveEvent` then creates the inline venues, organizers and unknown terms and writes the event,
 * its meta and its derived index fields in one save, and recounts the terms it touched, all as one
 * unit of work of the store.
 */
import { DateTime } from 'luxon';
import type { Caller } from '#libs/auth/user';
import { costText } from '#libs/calendar/cost';
import { EVENT_FIELDS as F, eventFieldName, type EventField } from '#libs/calendar/fields';
import { CATEGORY_TAXONOMY, EVENT_META, TAG_TAXONOMY, storableEventTime, timesFromMeta, timesToMeta, type EventTimes } from '#libs/calendar/meta';
import { nextEventRecord, storeRecords } from '#libs/calendar/save';
import { strtotime } from '#libs/calendar/strtotime';
import { isFixedOffsetZone, zoneOf } from '#libs/calendar/timezone';
import type { PostDoc } from '#libs/posts/types';
import { textFilterFor } from '#libs/posts/save-filter';
import { sanitizeTitle } from '#libs/posts/slug';
import { isRecord } from '#libs/rest/args';
import { mysqlLocal } from '#libs/dates/format';
import { sanitizeTermName, type TermDoc } from '#libs/terms/repository';
import { scaleStatus, statusForDate } from '../access';
import type { CalendarDeps } from '../deps';
import type { Related } from '../related';
import { INVALID, calendarErrors, paramFailure } from '../errors';
import { checkImage, keepImage, storeImage, type ImageRef } from '../images';
import { postFieldChanges, type PostFieldsInput } from '../post-fields';
import type { LinkedKindDef } from '../linked/kind';
import { checkLinkedInput, createLinked, duplicateOf, inlineInput, type LinkedInput } from '../linked/write';
import { ORGANIZER } from '../organizers/kind';
import { VENUE } from '../venues/kind';

/**
 * An event write: the values the gateway validated and parsed, each present only when the request gave
 * it (a JSON null of an argument that may be emptied arrives as its empty value). Both dialects map
 * their arguments into it; dates stay text, because the zone they are read in depends on the event.
 */
export interface EventInput {
  title?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  author?: number;
  password?: string;
  /** The publication date, read in the event's zone (`date`) or in UTC (`dateUtc`, which wins). */
  date?: string;
  dateUtc?: string;
  /** The event's zone: an IANA name or UTC offset; empty for the site's. */
  timezone?: string;
  allDay?: boolean;
  /** When it starts and ends, read in the event's zone or (`*Utc`) in UTC; the end may be a duration in seconds. */
  start?: string;
  startUtc?: string;
  end?: string;
  endUtc?: string;
  duration?: number;
  /** The featured image: an attachment id, an image URL, or empty to remove it. */
  image?: unknown;
  /** The cost: text, a number, or a list of them. */
  cost?: unknown;
  /** The website; empty removes it. */
  website?: string;
  showMap?: boolean;
  showMapLink?: boolean;
  hideFromListings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  /** Venues and organizers: ids, `{id}`, or inline records; an empty list unlinks them all. */
  venues?: unknown[];
  organizers?: unknown[];
  /** Categories and tags: ids, or names to find or create. */
  categories?: Array<number | string>;
  tags?: Array<number | string>;
  post?: PostFieldsInput;
}

/** An event write command: who writes, what, and in which dialect (whose argument names its errors use, libs/calendar/fields.ts). */
export interface EventWrite {
  user: Caller;
  input: EventInput;
  dialect: 'v1' | 'ec';
}

/** The caller's name of a field of the write. */
const nameOf = (write: EventWrite, field: EventField) => eventFieldName(field, write.dialect);

/** A linked venue or organizer: an existing id, or an inline record to find or create. */
type LinkedEntry = { id: number } | { input: LinkedInput; image?: ImageRef };

/** A term of an event: an existing id, or a name to find by slug or name, else create. */
export type TermEntry = { id: number } | { name: string };

export interface EventPlan {
  image?: ImageRef;
  venues?: LinkedEntry[];
  organizers?: LinkedEntry[];
  categories?: TermEntry[];
  tags?: TermEntry[];
}

/** The ids a list of linked entries names (numbers and `{id}` records). */
const namedLinked = (entries: unknown[] | undefined): number[] =>
  (entries ?? []).map((e) => (typeof e === 'number' ? e : isRecord(e) && 'id' in e ? Number(e.id) : 0)).filter((n) => n > 0);

/** Checks the venues or organizers of a write; `found` holds the records their ids name (read once for both kinds). */
async function checkLinked(
  deps: CalendarDeps,
  write: EventWrite,
  kind: LinkedKindDef,
  entries: unknown[],
  found: Map<number, PostDoc>,
  failures: Array<[string, string]>,
): Promise<LinkedEntry[]> {
  const out: LinkedEntry[] = [];
  for (const entry of entries) {
    if (typeof entry === 'number' || (isRecord(entry) && 'id' in entry)) {
      const id = typeof entry === 'number' ? entry : Number(entry.id);
      const doc = found.get(id);
      if (!doc || doc.type !== kind.type || doc.status === 'trash') {
        if (typeof entry === 'number') failures.push([nameOf(write, kind.plural), INVALID]);
        else throw calendarErrors.invalidLinkedPostId(id);
        continue;
      }
      if (!out.some((e) => 'id' in e && e.id === id)) out.push({ id });
      continue;
    }
    // Validation leaves only ids and records here: anything else is a record without fields.
    const parsed = inlineInput(kind, isRecord(entry) ? entry : {});
    if ('error' in parsed) throw calendarErrors.couldNotCreate(kind.key, parsed.error);
    const checked = await checkLinkedInput(deps, write.user, parsed.input);
    if (checked.failures.length) throw calendarErrors.couldNotCreate(kind.key, `invalid ${checked.failures.map(([n]) => n).join(', ')}`);
    out.push({ input: parsed.input, image: checked.image });
  }
  return out;
}

/** The terms a write names (argument `arg`): ids must exist in the taxonomy (else a failure), names are found or created later. */
export async function checkTerms(
  deps: CalendarDeps,
  values: ReadonlyArray<number | string>,
  arg: string,
  taxonomy: string,
  failures: Array<[string, string]>,
): Promise<TermEntry[]> {
  const out: TermEntry[] = [];
  const numeric = values.filter((v) => typeof v === 'number' || /^\d+$/.test(String(v))).map(Number);
  const found = await deps.terms.byIds(numeric);
  for (const v of values) {
    if (typeof v === 'number' || /^\d+$/.test(String(v))) {
      const t = found.get(Number(v));
      if (!t || t.taxonomy !== taxonomy) {
        failures.push([arg, INVALID]);
        return out;
      }
      out.push({ id: t.id });
    } else out.push({ name: String(v) });
  }
  return out;
}

/** Every check of an event write that needs stored data; throws the error to answer with. */
export async function checkEventWrite(deps: CalendarDeps, write: EventWrite): Promise<EventPlan> {
  const { input } = write;
  const failures: Array<[string, string]> = [];
  const plan: EventPlan = {};
  if (input.author !== undefined && !(await deps.users.byId(input.author))) failures.push([nameOf(write, 'author'), INVALID]);
  if (input.image !== undefined) {
    const ref = await checkImage(deps, write.user, input.image);
    if ('invalid' in ref) failures.push([nameOf(write, 'image'), ref.invalid]);
    else plan.image = ref;
  }
  // The venues and organizers named by id, in one query.
  const found =
    input.venues || input.organizers ? await deps.posts.byIds([...namedLinked(input.venues), ...namedLinked(input.organizers)]) : new Map<number, PostDoc>();
  if (input.venues) plan.venues = await checkLinked(deps, write, VENUE, input.venues, found, failures);
  if (input.organizers) plan.organizers = await checkLinked(deps, write, ORGANIZER, input.organizers, found, failures);
  if (input.categories) plan.categories = await checkTerms(deps, input.categories, nameOf(write, 'categories'), CATEGORY_TAXONOMY, failures);
  if (input.tags) plan.tags = await checkTerms(deps, input.tags, nameOf(write, 'tags'), TAG_TAXONOMY, failures);
  const failure = paramFailure(failures);
  if (failure) throw failure;
  return plan;
}

/** The ids of the linked records, the inline ones found or created (and noted in `read`, and in `created` when new). */
async function linkedIds(
  deps: CalendarDeps,
  user: Caller,
  kind: LinkedKindDef,
  entries: LinkedEntry[],
  read: Map<number, PostDoc>,
  created: PostDoc[] = [],
): Promise<number[]> {
  const ids: number[] = [];
  for (const e of entries) {
    let id: number;
    if ('id' in e) id = e.id;
    else {
      const made = await createLinked(deps, user, kind, e.input, e.image);
      if (!made.existing) created.push(made.doc);
      read.set(made.doc.id, made.doc);
      id = made.doc.id;
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Term ids in the requested order: ids as given, names found by slug or name (case-insensitive), else created; each term as read or created is noted in `read`. */
export async function termIds(deps: CalendarDeps, taxonomy: string, entries: TermEntry[], read = new Map<number, TermDoc>()): Promise<number[]> {
  const ids: number[] = [];
  // The terms named by id, read again inside the unit (a term deleted since the checks is left out), in one query.
  const byId = await deps.terms.byIds(entries.flatMap((e) => ('id' in e ? [e.id] : [])));
  for (const e of entries) {
    let term: TermDoc | null;
    if ('id' in e) term = byId.get(e.id) ?? null;
    else {
      const given = e.name.trim();
      // Names are stored as the reference stores them (pre_term_name), for every writer, and found so.
      const name = sanitizeTermName(given);
      if (!name) continue;
      term = (await deps.terms.bySlugs(taxonomy, [given, sanitizeTitle(given)].filter(Boolean)))[0] ?? null;
      if (!term) {
        const byName = await deps.terms.find({ taxonomy, name: { $icontains: name } });
        term = byName.find((t) => t.name.toLowerCase() === name.toLowerCase()) ?? null;
      }
      term ??= await deps.terms.create({ taxonomy, name });
    }
    if (term && !ids.includes(term.id)) {
      ids.push(term.id);
      read.set(term.id, term);
    }
  }
  return ids;
}

/** The event's zone: the argument when sent (empty means the site's), else the stored one, else the site's. */
function zoneFor(deps: CalendarDeps, input: EventInput, current: PostDoc | null): string {
  if (input.timezone !== undefined) {
    const tz = input.timezone.trim();
    return tz && zoneOf(tz) ? tz : deps.site.timezone;
  }
  const stored = current?.meta?.[EVENT_META.timezone];
  return typeof stored === 'string' && zoneOf(stored) ? stored : deps.site.timezone;
}

/** The end `seconds` after a start, counted in milliseconds (luxon's `plus` ignores a step it cannot take, 1e308 s). */
function endAfter(start: EventTimes['start'], seconds: number): EventTimes['start'] {
  return DateTime.fromMillis(start.toMillis() + seconds * 1000, { zone: start.zone });
}

/**
 * Start and end after the write: sent dates are read in the event's zone (`*_utc` ones in UTC), an end
 * may be given as a duration in seconds, unsent ones keep their wall time. Both must be moments an event
 * may have (storableEventTime: at the latest 9999-12-31 23:59:59, local and UTC), so the longest
 * duration is the time from the start to then; a write past it is refused, naming the argument that
 * set the date, before anything is written.
 */
function timesFor(deps: CalendarDeps, write: EventWrite, current: PostDoc | null, zone: string, now: Date): EventTimes {
  const { input } = write;
  const stored = current ? timesFromMeta(current.meta ?? {}, deps.site.timezone) : null;
  const local = zoneOf(zone)!;
  const read = (text: string | undefined) => (text !== undefined ? strtotime(text, { zone: local, now }) : null);
  const readUtc = (text: string | undefined) => (text !== undefined ? (strtotime(text, { zone: 'UTC', now })?.setZone(local) ?? null) : null);
  // Keep the stored wall time in the (possibly new) zone: a zone change moves the UTC instant.
  const keep = (dt: EventTimes['start'] | undefined) => (dt ? dt.setZone(local, { keepLocalTime: true }) : null);
  const start = read(input.start) ?? readUtc(input.startUtc) ?? keep(stored?.start) ?? strtotime('now', { zone: local, now })!;
  const refuse = (fields: EventField[]) => paramFailure([[nameOf(write, fields.find((f) => input[f] !== undefined) ?? fields[0]), INVALID]])!;
  if (!storableEventTime(start)) throw refuse(['start', 'startUtc', 'timezone']);
  const lasting = input.duration !== undefined && Number.isFinite(input.duration) ? endAfter(start, input.duration) : null;
  if (lasting && !storableEventTime(lasting)) throw refuse(['duration']);
  const end = read(input.end) ?? readUtc(input.endUtc) ?? lasting ?? keep(stored?.end) ?? start;
  if (!storableEventTime(end)) throw refuse(['end', 'endUtc', 'timezone']);
  const allDay = input.allDay ?? stored?.allDay ?? false;
  return { start, end, timezone: zone, allDay };
}

/** The meta changes of an event write (an undefined value removes the key). */
function metaChanges(write: EventWrite, times: EventTimes, creating: boolean, venues?: number[], organizers?: number[]): Record<string, unknown> {
  const { input } = write;
  const m: Record<string, unknown> = { ...timesToMeta(times) };
  const filter = textFilterFor(write.user);
  // The reference's event save stores the map flags as sent, so an event created without them has
  // them off (a record whose meta lacks them, e.g. an imported one, still reads as on).
  const flag = (given: boolean | undefined, key: string) => {
    if (given !== undefined || creating) m[key] = given === true;
  };
  if (input.cost !== undefined) m[F.cost.meta] = filter.text(costText(input.cost)) || undefined;
  if (input.website !== undefined) m[F.website.meta] = filter.url(input.website) || undefined;
  flag(input.showMap, F.showMap.meta);
  flag(input.showMapLink, F.showMapLink.meta);
  if (input.hideFromListings !== undefined) m[EVENT_META.hideFromListings] = input.hideFromListings ? 'yes' : undefined;
  if (input.featured !== undefined) m[EVENT_META.featured] = input.featured ? true : undefined;
  if (venues) m[EVENT_META.venues] = venues;
  if (organizers) m[EVENT_META.organizers] = organizers;
  return m;
}

/** The publication date a write sets: `date` in the event's zone or `dateUtc` in UTC; null when neither was sent. */
function publicationDate(input: EventInput, zone: string, now: Date): Date | null {
  if (input.dateUtc !== undefined) return strtotime(input.dateUtc, { zone: 'UTC', now })?.toJSDate() ?? null;
  if (input.date !== undefined) return strtotime(input.date, { zone: zoneOf(zone)!, now })?.toJSDate() ?? null;
  return null;
}

/**
 * The plan with its fetched images (the event's and its new venues' and organizers') kept in the media
 * library, unattached. An inline record that will turn out a duplicate of an existing one keeps none.
 */
async function keepImages(deps: CalendarDeps, user: Caller, plan: EventPlan): Promise<EventPlan> {
  const kept: EventPlan = { ...plan };
  if (plan.image) kept.image = await keepImage(deps, user, plan.image);
  for (const [key, kind] of [['venues', VENUE] as const, ['organizers', ORGANIZER] as const]) {
    const entries = plan[key];
    if (!entries) continue;
    const out: LinkedEntry[] = [];
    for (const e of entries) {
      if (!('input' in e) || !e.image) out.push(e);
      else if (await duplicateOf(deps, user, kind, e.input)) out.push({ input: e.input });
      else out.push({ ...e, image: await keepImage(deps, user, e.image) });
    }
    kept[key] = out;
  }
  return kept;
}

/**
 * A stored event and what its unit of work read or wrote of what the event embeds: the venues and
 * organizers it links (read inside the unit, or created by it) and its terms with their counts after the
 * write. All of it is as current as a read right after the write, so its answer is presented from it.
 */
export interface SavedEvent {
  doc: PostDoc;
  related: Related;
}

/**
 * Writes a new event (current null) or an update of one; returns the stored record. The inline venues,
 * organizers and terms it creates, the event and the term counts it moves are one unit of work
 * (Store.unit): after a failure or a crash at any moment, no venue or organizer stays without its event.
 * Fetched images are kept before the unit, which only touches the store, and attached inside it.
 */
export async function saveEvent(deps: CalendarDeps, write: EventWrite, plan: EventPlan, current: PostDoc | null): Promise<SavedEvent> {
  const kept = await keepImages(deps, write.user, plan);
  const venues: PostDoc[] = [];
  const saved = await deps.store.unit(() => storeEvent(deps, write, kept, current, venues));
  // Once stored: the inline venues it created are geocoded on workers (extended edition).
  for (const venue of venues) deps.venueWritten?.(venue);
  return saved;
}

async function storeEvent(deps: CalendarDeps, write: EventWrite, plan: EventPlan, current: PostDoc | null, created: PostDoc[]): Promise<SavedEvent> {
  const now = deps.now();
  const { user, input } = write;
  const zone = zoneFor(deps, input, current);
  const times = timesFor(deps, write, current, zone, now);
  const related: Related = { posts: new Map(), terms: new Map() };
  // The linked records named by id, read again inside the unit (in one query), for the answer only.
  const named = [...(plan.venues ?? []), ...(plan.organizers ?? [])].flatMap((e) => ('id' in e ? [e.id] : []));
  if (named.length) for (const [id, doc] of await deps.posts.byIds(named)) related.posts.set(id, doc);
  const venues = plan.venues ? await linkedIds(deps, user, VENUE, plan.venues, related.posts, created) : undefined;
  const organizers = plan.organizers ? await linkedIds(deps, user, ORGANIZER, plan.organizers, related.posts) : undefined;
  const tax: Record<string, number[]> = { [CATEGORY_TAXONOMY]: [], [TAG_TAXONOMY]: [], ...(current?.tax ?? {}) };
  if (plan.categories) tax[CATEGORY_TAXONOMY] = await termIds(deps, CATEGORY_TAXONOMY, plan.categories, related.terms);
  if (plan.tags) tax[TAG_TAXONOMY] = await termIds(deps, TAG_TAXONOMY, plan.tags, related.terms);

  const pubDate = publicationDate(input, zone, now) ?? current?.date_gmt ?? now;
  const status = statusForDate(scaleStatus(user, 'vendor_event', input.status, current?.status), pubDate, now);
  const fields: Partial<PostDoc> = { tax, status, date: mysqlLocal(pubDate, deps.site.timezone), date_gmt: pubDate };
  // Writers without unfiltered_html save titles, descriptions and excerpts through the reference's kses filters.
  const filter = textFilterFor(user);
  if (input.title !== undefined) fields.title = filter.title(input.title.trim());
  if (input.description !== undefined) fields.content = filter.html(input.description);
  if (input.excerpt !== undefined) fields.excerpt = filter.html(input.excerpt);
  if (input.author !== undefined) fields.author = input.author;
  else if (!current) fields.author = user?.id ?? 0;
  if (input.sticky !== undefined) fields.menu_order = input.sticky ? -1 : 0;
  if (input.password !== undefined) fields.password = input.password;
  if (input.post) Object.assign(fields, postFieldChanges(input.post));
  if (current && plan.image) fields.featured_media = await storeImage(deps, user, plan.image, current.id);

  // In a zone of fixed offset a wall time names one instant, so the meta strings would read back as these
  // very times: they are handed on instead of read again. In a zone with daylight saving time they are read
  // back, so that a repeated local hour is stored as the strings say.
  const known = isFixedOffsetZone(zone) ? times : undefined;
  const after = nextEventRecord(deps, now, current, { meta: metaChanges(write, times, !current, venues, organizers), fields, times: known });
  const slug = input.slug !== undefined || !current ? sanitizeTitle(input.slug ?? fields.title ?? '') : undefined;
  const image = !current && plan.image ? plan.image : undefined;
  const { records, counts } = await storeRecords(deps, [{ before: current, after, slug }], {
    terms: deps.terms,
    prepare: image ? async (doc) => void (doc.featured_media = await storeImage(deps, user, image, doc.id)) : undefined,
  });
  if (!records[0]) throw calendarErrors.eventNotFound(current!.id);
  // The terms as the write left them: their counts moved by what storeRecords moved them by ($inc).
  for (const [id, term] of related.terms) {
    const by = counts.get(id);
    if (by) related.terms.set(id, { ...term, count: term.count + by });
  }
  return { doc: records[0], related };
}
