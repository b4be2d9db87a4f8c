/**
 * The `linked` step of an import job (insert.ts): a batch's venues and organizers matched against the
 * store with one query and updated or created in bulk, its categories and tags found or created; the
 * answer maps each to its id.
 */
import { CATEGORY_TAXONOMY, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_META, VENUE_TYPE } from '#libs/calendar/meta';
import { newCalendarRecord, storeRecords, type RecordWrite } from '#libs/calendar/save';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostDoc } from '#libs/posts/types';
import { mysqlLocal } from '#libs/dates/format';
import type { Filter } from '#libs/store/types';
import { DuplicateKeyError } from '#libs/store/types';
import type { TermDoc } from '#libs/terms/repository';
import { addActivity, emptyActivity, type Activity } from './activity';
import { ORIGIN_META, eaIdsOf, identityMeta, sameJson, union, type InsertDeps, type LinkedResult, type LinkedStep } from './insert-job';
import { placeText, type LinkedSpec } from '../items/linked';
import { IMPORT_META } from '../items/items';

/** The post types of linked records. */
type LinkedType = typeof VENUE_TYPE | typeof ORGANIZER_TYPE;

/** Matches, updates and creates the batch's venues and organizers, then finds or creates its terms. */
export async function storeLinked(deps: InsertDeps, job: LinkedStep): Promise<LinkedResult> {
  const activity = emptyActivity();
  const now = deps.now();
  const linkedOf = (type: LinkedType) => (s: LinkedSpec) => ({ type, s });
  const specs = [...job.venues.map(linkedOf(VENUE_TYPE)), ...job.organizers.map(linkedOf(ORGANIZER_TYPE))];
  const keys = [...new Set(specs.flatMap((x) => x.s.identity.keys))];
  const slugs = [...new Set(specs.map((x) => sanitizeTitle(x.s.name)).filter(Boolean))];
  const or: Filter[] = [];
  if (keys.length) or.push({ ea_ids: { $in: keys } });
  if (slugs.length) or.push({ type: { $in: [VENUE_TYPE, ORGANIZER_TYPE] }, slug: { $in: slugs } });
  // One query for every venue and organizer of the batch, each branch an index lookup (a condition on
  // type around the identity branch would make the store walk every record of the type instead).
  const found = (or.length ? await deps.posts.find({ $or: or }, { sort: [['id', 1]] }) : []).filter(
    (d) => (d.type === VENUE_TYPE || d.type === ORGANIZER_TYPE) && d.status !== 'trash',
  );

  // Where the first record of each type (in id order) answering to a key, or bearing a title, sits in
  // `found`: a venue or organizer matches the first record that has one of its keys, else its name.
  const positions = new Map<string, { byKey: Map<string, number>; byTitle: Map<string, number[]> }>();
  for (const type of [VENUE_TYPE, ORGANIZER_TYPE]) positions.set(type, { byKey: new Map(), byTitle: new Map() });
  found.forEach((d, i) => {
    const at = positions.get(d.type)!;
    for (const k of eaIdsOf(d) ?? []) if (!at.byKey.has(k)) at.byKey.set(k, i);
    const title = d.title.trim().toLowerCase();
    at.byTitle.set(title, [...(at.byTitle.get(title) ?? []), i]);
  });
  /** A venue of that name matches by name only where one of the two has no address, else by address too. */
  const samePlace = (type: LinkedType, s: LinkedSpec, d: PostDoc) => {
    if (type !== VENUE_TYPE) return true;
    const mine = placeText(s.meta[VENUE_META.address]);
    const theirs = placeText(d.meta?.[VENUE_META.address]);
    return !mine || !theirs || mine === theirs;
  };

  const ids: Record<string, Record<string, number>> = { [VENUE_TYPE]: {}, [ORGANIZER_TYPE]: {} };
  /** What the step stores (libs/calendar/save.ts), each with the spec it stores and whether it is new. */
  const writes: RecordWrite[] = [];
  const stored: Array<{ type: LinkedType; s: LinkedSpec; created: boolean }> = [];
  for (const { type, s } of specs) {
    const at = positions.get(type)!;
    let first: number | undefined;
    for (const k of s.identity.keys) {
      const p = at.byKey.get(k);
      if (p !== undefined && (first === undefined || p < first)) first = p;
    }
    const pos = first ?? at.byTitle.get(s.name.toLowerCase())?.find((i) => samePlace(type, s, found[i]));
    const match = pos === undefined ? undefined : found[pos];
    if (!match) {
      writes.push({
        before: null,
        slug: sanitizeTitle(s.name),
        after: newCalendarRecord(deps.site, now, {
          id: 0,
          type,
          status: job.postStatus,
          slug: '',
          title: s.name,
          content: s.description ?? '',
          excerpt: s.excerpt ?? '',
          author: job.author,
          meta: { ...s.meta, ...identityMeta(s.identity), ...ORIGIN_META(job), [IMPORT_META.createdBy]: job.batchRef },
          ...(s.identity.keys.length ? { ea_ids: s.identity.keys } : {}),
          ...(s.identity.primary ? { ea_key: `${type}|${s.identity.primary}` } : {}),
        }),
      });
      stored.push({ type, s, created: true });
      continue;
    }
    stored.push({ type, s, created: match.meta?.[IMPORT_META.createdBy] === job.batchRef });
    const changes: Partial<PostDoc> = {
      title: s.name,
      meta: {
        ...(match.meta ?? {}),
        ...s.meta,
        ...identityMeta(s.identity),
        ...(match.meta?.[IMPORT_META.globalId] ? { [IMPORT_META.globalId]: match.meta[IMPORT_META.globalId] } : {}),
      },
      ea_ids: union(eaIdsOf(match), s.identity.keys),
    };
    if (s.description !== undefined) changes.content = s.description;
    if (s.excerpt !== undefined) changes.excerpt = s.excerpt;
    // An unchanged record keeps its modified date.
    const differs = Object.entries(changes).some(([k, v]) => !sameJson(v, match[k]));
    if (differs) writes.push({ before: match, after: { ...match, ...changes, modified: mysqlLocal(now, deps.site.timezone), modified_gmt: now } });
    else writes.push({ before: match, after: match });
  }

  const { records } = await storeRecords(deps, writes);
  // The activity lists the records found first, then the new ones, each in the batch's order.
  const order = [...stored.keys()].sort((a, b) => Number(!writes[a].before) - Number(!writes[b].before));
  for (const i of order) {
    const { type, s, created } = stored[i];
    const id = records[i]?.id ?? writes[i].after.id;
    ids[type][s.ref] = id;
    addActivity(activity, type, created ? 'created' : 'updated', id);
  }
  // Once stored: a venue whose address is new or changed is geocoded on workers (never waited for).
  writes.forEach((w, i) => {
    const venue = records[i];
    if (venue && venue.type === VENUE_TYPE && w.before !== w.after) deps.venueWritten?.(venue);
  });

  const categories = await storeTerms(deps, CATEGORY_TAXONOMY, job.categories, job.batchRef, activity);
  const tags = await storeTerms(deps, TAG_TAXONOMY, job.tags, job.batchRef, activity);
  return { venues: ids[VENUE_TYPE], organizers: ids[ORGANIZER_TYPE], categories, tags, activity };
}

/** Term ids by name: found by slug or name (the reference's term_exists), else created (and marked with the batch that did). */
async function storeTerms(
  deps: InsertDeps,
  taxonomy: typeof CATEGORY_TAXONOMY | typeof TAG_TAXONOMY,
  names: string[],
  batchRef: string,
  activity: Activity,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (names.length === 0) return out;
  const slugs = names.map((n) => sanitizeTitle(n)).filter(Boolean);
  const find = () => deps.terms.find({ taxonomy, $or: [{ slug: { $in: slugs } }, { name: { $in: names } }] }, { sort: [['id', 1]] });
  const match = (found: TermDoc[], name: string) =>
    found.find((t) => t.slug === sanitizeTitle(name)) ?? found.find((t) => t.name.toLowerCase() === name.toLowerCase());
  let found = await find();
  for (const name of names) {
    let term = match(found, name);
    if (term?.[IMPORT_META.createdBy] === batchRef) addActivity(activity, taxonomy, 'created', term.id);
    if (!term) {
      try {
        term = await deps.terms.create({ taxonomy, name });
        await deps.terms.setMark(term.id, IMPORT_META.createdBy, batchRef);
        addActivity(activity, taxonomy, 'created', term.id);
      } catch (e) {
        // Another worker created it first.
        if (!(e instanceof DuplicateKeyError)) throw e;
        found = await find();
        term = match(found, name);
        if (!term) throw e;
      }
      found.push(term);
    }
    out[name] = term.id;
  }
  return out;
}
