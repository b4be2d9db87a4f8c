/**
 * Import records (the reference's `tribe-ea-record` posts): one post record per import, whose meta
 * holds the import id, the hash of the next expected batch, the progress and the accumulated activity,
 * with the import id copied to an indexed top-level field. Every change after creation is a
 * compare-and-set on (status pending, stored hash), so two deliveries of one batch, or a batch racing a
 * state report, can never both move the import on.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import type { Update } from '#libs/store/types';
import { emptyActivity, mergeActivity, type Activity } from './activity';

export const RECORD_TYPE = 'vendor-ea-record';
export const ERROR_COMMENT_TYPE = 'vendor-ea-error';

export const RECORD_STATUS = {
  pending: 'vendor-ea-pending',
  success: 'vendor-ea-success',
  failed: 'vendor-ea-failed',
  schedule: 'vendor-ea-schedule',
  draft: 'vendor-ea-draft',
} as const;

/** Meta keys of a record (the reference's `_tribe_aggregator_*`, renamed). */
export const RECORD_META = {
  importId: '_vendor_aggregator_import_id',
  nextBatchHash: '_vendor_aggregator_next_batch_hash',
  percentage: '_vendor_aggregator_percentage_complete',
  totalEvents: '_vendor_aggregator_total_events',
  activity: '_vendor_aggregator_activity',
  origin: '_vendor_aggregator_origin',
  postStatus: '_vendor_aggregator_post_status',
  type: '_vendor_aggregator_type',
  message: '_vendor_aggregator_message',
  messageSlug: '_vendor_aggregator_message_slug',
  /** How many times processing of the current batch failed; part of the job ids, so a resend runs anew. */
  batchAttempt: '_vendor_aggregator_batch_attempt',
} as const;

/** An error logged on a record (the reference's comment of type `tribe-ea-error`). */
export interface ErrorComment {
  type: typeof ERROR_COMMENT_TYPE;
  code: string;
  message: string;
  date_gmt: Date;
}

export interface ImportRecordDoc extends PostDoc {
  import_id: string;
  comments?: ErrorComment[];
}

/** A post that is an import record: of the record type, with the import id every record is created with. */
export function isImportRecord(doc: PostDoc | null | undefined): doc is ImportRecordDoc {
  return !!doc && doc.type === RECORD_TYPE && typeof doc.import_id === 'string';
}

/** The post status events of an origin get when the record names none (the reference's default_post_status). */
export const DEFAULT_POST_STATUS = 'publish';

/** A fresh batch hash: 32 hex characters (the reference: md5 of a uniqid). */
export function newBatchHash(): string {
  return randomBytes(16).toString('hex');
}

/** A fresh import id: word characters only, as the routes require. */
export function newImportId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The reference's hash_equals, failing closed: false when nothing is stored. Both sides are digested
 * first so the comparison takes the same time whatever the lengths.
 */
export function hashMatches(stored: unknown, given: unknown): boolean {
  if (typeof stored !== 'string' || stored === '' || typeof given !== 'string') return false;
  const a = createHash('sha256').update(stored).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b) && stored.length === given.length;
}

export class ImportRecords {
  constructor(
    private readonly posts: PostsRepository,
    private readonly site: Site,
  ) {}

  /** The record of an import id, in one of the statuses (any status when none is given). */
  async byImportId(importId: string, statuses?: string[]): Promise<ImportRecordDoc | null> {
    const doc = await this.posts.findOne({ import_id: importId, type: RECORD_TYPE }, { sort: [['id', 1]] });
    if (!isImportRecord(doc)) return null;
    return !statuses || statuses.includes(doc.status) ? doc : null;
  }

  /** Creates a pending record whose first expected batch is `batchHash`. */
  async create(o: { importId?: string; origin?: string; postStatus?: string; author?: number; batchHash?: string; now?: Date }): Promise<ImportRecordDoc> {
    const now = o.now ?? new Date();
    const importId = o.importId ?? newImportId();
    if (!/^\w+$/.test(importId)) throw new Error('an import id is made of letters, digits and underscores');
    const origin = o.origin ?? 'json';
    const id = await this.posts.nextId();
    const meta: Record<string, unknown> = {
      [RECORD_META.importId]: importId,
      [RECORD_META.nextBatchHash]: o.batchHash ?? newBatchHash(),
      [RECORD_META.origin]: origin,
      [RECORD_META.type]: 'manual',
      [RECORD_META.activity]: emptyActivity(),
    };
    if (o.postStatus) meta[RECORD_META.postStatus] = o.postStatus;
    const doc: ImportRecordDoc = {
      ...newCalendarRecord(this.site, now, {
        id,
        type: RECORD_TYPE,
        status: RECORD_STATUS.pending,
        slug: '',
        title: `Record: manual ${origin}`,
        author: o.author ?? 0,
        meta,
        import_id: importId,
      }),
      import_id: importId,
    };
    await this.posts.create(doc);
    return doc;
  }

  /**
   * Applies `update` only while the record is pending and still expects `hash`; returns the record
   * after the change, or null when another request moved it on first.
   */
  async advance(record: ImportRecordDoc, hash: string, update: Update): Promise<ImportRecordDoc | null> {
    const doc = await this.posts.updateWhile(record.id, { status: RECORD_STATUS.pending, [`meta.${RECORD_META.nextBatchHash}`]: hash }, update);
    return isImportRecord(doc) ? doc : null;
  }

  /** The activity stored on the record merged with a batch's. */
  static mergedActivity(record: ImportRecordDoc, batch: Activity): Activity {
    return mergeActivity(record.meta?.[RECORD_META.activity], batch);
  }
}
