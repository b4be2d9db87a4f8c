/**
 * Stores a list of import items through the import steps (insert.ts): one `linked` step for the
 * venues, organizers and terms of the whole list, then its events in slices, one `events` step each,
 * run at once, and answers with what they did. Where the steps run is the caller's choice, given as
 * data: a pushed batch's run on workers as `import.batch` jobs, a feed run (already on a worker) runs
 * them in its own process. Every event's text is filtered as third-party text first (items/filter.ts).
 * Term counts are returned, not applied, so the caller applies them once the whole import moved on
 * (TermsRepository.moveCounts).
 */
import { sanitizeTitle } from '#libs/posts/slug';
import type { JobQueue } from '#libs/queue/types';
import { mergeActivity, type Activity } from './activity';
import type { BatchContext, EventSpec, EventsResult, ImportJob, InsertDeps, LinkedResult } from './insert-job';
import { eventIdentity } from '../items/identity';
import { organizersOf, termNames, venueOf, type LinkedSpec } from '../items/linked';
import { thirdPartyItem } from '../items/filter';
import type { EaEvent } from '../items/items';
import { runImportJob } from './insert';

/**
 * Where the steps of a list run: `here`, in this process with these deps; or on workers through
 * `queue`, each step an `import.batch` job with the id `<jobBase>-<part>` (`part` names the step
 * within the list: `linked`, `events-0`, ...), so a delivery of the same batch while it runs joins
 * the running jobs.
 */
export type StepPlace = { here: InsertDeps } | { queue: JobQueue; jobBase: string; timeoutMs: number };

function runStep(place: StepPlace, job: ImportJob, part: string): Promise<LinkedResult | EventsResult> {
  if ('here' in place) return runImportJob(place.here, job);
  return place.queue.run('import.batch', job, { jobId: `${place.jobBase}-${part}`, timeoutMs: place.timeoutMs });
}

/** A step's answer, which crossed the queue as JSON: the linked step's ids by name and ref. */
function linkedAnswer(r: LinkedResult | EventsResult): LinkedResult {
  if ('venues' in r && 'organizers' in r && 'categories' in r && 'tags' in r) return r;
  throw new Error('the linked step of an import answered something else');
}

/** An events step's answer: its activity and its term count changes. */
function eventsAnswer(r: LinkedResult | EventsResult): EventsResult {
  if ('counts' in r && Array.isArray(r.counts)) return r;
  throw new Error('an events step of an import answered something else');
}

export interface StoredEvents {
  activity: Activity;
  /** How the published-record count of each term moved. */
  counts: Map<number, number>;
}

/** Fields of an event a worker is given as ids (EventSpec's venue, organizers, categories and tags), not as sent. */
const RESOLVED_FIELDS = ['venue', 'organizer', 'categories', 'tags'] as const satisfies ReadonlyArray<keyof EaEvent>;

/** An event as an `events` job carries it: without the objects its linked records and terms were read from. */
function jobItem(item: EaEvent): EaEvent {
  const out: EaEvent = { ...item };
  for (const k of RESOLVED_FIELDS) delete out[k];
  return out;
}

/**
 * Splits a batch's events into slices of about `size`. Events that share an identity or a slug go to
 * the same slice, so slices running at once never race for one record or one slug.
 */
export function slices(specs: EventSpec[], size: number): EventSpec[][] {
  const out: EventSpec[][] = [];
  const byKey = new Map<string, number>();
  const bySlug = new Map<string, number>();
  for (const spec of specs) {
    const slug = sanitizeTitle(spec.item.title);
    let k = spec.identity.keys.map((key) => byKey.get(key)).find((x) => x !== undefined) ?? bySlug.get(slug);
    if (k === undefined) {
      if (out.length === 0 || out[out.length - 1].length >= size) out.push([]);
      k = out.length - 1;
    }
    out[k].push(spec);
    for (const key of spec.identity.keys) if (!byKey.has(key)) byKey.set(key, k);
    if (!bySlug.has(slug)) bySlug.set(slug, k);
  }
  return out;
}

export async function storeItems(o: {
  base: BatchContext;
  events: EaEvent[];
  sliceSize: number;
  place: StepPlace;
  /** Event category ids every event gets besides its own (an import source's categories). */
  extraCategories?: number[];
  /** The feed items' fingerprints, by index of `events` (import sources). */
  fingerprints?: string[];
}): Promise<StoredEvents> {
  const { base } = o;
  // Feed text is third-party text: filtered here, the one point every imported event passes.
  const events = o.events.map(thirdPartyItem);
  // What the events link to, deduplicated for the whole batch.
  const venues = new Map<string, LinkedSpec>();
  const organizers = new Map<string, LinkedSpec>();
  const categories = new Map<string, string>();
  const tags = new Map<string, string>();
  const plan = events.map((item, index) => {
    const identity = eventIdentity(item, base.origin);
    // An event without a global or unique id is named by its place in this batch, so a retry finds it.
    const primary = identity.primary ?? `b:${base.batchRef}:${index}`;
    const venue = venueOf(item, base.origin);
    if (venue && !venues.has(venue.ref)) venues.set(venue.ref, venue);
    const orgs = organizersOf(item, base.origin);
    for (const o of orgs) if (!organizers.has(o.ref)) organizers.set(o.ref, o);
    const cats = termNames(item.categories);
    const tagNames = termNames(item.tags);
    for (const n of cats) if (!categories.has(n.toLowerCase())) categories.set(n.toLowerCase(), n);
    for (const n of tagNames) if (!tags.has(n.toLowerCase())) tags.set(n.toLowerCase(), n);
    return { item, index, identity: { keys: identity.primary ? identity.keys : [...identity.keys, primary], primary }, venue, orgs, cats, tagNames };
  });

  const needsLinked = venues.size + organizers.size + categories.size + tags.size > 0;
  const linked: LinkedResult = needsLinked
    ? linkedAnswer(
        await runStep(
          o.place,
          {
            step: 'linked',
            ...base,
            venues: [...venues.values()],
            organizers: [...organizers.values()],
            categories: [...categories.values()],
            tags: [...tags.values()],
          },
          'linked',
        ),
      )
    : { venues: {}, organizers: {}, categories: {}, tags: {}, activity: mergeActivity() };
  const termId = (byName: Record<string, number>, all: Map<string, string>, n: string) => byName[all.get(n.toLowerCase())!];
  const extra = o.extraCategories ?? [];
  const specs: EventSpec[] = plan.map((e) => {
    const own = e.cats.map((n) => termId(linked.categories, categories, n));
    return {
      index: e.index,
      item: jobItem(e.item),
      identity: e.identity,
      ...(e.venue ? { venue: linked.venues[e.venue.ref] } : {}),
      ...(e.orgs.length ? { organizers: e.orgs.map((org) => linked.organizers[org.ref]) } : {}),
      categories: extra.length ? [...new Set([...own, ...extra])] : own,
      tags: e.tagNames.map((n) => termId(linked.tags, tags, n)),
      ...(o.fingerprints?.[e.index] ? { fingerprint: o.fingerprints[e.index] } : {}),
    };
  });
  const parts = await Promise.all(
    slices(specs, o.sliceSize).map((slice, k) => runStep(o.place, { step: 'events', ...base, events: slice }, `events-${k}`).then(eventsAnswer)),
  );
  const counts = new Map<number, number>();
  for (const part of parts) for (const [id, by] of part.counts) counts.set(id, (counts.get(id) ?? 0) + by);
  return { activity: mergeActivity(linked.activity, ...parts.map((r) => r.activity)), counts };
}
