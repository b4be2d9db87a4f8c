/**
 * An import job (insert.ts): what the aggregator service hands a worker for each step of a batch and
 * what the worker answers, what a worker runs it with, and the import meta both steps put on the
 * records they write (origin, global id and lineage).
 */
import type { MediaLibrary } from '#libs/media/library';
import type { FetchPolicy } from '#libs/net/outbound';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { Activity } from './activity';
import type { Identity } from '../items/identity';
import type { LinkedSpec } from '../items/linked';
import { EVENT_ORIGIN, IMPORT_META, type EaEvent } from '../items/items';

export interface InsertDeps {
  store: Store;
  posts: PostsRepository;
  terms: TermsRepository;
  site: Site;
  now: () => Date;
  /** Where events' image URLs are copied to, and the outbound policy of those fetches. */
  images?: { library: MediaLibrary; policy: FetchPolicy };
  /** Told of every venue the step stored (created or changed): asks for its geocoding (extended edition). */
  venueWritten?: (venue: PostDoc) => void;
}

/** What both steps know about the batch. */
export interface BatchContext {
  importId: string;
  recordId: number;
  /** `<import id>:<hash>`: the batch's identity, stored on what it creates. */
  batchRef: string;
  origin: string;
  /** Status of new records (the record's post_status). */
  postStatus: string;
  author: number;
}

export interface LinkedStep extends BatchContext {
  step: 'linked';
  venues: LinkedSpec[];
  organizers: LinkedSpec[];
  categories: string[];
  tags: string[];
}

export interface LinkedResult {
  /** Venue and organizer ids by the `ref` the batch's events use. */
  venues: Record<string, number>;
  organizers: Record<string, number>;
  /** Term ids by name as sent. */
  categories: Record<string, number>;
  tags: Record<string, number>;
  activity: Activity;
}

/** One event of a slice, with its linked records and terms already resolved to ids. */
export interface EventSpec {
  index: number;
  /** The event as sent, less its venue, organizer, categories and tags (the service resolved them to the ids below). */
  item: EaEvent;
  identity: Identity & { primary: string };
  /** Venue id; absent when the item names none (an update then keeps the stored one). */
  venue?: number;
  /** Organizer ids; absent when the item names none. */
  organizers?: number[];
  categories: number[];
  tags: number[];
  /** The fingerprint of the feed item (an import source's), stored so an unchanged re-import writes nothing. */
  fingerprint?: string;
}

export interface EventsStep extends BatchContext {
  step: 'events';
  events: EventSpec[];
}

export interface EventsResult {
  /** Created, updated ids in the order of the slice's events. */
  activity: Activity;
  /**
   * How the published-record count of each term changes, as [term id, change] pairs: the service adds
   * them once the whole batch is stored (counting again would read every record of each term, for every batch).
   */
  counts: Array<[number, number]>;
}

export type ImportJob = LinkedStep | EventsStep;

declare module '../../../libs/queue/types' {
  interface JobPayloads {
    /** One step of a pushed batch (store-items.ts), run by a worker (insert.ts). */
    'import.batch': { data: ImportJob; result: LinkedResult | EventsResult };
  }
}

/** The origin meta of every record a batch creates. */
export const ORIGIN_META = (ctx: BatchContext) => ({
  [IMPORT_META.eventOrigin]: EVENT_ORIGIN,
  [IMPORT_META.origin]: ctx.origin,
  [IMPORT_META.record]: ctx.recordId,
});

/** Global id and lineage meta of an identity. */
export function identityMeta(identity: Identity): Record<string, unknown> {
  const globals = identity.keys.filter((k) => k.startsWith('g:')).map((k) => k.slice(2));
  const m: Record<string, unknown> = {};
  if (identity.primary?.startsWith('g:')) m[IMPORT_META.globalId] = identity.primary.slice(2);
  if (globals.length > 1) m[IMPORT_META.lineage] = globals.slice(1);
  return m;
}

/** The union of two lists, in order, without repeats. */
export const union = <T>(a: T[] | undefined, b: T[]): T[] => [...new Set([...(a ?? []), ...b])];
/** The identity keys a stored record answers to (`ea_ids`: a list of strings), when it has any. */
export const eaIdsOf = (doc: PostDoc): string[] | undefined =>
  Array.isArray(doc.ea_ids) ? doc.ea_ids.filter((k): k is string => typeof k === 'string') : undefined;

/** Whether two values are the same as JSON. */
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
