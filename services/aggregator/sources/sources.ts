/**
 * Import sources (vendor/event-aggregator/v1/sources): the reference's scheduled import records. A source is an
 * import record in the `schedule` status whose meta names the feed (a URL, or an uploaded file), what
 * imported events get and how often it runs; each run is a child import record (pending, then success
 * or failed) holding the run's progress, counts and errors, as the reference's child records do.
 * Workers run sources (import/source-run.ts): at once when created or asked to, then on their schedule;
 * the routes that manage them are handlers.ts.
 */
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostsRepository } from '#libs/posts/repository';
import { mysqlLocal } from '#libs/dates/format';
import type { Site } from '#libs/rest/site';
import {
  REMOVED_POLICIES,
  SOURCE_ORIGINS,
  SOURCE_SCHEDULES,
  type RemovedPolicy,
  type SourceOrigin,
  type SourceSchedule,
} from '#libs/routes/aggregator/sources';
import { ACTIVITY_KINDS, type Activity } from '../storage/activity';
import {
  ERROR_COMMENT_TYPE,
  RECORD_META,
  RECORD_STATUS,
  RECORD_TYPE,
  newImportId,
  type ErrorComment,
  type ImportRecordDoc,
  isImportRecord,
} from '../storage/records';

/** Meta keys of a source, beside the record's own (origin, post status). */
export const SOURCE_META = {
  source: '_vendor_aggregator_source',
  file: '_vendor_aggregator_file',
  categories: '_vendor_aggregator_category',
  timezone: '_vendor_aggregator_timezone',
  frequency: '_vendor_aggregator_frequency',
  onRemoved: '_vendor_aggregator_on_removed',
  etag: '_vendor_aggregator_etag',
  lastModified: '_vendor_aggregator_last_modified',
  lastRun: '_vendor_aggregator_last_run',
  /** The queue job a run belongs to: a retried job finds its run again. */
  job: '_vendor_aggregator_job',
  counts: '_vendor_aggregator_counts',
  interval: '_vendor_aggregator_interval',
} as const;

const SCHEDULE_MS: Record<Exclude<SourceSchedule, 'once'>, number> = {
  hourly: 3_600_000,
  daily: 86_400_000,
  weekly: 604_800_000,
};

export interface Source {
  id: number;
  title: string;
  origin: SourceOrigin;
  url: string;
  file: string;
  postStatus: string;
  categories: number[];
  timezone: string;
  schedule: SourceSchedule;
  /** Seconds between runs asked instead of the schedule's period (0: none). */
  interval: number;
  onRemoved: RemovedPolicy;
  author: number;
  etag: string;
  lastModified: string;
  lastRun: number;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** A stored value that is one of `allowed`, else `fallback` (the routes only store allowed values). */
const oneOf = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T => allowed.find((a) => a === v) ?? fallback;

export function sourceOf(doc: ImportRecordDoc): Source {
  const m = doc.meta ?? {};
  const categories = m[SOURCE_META.categories];
  return {
    id: doc.id,
    title: doc.title,
    origin: oneOf(m[RECORD_META.origin], SOURCE_ORIGINS, 'ical'),
    url: str(m[SOURCE_META.source]),
    file: str(m[SOURCE_META.file]),
    postStatus: str(m[RECORD_META.postStatus]) || 'publish',
    categories: Array.isArray(categories) ? categories.filter((n): n is number => typeof n === 'number') : [],
    timezone: str(m[SOURCE_META.timezone]),
    schedule: oneOf(m[SOURCE_META.frequency], SOURCE_SCHEDULES, 'once'),
    interval: num(m[SOURCE_META.interval]),
    onRemoved: oneOf(m[SOURCE_META.onRemoved], REMOVED_POLICIES, 'keep'),
    author: doc.author,
    etag: str(m[SOURCE_META.etag]),
    lastModified: str(m[SOURCE_META.lastModified]),
    lastRun: num(m[SOURCE_META.lastRun]),
  };
}

/** Created, updated and skipped records per kind, from an activity. */
export type RunCounts = Record<string, { created: number; updated: number; skipped: number }>;
export function countsOf(activity: Activity): RunCounts {
  const out: RunCounts = {};
  for (const kind of ACTIVITY_KINDS) {
    const a = activity[kind];
    if (a.created.length || a.updated.length || a.skipped.length)
      out[kind] = { created: a.created.length, updated: a.updated.length, skipped: a.skipped.length };
  }
  return out;
}

export const scheduleKey = (id: number) => `import-source-${id}`;

/** Milliseconds between runs of a source; 0 when it runs once. */
export function periodOf(s: Pick<Source, 'schedule' | 'interval'>): number {
  if (s.schedule === 'once') return 0;
  return s.interval > 0 ? s.interval * 1000 : SCHEDULE_MS[s.schedule];
}

export class Sources {
  constructor(private readonly deps: { posts: PostsRepository; site: Site; now: () => Date }) {}

  async get(id: number): Promise<ImportRecordDoc | null> {
    const doc = await this.deps.posts.ofType(id, RECORD_TYPE);
    return isImportRecord(doc) && doc.status === RECORD_STATUS.schedule ? doc : null;
  }

  /** A run of some source, by id. */
  async runRecord(id: number): Promise<ImportRecordDoc | null> {
    const doc = await this.deps.posts.ofType(id, RECORD_TYPE);
    return isImportRecord(doc) && doc.status !== RECORD_STATUS.schedule ? doc : null;
  }

  async page(page: number, perPage: number): Promise<{ items: ImportRecordDoc[]; total: number }> {
    const { items, total } = await this.deps.posts.list({ type: RECORD_TYPE, status: RECORD_STATUS.schedule }, { page, perPage, sort: [['id', -1]] });
    return { items: items.filter(isImportRecord), total };
  }

  /** Sources that run on a schedule. */
  async scheduled(): Promise<ImportRecordDoc[]> {
    const all = await this.deps.posts.find({ type: RECORD_TYPE, status: RECORD_STATUS.schedule });
    return all.filter(isImportRecord).filter((d) => periodOf(sourceOf(d)) > 0);
  }

  async runsOf(source: number, page: number, perPage: number): Promise<{ items: ImportRecordDoc[]; total: number }> {
    const { items, total } = await this.deps.posts.list({ type: RECORD_TYPE, parent: source }, { page, perPage, sort: [['id', -1]] });
    return { items: items.filter(isImportRecord), total };
  }

  async create(meta: Record<string, unknown>, title: string, author: number): Promise<ImportRecordDoc> {
    const id = await this.deps.posts.nextId();
    const importId = newImportId();
    const doc: ImportRecordDoc = {
      ...newCalendarRecord(this.deps.site, this.deps.now(), {
        id,
        type: RECORD_TYPE,
        status: RECORD_STATUS.schedule,
        slug: '',
        title,
        author,
        meta: { [RECORD_META.type]: 'schedule', ...meta },
        import_id: importId,
      }),
      import_id: importId,
    };
    await this.deps.posts.create(doc);
    return doc;
  }

  /** Sets meta keys (each on its own, so a run storing its ETag and an edit of the source never undo each other). */
  async update(doc: ImportRecordDoc, meta: Record<string, unknown>, title?: string): Promise<ImportRecordDoc> {
    const now = this.deps.now();
    const set: Record<string, unknown> = { modified: mysqlLocal(now, this.deps.site.timezone), modified_gmt: now };
    for (const [key, value] of Object.entries(meta)) set[`meta.${key}`] = value;
    if (title !== undefined) set.title = title;
    const saved = await this.deps.posts.update(doc.id, { $set: set });
    if (!isImportRecord(saved)) throw new Error(`The import source ${doc.id} is gone`);
    return saved;
  }

  /** A new pending run of a source, for a queue job (or the run that job already made). */
  async startRun(source: ImportRecordDoc, job: string): Promise<ImportRecordDoc> {
    const existing = await this.deps.posts.findOne({
      type: RECORD_TYPE,
      parent: source.id,
      [`meta.${SOURCE_META.job}`]: job,
    });
    if (isImportRecord(existing)) return existing;
    const id = await this.deps.posts.nextId();
    const origin = str(source.meta?.[RECORD_META.origin]);
    const importId = newImportId();
    const doc: ImportRecordDoc = {
      ...newCalendarRecord(this.deps.site, this.deps.now(), {
        id,
        type: RECORD_TYPE,
        status: RECORD_STATUS.pending,
        slug: '',
        title: `Record: ${source.title}`,
        author: source.author,
        parent: source.id,
        meta: {
          [RECORD_META.type]: 'schedule',
          [RECORD_META.origin]: origin,
          [RECORD_META.percentage]: 0,
          [SOURCE_META.job]: job,
        },
        import_id: importId,
      }),
      import_id: importId,
    };
    await this.deps.posts.create(doc);
    await this.update(source, { [SOURCE_META.lastRun]: id });
    return doc;
  }

  /** Forgets a run that was never queued; the source points at its previous run again. */
  async dropRun(source: ImportRecordDoc, run: ImportRecordDoc): Promise<void> {
    await this.deps.posts.remove(run.id);
    await this.update(source, { [SOURCE_META.lastRun]: sourceOf(source).lastRun });
  }

  /** Removes a source and its runs; the events it imported stay. */
  async remove(doc: ImportRecordDoc): Promise<void> {
    await this.deps.posts.deleteChildren(RECORD_TYPE, doc.id);
    await this.deps.posts.remove(doc.id);
  }
}

/** Comments of a run's errors (the reference's tribe-ea-error comments). */
export function errorComment(code: string, message: string, at: Date): ErrorComment {
  return { type: ERROR_COMMENT_TYPE, code, message, date_gmt: at };
}
