/**
 * Creating and updating events (the reference's Single_Event create/update). Two steps, so a bad
 * request changes nothing: `checkEventWrite` runs every check that needs stored data (before the
 * permission check, as the reference validates before it authorises) and returns a plan;
 * `saveEvent` then creates the inline venues, organizers and unknown terms and writes the event,
 * its meta and its derived index fields in one save, and recounts the terms it touched, all as one
 * unit of work of the store.
 */
import { DateTime } from 'luxon';
import type { Caller } from '../../../libs/auth/user';
import { costText } from '../../../libs/calendar/cost';
import {
  CATEGORY_TAXONOMY,
  EVENT_META,
  EVENT_TYPE,
  TAG_TAXONOMY,
  eventMetaChanges,
  storableEventTime,
  timesFromMeta,
  timesToMeta,
  type EventTimes,
} from '../../../libs/calendar/meta';
import { newCalendarRecord } from '../../../libs/calendar/records';
import { strtotime } from '../../../libs/calendar/strtotime';
import { zoneOf } from '../../../libs/calendar/timezone';
import type { PostDoc } from '../../../libs/posts/types';
import { textFilterFor } from '../../../libs/posts/save-filter';
import { sanitizeTitle, uniquePostSlug } from '../../../libs/posts/slug';
import { isRecord } from '../../../libs/rest/args';
import { mysqlLocal } from '../../../libs/dates/format';
import { sanitizeTermName, type TermDoc } from '../../../libs/terms/repository';
import { scaleStatus, statusForDate } from '../access';
import type { CalendarDeps } from '../deps';
import { INVALID, calendarErrors, paramFailure } from '../errors';
import { checkImage, keepImage, storeImage, type ImageRef } from '../images';
import { postFieldChanges } from '../post-fields';
import type { LinkedKindDef } from '../linked/kind';
import { checkLinkedInput, createLinked, findDuplicate, inlineInput, type LinkedInput } from '../linked/write';
import { ORGANIZER } from '../organizers/kind';
import { VENUE } from '../venues/kind';

/** The request as the write sees it: which arguments were sent, and their validated values. */
export interface WriteRequest {
  user: Caller;
  has(name: string): boolean;
  get(name: string): unknown;
  /** The name the caller gave an argument, for errors (ec/v1 names `venue` `venues`); the same name when absent. */
  argName?(name: string): string;
}

const argName = (req: WriteRequest, name: string) => req.argName?.(name) ?? name;

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

async function checkLinked(deps: CalendarDeps, req: WriteRequest, kind: LinkedKindDef, failures: Array<[string, string]>): Promise<LinkedEntry[]> {
  const given = req.get(kind.key);
  const entries: unknown[] = Array.isArray(given) ? given : [];
  const out: LinkedEntry[] = [];
  const ids = entries.map((e) => (typeof e === 'number' ? e : isRecord(e) && 'id' in e ? Number(e.id) : 0)).filter((n) => n > 0);
  const found = await deps.posts.byIds(ids);
  for (const entry of entries) {
    if (typeof entry === 'number' || (isRecord(entry) && 'id' in entry)) {
      const id = typeof entry === 'number' ? entry : Number(entry.id);
      const doc = found.get(id);
      if (!doc || doc.type !== kind.type || doc.status === 'trash') {
        if (typeof entry === 'number') failures.push([argName(req, kind.key), INVALID]);
        else throw calendarErrors.invalidLinkedPostId(id);
        continue;
      }
      if (!out.some((e) => 'id' in e && e.id === id)) out.push({ id });
      continue;
    }
    // Validation leaves only ids and records here: anything else is a record without fields.
    const parsed = inlineInput(kind, isRecord(entry) ? entry : {});
    if ('error' in parsed) throw calendarErrors.couldNotCreate(kind.key, parsed.error);
    const checked = await checkLinkedInput(deps, req.user, parsed.input);
    if (checked.failures.length) throw calendarErrors.couldNotCreate(kind.key, `invalid ${checked.failures.map(([n]) => n).join(', ')}`);
    out.push({ input: parsed.input, image: checked.image });
  }
  return out;
}

/** The terms a write names in `arg`: ids must exist in the taxonomy (else a failure), names are found or created later. */
export async function checkTerms(
  deps: CalendarDeps,
  req: WriteRequest,
  arg: 'categories' | 'tags',
  taxonomy: string,
  failures: Array<[string, string]>,
): Promise<TermEntry[]> {
  const given = req.get(arg);
  const values = Array.isArray(given) ? given.filter((v): v is number | string => typeof v === 'number' || typeof v === 'string') : [];
  const out: TermEntry[] = [];
  const numeric = values.filter((v) => typeof v === 'number' || /^\d+$/.test(String(v))).map(Number);
  const found = await deps.terms.byIds(numeric);
  for (const v of values) {
    if (typeof v === 'number' || /^\d+$/.test(String(v))) {
      const t = found.get(Number(v));
      if (!t || t.taxonomy !== taxonomy) {
        failures.push([argName(req, arg), INVALID]);
        return out;
      }
      out.push({ id: t.id });
    } else out.push({ name: String(v) });
  }
  return out;
}

/** Every check of an event write that needs stored data; throws the error to answer with. */
export async function checkEventWrite(deps: CalendarDeps, req: WriteRequest): Promise<EventPlan> {
  const failures: Array<[string, string]> = [];
  const plan: EventPlan = {};
  if (req.has('author') && !(await deps.users.byId(Number(req.get('author'))))) failures.push([argName(req, 'author'), INVALID]);
  if (req.has('image')) {
    const ref = await checkImage(deps, req.user, req.get('image'));
    if ('invalid' in ref) failures.push([argName(req, 'image'), ref.invalid]);
    else plan.image = ref;
  }
  if (req.has('venue')) plan.venues = await checkLinked(deps, req, VENUE, failures);
  if (req.has('organizer')) plan.organizers = await checkLinked(deps, req, ORGANIZER, failures);
  if (req.has('categories')) plan.categories = await checkTerms(deps, req, 'categories', CATEGORY_TAXONOMY, failures);
  if (req.has('tags')) plan.tags = await checkTerms(deps, req, 'tags', TAG_TAXONOMY, failures);
  const failure = paramFailure(failures);
  if (failure) throw failure;
  return plan;
}

async function linkedIds(deps: CalendarDeps, user: Caller, kind: LinkedKindDef, entries: LinkedEntry[]): Promise<number[]> {
  const ids: number[] = [];
  for (const e of entries) {
    const id = 'id' in e ? e.id : (await createLinked(deps, user, kind, e.input, e.image)).doc.id;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Term ids in the requested order: ids as given, names found by slug or name (case-insensitive), else created. */
export async function termIds(deps: CalendarDeps, taxonomy: string, entries: TermEntry[]): Promise<number[]> {
  const ids: number[] = [];
  for (const e of entries) {
    let term: TermDoc | null;
    if ('id' in e) term = await deps.terms.byId(e.id);
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
    if (term && !ids.includes(term.id)) ids.push(term.id);
  }
  return ids;
}

/** The event's zone: the argument when sent (empty means the site's), else the stored one, else the site's. */
function zoneFor(deps: CalendarDeps, req: WriteRequest, current: PostDoc | null): string {
  if (req.has('timezone')) {
    const tz = String(req.get('timezone') ?? '').trim();
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
function timesFor(deps: CalendarDeps, req: WriteRequest, current: PostDoc | null, zone: string, now: Date): EventTimes {
  const stored = current ? timesFromMeta(current.meta ?? {}, deps.site.timezone) : null;
  const read = (name: string) => strtotime(req.get(name), { zone: zoneOf(zone)!, now });
  const readUtc = (name: string) => (req.has(name) ? (strtotime(req.get(name), { zone: 'UTC', now })?.setZone(zoneOf(zone)!) ?? null) : null);
  // Keep the stored wall time in the (possibly new) zone: a zone change moves the UTC instant.
  const keep = (dt: EventTimes['start'] | undefined) => (dt ? dt.setZone(zoneOf(zone)!, { keepLocalTime: true }) : null);
  const start =
    (req.has('start_date') ? read('start_date') : null) ?? readUtc('start_date_utc') ?? keep(stored?.start) ?? strtotime('now', { zone: zoneOf(zone)!, now })!;
  const refuse = (names: string[]) => paramFailure([[argName(req, names.find((n) => req.has(n)) ?? names[0]), INVALID]])!;
  if (!storableEventTime(start)) throw refuse(['start_date', 'start_date_utc', 'timezone']);
  const seconds = req.has('duration') ? Number(req.get('duration')) : NaN;
  const lasting = Number.isFinite(seconds) ? endAfter(start, seconds) : null;
  if (lasting && !storableEventTime(lasting)) throw refuse(['duration']);
  const end = (req.has('end_date') ? read('end_date') : null) ?? readUtc('end_date_utc') ?? lasting ?? keep(stored?.end) ?? start;
  if (!storableEventTime(end)) throw refuse(['end_date', 'end_date_utc', 'timezone']);
  const allDay = req.has('all_day') ? req.get('all_day') === true : (stored?.allDay ?? false);
  return { start, end, timezone: zone, allDay };
}

/** The meta changes of an event write (an undefined value removes the key). */
function metaChanges(req: WriteRequest, times: EventTimes, creating: boolean, venues?: number[], organizers?: number[]): Record<string, unknown> {
  const m: Record<string, unknown> = { ...timesToMeta(times) };
  const filter = textFilterFor(req.user);
  // The reference's event save stores the map flags as sent, so an event created without them has
  // them off (a record whose meta lacks them, e.g. an imported one, still reads as on).
  const flag = (arg: string, key: string) => {
    if (req.has(arg) || creating) m[key] = req.get(arg) === true;
  };
  if (req.has('cost')) m[EVENT_META.cost] = filter.text(costText(req.get('cost'))) || undefined;
  if (req.has('website')) {
    const website = req.get('website');
    const url = typeof website === 'string' ? website.trim() : '';
    m[EVENT_META.url] = filter.url(url) || undefined;
  }
  flag('show_map', EVENT_META.showMap);
  flag('show_map_link', EVENT_META.showMapLink);
  if (req.has('hide_from_listings')) m[EVENT_META.hideFromListings] = req.get('hide_from_listings') === true ? 'yes' : undefined;
  if (req.has('featured')) m[EVENT_META.featured] = req.get('featured') === true ? true : undefined;
  if (venues) m[EVENT_META.venues] = venues;
  if (organizers) m[EVENT_META.organizers] = organizers;
  return m;
}

/** The publication date a write sets: `date` in the event's zone or `date_utc` in UTC; null when neither was sent. */
function publicationDate(req: WriteRequest, zone: string, now: Date): Date | null {
  if (req.has('date_utc')) return strtotime(req.get('date_utc'), { zone: 'UTC', now })?.toJSDate() ?? null;
  if (req.has('date')) return strtotime(req.get('date'), { zone: zoneOf(zone)!, now })?.toJSDate() ?? null;
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
      else if (await findDuplicate(deps, kind, String(e.input[kind.key] ?? ''), e.input.description)) out.push({ input: e.input });
      else out.push({ ...e, image: await keepImage(deps, user, e.image) });
    }
    kept[key] = out;
  }
  return kept;
}

/**
 * Writes a new event (current null) or an update of one; returns the stored record. The inline venues,
 * organizers and terms it creates, the event and the term counts it moves are one unit of work
 * (Store.unit): after a failure or a crash at any moment, no venue or organizer stays without its event.
 * Fetched images are kept before the unit, which only touches the store, and attached inside it.
 */
export async function saveEvent(deps: CalendarDeps, req: WriteRequest, plan: EventPlan, current: PostDoc | null): Promise<PostDoc> {
  const kept = await keepImages(deps, req.user, plan);
  return deps.store.unit(() => storeEvent(deps, req, kept, current));
}

async function storeEvent(deps: CalendarDeps, req: WriteRequest, plan: EventPlan, current: PostDoc | null): Promise<PostDoc> {
  const now = deps.now();
  const user = req.user;
  const zone = zoneFor(deps, req, current);
  const times = timesFor(deps, req, current, zone, now);
  const venues = plan.venues ? await linkedIds(deps, user, VENUE, plan.venues) : undefined;
  const organizers = plan.organizers ? await linkedIds(deps, user, ORGANIZER, plan.organizers) : undefined;
  const tax: Record<string, number[]> = { [CATEGORY_TAXONOMY]: [], [TAG_TAXONOMY]: [], ...(current?.tax ?? {}) };
  if (plan.categories) tax[CATEGORY_TAXONOMY] = await termIds(deps, CATEGORY_TAXONOMY, plan.categories);
  if (plan.tags) tax[TAG_TAXONOMY] = await termIds(deps, TAG_TAXONOMY, plan.tags);

  const derived = eventMetaChanges(current, metaChanges(req, times, !current, venues, organizers), deps.site.timezone);
  const pubDate = publicationDate(req, zone, now) ?? current?.date_gmt ?? now;
  const status = statusForDate(scaleStatus(user, 'vendor_event', req.has('status') ? String(req.get('status')) : undefined, current?.status), pubDate, now);
  const text = (name: string) => {
    const v = req.get(name);
    return req.has(name) && typeof v === 'string' ? v : undefined;
  };

  const fields: Partial<PostDoc> = {
    ...derived,
    tax,
    status,
    date: mysqlLocal(pubDate, deps.site.timezone),
    date_gmt: pubDate,
    modified: mysqlLocal(now, deps.site.timezone),
    modified_gmt: now,
  };
  // Writers without unfiltered_html save titles, descriptions and excerpts through the reference's kses filters.
  const filter = textFilterFor(user);
  const [title, description, excerpt] = [text('title'), text('description'), text('excerpt')];
  if (title !== undefined) fields.title = filter.title(title.trim());
  if (description !== undefined) fields.content = filter.html(description);
  if (excerpt !== undefined) fields.excerpt = filter.html(excerpt);
  if (req.has('author')) fields.author = Number(req.get('author'));
  if (req.has('sticky')) fields.menu_order = req.get('sticky') === true ? -1 : 0;
  const password = req.get('password');
  if (req.has('password') && typeof password === 'string') fields.password = password;
  Object.assign(fields, postFieldChanges(req));

  if (!current) {
    const id = await deps.posts.nextId();
    const slug = await uniquePostSlug(deps.posts, sanitizeTitle(text('slug') ?? fields.title ?? '') || String(id), {
      type: EVENT_TYPE,
      hierarchical: false,
    });
    const doc = newCalendarRecord(deps.site, now, { id, type: EVENT_TYPE, slug, status, author: user?.id ?? 0, ...fields });
    if (plan.image) doc.featured_media = await storeImage(deps, user, plan.image, id);
    const saved = await deps.posts.create(doc);
    await deps.terms.countWrite(null, saved);
    return saved;
  }

  if (text('slug') !== undefined)
    fields.slug = await uniquePostSlug(deps.posts, sanitizeTitle(text('slug')!) || String(current.id), {
      type: EVENT_TYPE,
      hierarchical: false,
      selfId: current.id,
      currentSlug: current.slug,
    });
  if (plan.image) fields.featured_media = await storeImage(deps, user, plan.image, current.id);
  const saved = await deps.posts.save(current.id, fields);
  if (!saved) throw calendarErrors.eventNotFound(current.id);
  await deps.terms.countWrite(current, saved);
  return saved;
}
