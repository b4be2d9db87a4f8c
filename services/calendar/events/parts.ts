/**
 * What an event record embeds besides itself, in presented form: its venue and organizers, categories
 * and tags, and its image. What is not kept already is loaded for a whole page at once by the
 * calendar's one loader of related records (../related.ts: one query for the linked records and images,
 * one more when those have images of their own, one for the terms), and kept in the read cache, so a
 * page of events usually costs only the query for the events themselves.
 */
import { canReadRecord, type Caller } from '#libs/auth/user';
import { ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import type { CalendarDeps } from '../deps';
import type { KeptLinked, Presented } from '../read-cache';
import { EMPTY_RELATED, loadRelatedIds, type Related } from '../related';
import { presentImage } from '../images';
import type { LinkedKindDef } from '../linked/kind';
import { presentLinked } from '../linked/present';
import { ORGANIZER } from '../organizers/kind';
import { VENUE } from '../venues/kind';
import { embeddedTerm } from '../terms/present';

export interface EventParts {
  /** The presented venue or organizer, or undefined when the id names no live record of that kind the caller may read. */
  linked(kind: LinkedKindDef, id: number): Presented | undefined;
  term(id: number): Presented | undefined;
  image(id: number): Presented | false;
}

const KINDS: Record<string, LinkedKindDef> = { [VENUE_TYPE]: VENUE, [ORGANIZER_TYPE]: ORGANIZER };

/**
 * A venue or organizer the caller may not read (a draft, pending or private one of someone else, as a
 * single read of it would refuse) is left out as if the event had none. What `known` holds (what a
 * write read or wrote inside its unit of work: the answer to it needs no second read) is taken from the
 * kept parts where they are still current (no write has touched it since they were kept, so they show
 * what it holds), else presented from it and not kept, since it was read before the stamps the kept
 * parts would get.
 */
export async function loadEventParts(
  deps: CalendarDeps,
  events: PostDoc[],
  single: boolean,
  user: Caller,
  known: Related = EMPTY_RELATED,
): Promise<EventParts> {
  const { cache, site } = deps;
  const linkedKey = (id: number) => `linked:${single ? 1 : 0}:${id}`;
  const linked = new Map<number, KeptLinked | null>();
  const terms = new Map<number, Presented | null>();
  const images = new Map<number, Presented | false>();
  const missingPosts = new Set<number>();
  const missingTerms = new Set<number>();
  const knownPosts = new Set<number>();
  const knownTerms = new Set<number>();

  // What the kept parts are valid for, read once for the whole page (nothing is written in between)
  // rather than at each of its peeks.
  const now = Date.now();
  const at = { linked: cache.linked.stamp(), images: cache.images.stamp(), terms: cache.terms.stamp() };
  for (const e of events) {
    for (const id of [...(e.venues ?? []), ...(e.organizers ?? [])]) {
      if (linked.has(id) || knownPosts.has(id)) continue;
      // A kept presentation still current is what the known record would give (its stamp holds no write since).
      const hit = cache.linked.peek(linkedKey(id), at.linked, now);
      if (hit !== undefined) linked.set(id, hit);
      else if (known.posts.has(id)) knownPosts.add(id);
      else missingPosts.add(id);
    }
    if (e.featured_media && !images.has(e.featured_media)) {
      const hit = cache.images.peek(`image:${e.featured_media}`, at.images, now);
      if (hit !== undefined) images.set(e.featured_media, hit);
      else missingPosts.add(e.featured_media);
    }
    for (const id of e.terms ?? []) {
      if (terms.has(id) || knownTerms.has(id)) continue;
      const hit = cache.terms.peek(`term:${id}`, at.terms, now);
      if (hit !== undefined) terms.set(id, hit);
      else if (known.terms.has(id)) knownTerms.add(id);
      else missingTerms.add(id);
    }
  }

  const mark = cache.linked.stamp();
  const loaded = await loadRelatedIds(
    deps,
    knownPosts.size ? new Set([...missingPosts, ...knownPosts]) : missingPosts,
    knownTerms.size ? new Set([...missingTerms, ...knownTerms]) : missingTerms,
    known,
  );
  const posts = loaded.posts;
  // Linked records are embedded without their own terms.
  const related = { posts, terms: new Map() };
  const present = (doc: PostDoc, kind: LinkedKindDef): KeptLinked | null =>
    doc.status === 'trash' ? null : { type: doc.type, author: doc.author, status: doc.status, record: presentLinked(kind, doc, site, related, { single }) };
  for (const id of knownPosts) {
    const doc = posts.get(id)!;
    const kind = KINDS[doc.type];
    linked.set(id, kind ? present(doc, kind) : null);
  }
  for (const id of knownTerms) terms.set(id, embeddedTerm(site, loaded.terms.get(id)!));
  for (const id of missingPosts) {
    const doc = posts.get(id);
    const kind = doc ? KINDS[doc.type] : undefined;
    if (doc && kind) {
      const kept = present(doc, kind);
      linked.set(id, kept);
      cache.linked.keep(linkedKey(id), kept, mark);
    } else if (events.some((e) => e.featured_media === id)) {
      const image = presentImage(doc);
      images.set(id, image);
      cache.images.keep(`image:${id}`, image, mark);
    } else {
      linked.set(id, null);
      cache.linked.keep(linkedKey(id), null, mark);
    }
  }
  for (const id of missingTerms) {
    const t = loaded.terms.get(id);
    const presented = t ? embeddedTerm(site, t) : null;
    terms.set(id, presented);
    cache.terms.keep(`term:${id}`, presented, mark);
  }

  return {
    linked: (kind, id) => {
      const kept = linked.get(id);
      return kept && kept.type === kind.type && canReadRecord(user, kind.cap, kept) ? kept.record : undefined;
    },
    term: (id) => terms.get(id) ?? undefined,
    image: (id) => images.get(id) ?? false,
  };
}
