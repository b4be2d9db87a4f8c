/**
 * Import sources (vendor/event-aggregator/v1/sources): the reference's scheduled import records. A source is an
 * import record in the `schedule` status whose meta names the feed (a URL, or an uploaded file), what
 * imported events get and how often it runs; each run is a child import record (pending, then success
 * or failed) holding the run's progress, counts and errors, as the reference's child records do.
 * Workers run sources (source-run.ts): at once when created or asked to, then on their schedule.
 */
import { newCalendarRecord } from '../../libs/calendar/records';
import { CATEGORY_TAXONOMY } from '../../libs/calendar/meta';
import { can } from '../../libs/auth/user';
import type { PostsRepository } from '../../libs/posts/repository';
import { mysqlLocal } from '../../libs/rest/dates';
import { ParamError, RestError, invalidParams } from '../../libs/rest/errors';
import { pagingHeaders } from '../../libs/rest/paging';
import type { HandlerContext, Reply, ServiceApp } from '../../libs/rest/service';
import { restUrl, type Site } from '../../libs/rest/site';
import type { RemovedPolicy, SourceOrigin, SourceSchedule } from '../../libs/routes/aggregator/sources';
import { SOURCES_NS } from '../../libs/routes/aggregator/sources';
import { ACTIVITY_KINDS, type Activity } from './activity';
import type { AggregatorDeps } from './deps';
import { ERROR_COMMENT_TYPE, RECORD_META, RECORD_STATUS, RECORD_TYPE, newImportId, type ErrorComment, type ImportRecordDoc } from './records';

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

export function sourceOf(doc: ImportRecordDoc): Source {
  const m = doc.meta ?? {};
  return {
    id: doc.id,
    title: doc.title,
    origin: str(m[RECORD_META.origin]) as SourceOrigin,
    url: str(m[SOURCE_META.source]),
    file: str(m[SOURCE_META.file]),
    postStatus: str(m[RECORD_META.postStatus]) || 'publish',
    categories: Array.isArray(m[SOURCE_META.categories]) ? (m[SOURCE_META.categories] as unknown[]).filter((n): n is number => typeof n === 'number') : [],
    timezone: str(m[SOURCE_META.timezone]),
    schedule: (str(m[SOURCE_META.frequency]) || 'once') as SourceSchedule,
    interval: typeof m[SOURCE_META.interval] === 'number' ? (m[SOURCE_META.interval] as number) : 0,
    onRemoved: (str(m[SOURCE_META.onRemoved]) || 'keep') as RemovedPolicy,
    author: doc.author,
    etag: str(m[SOURCE_META.etag]),
    lastModified: str(m[SOURCE_META.lastModified]),
    lastRun: typeof m[SOURCE_META.lastRun] === 'number' ? (m[SOURCE_META.lastRun] as number) : 0,
  };
}

/** Created, updated and skipped records per kind, from an activity. */
export type RunCounts = Record<string, { created: number; updated: number; skipped: number }>;
export function countsOf(activity: Activity): RunCounts {
  const out: RunCounts = {};
  for (const kind of ACTIVITY_KINDS) {
    const a = activity[kind];
    if (a.created.length || a.updated.length || a.skipped.length) out[kind] = { created: a.created.length, updated: a.updated.length, skipped: a.skipped.length };
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
    const doc = (await this.deps.posts.ofType(id, RECORD_TYPE)) as ImportRecordDoc | null;
    return doc && doc.status === RECORD_STATUS.schedule ? doc : null;
  }

  /** A run of some source, by id. */
  async runRecord(id: number): Promise<ImportRecordDoc | null> {
    const doc = (await this.deps.posts.ofType(id, RECORD_TYPE)) as ImportRecordDoc | null;
    return doc && doc.status !== RECORD_STATUS.schedule ? doc : null;
  }

  async page(page: number, perPage: number): Promise<{ items: ImportRecordDoc[]; total: number }> {
    return (await this.deps.posts.list({ type: RECORD_TYPE, status: RECORD_STATUS.schedule }, { page, perPage, sort: [['id', -1]] })) as { items: ImportRecordDoc[]; total: number };
  }

  /** Sources that run on a schedule. */
  async scheduled(): Promise<ImportRecordDoc[]> {
    const all = (await this.deps.posts.collection.find({ type: RECORD_TYPE, status: RECORD_STATUS.schedule })) as ImportRecordDoc[];
    return all.filter((d) => periodOf(sourceOf(d)) > 0);
  }

  async runsOf(source: number, page: number, perPage: number): Promise<{ items: ImportRecordDoc[]; total: number }> {
    return (await this.deps.posts.list({ type: RECORD_TYPE, parent: source }, { page, perPage, sort: [['id', -1]] })) as { items: ImportRecordDoc[]; total: number };
  }

  async create(meta: Record<string, unknown>, title: string, author: number): Promise<ImportRecordDoc> {
    const id = await this.deps.posts.nextId();
    const doc = newCalendarRecord(this.deps.site, this.deps.now(), {
      id,
      type: RECORD_TYPE,
      status: RECORD_STATUS.schedule,
      slug: '',
      title,
      author,
      meta: { [RECORD_META.type]: 'schedule', ...meta },
      import_id: newImportId(),
    }) as ImportRecordDoc;
    await this.deps.posts.create(doc);
    return doc;
  }

  /** Sets meta keys (each on its own, so a run storing its ETag and an edit of the source never undo each other). */
  async update(doc: ImportRecordDoc, meta: Record<string, unknown>, title?: string): Promise<ImportRecordDoc> {
    const now = this.deps.now();
    const set: Record<string, unknown> = { modified: mysqlLocal(now, this.deps.site.timezone), modified_gmt: now };
    for (const [key, value] of Object.entries(meta)) set[`meta.${key}`] = value;
    if (title !== undefined) set.title = title;
    return (await this.deps.posts.update(doc.id, { $set: set })) as ImportRecordDoc;
  }

  /** A new pending run of a source, for a queue job (or the run that job already made). */
  async startRun(source: ImportRecordDoc, job: string): Promise<ImportRecordDoc> {
    const existing = (await this.deps.posts.collection.findOne({ type: RECORD_TYPE, parent: source.id, [`meta.${SOURCE_META.job}`]: job })) as ImportRecordDoc | null;
    if (existing) return existing;
    const id = await this.deps.posts.nextId();
    const origin = str(source.meta?.[RECORD_META.origin]);
    const doc = newCalendarRecord(this.deps.site, this.deps.now(), {
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
      import_id: newImportId(),
    }) as ImportRecordDoc;
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
    await this.deps.posts.collection.deleteMany({ type: RECORD_TYPE, parent: doc.id });
    await this.deps.posts.remove(doc.id);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Presenting

const statusName = (status: string) => status.replace(/^vendor-ea-/, '');

export function presentRun(site: Site, run: ImportRecordDoc): Record<string, unknown> {
  const m = run.meta ?? {};
  const errors = (run.comments ?? []).filter((c) => c.type === ERROR_COMMENT_TYPE).map((c) => ({ code: c.code, message: c.message, date_gmt: mysqlLocal(c.date_gmt, 'UTC') }));
  return {
    id: run.id,
    source: run.parent,
    status: statusName(run.status),
    percentage_complete: typeof m[RECORD_META.percentage] === 'number' ? m[RECORD_META.percentage] : 0,
    total_events: typeof m[RECORD_META.totalEvents] === 'number' ? m[RECORD_META.totalEvents] : 0,
    counts: m[SOURCE_META.counts] ?? {},
    message: str(m[RECORD_META.message]),
    errors,
    started: run.date_gmt ? mysqlLocal(run.date_gmt, site.timezone) : null,
    modified: mysqlLocal(run.modified_gmt, site.timezone),
  };
}

export function presentSource(site: Site, doc: ImportRecordDoc, lastRun: ImportRecordDoc | null): Record<string, unknown> {
  const s = sourceOf(doc);
  const self = restUrl(site, `/${SOURCES_NS}/sources/${s.id}`);
  return {
    id: s.id,
    title: s.title,
    origin: s.origin,
    source: s.url,
    has_file: s.file !== '',
    post_status: s.postStatus,
    categories: s.categories,
    timezone: s.timezone,
    schedule: s.schedule,
    interval: s.interval,
    on_removed: s.onRemoved,
    created: doc.date_gmt ? mysqlLocal(doc.date_gmt, site.timezone) : null,
    modified: mysqlLocal(doc.modified_gmt, site.timezone),
    last_run: lastRun ? presentRun(site, lastRun) : null,
    _links: {
      self: [{ href: self }],
      collection: [{ href: restUrl(site, `/${SOURCES_NS}/sources`) }],
      runs: [{ href: `${self}/runs` }],
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Handlers

const invalidSource = () => new RestError('rest_import_source_invalid_id', 'Invalid import source ID.', 404);

function fieldsFrom(ctx: HandlerContext): { meta: Record<string, unknown>; title?: string } {
  const p = ctx.params;
  const meta: Record<string, unknown> = {};
  const set = (arg: string, key: string) => {
    if (p[arg] !== undefined) meta[key] = p[arg];
  };
  set('origin', RECORD_META.origin);
  set('source', SOURCE_META.source);
  set('file', SOURCE_META.file);
  set('post_status', RECORD_META.postStatus);
  set('categories', SOURCE_META.categories);
  set('timezone', SOURCE_META.timezone);
  set('schedule', SOURCE_META.frequency);
  set('on_removed', SOURCE_META.onRemoved);
  set('interval', SOURCE_META.interval);
  return { meta, ...(typeof p.title === 'string' ? { title: p.title } : {}) };
}

/** What a source needs whole: a URL for the ical origin, a file for ics, one of them for csv; existing categories. */
async function checkSource(deps: AggregatorDeps, meta: Record<string, unknown>, limits: SourceLimits): Promise<void> {
  const origin = str(meta[RECORD_META.origin]);
  const url = str(meta[SOURCE_META.source]);
  const file = str(meta[SOURCE_META.file]);
  const failures: Array<[string, ParamError]> = [];
  if (origin === 'ical' && !url) failures.push(['source', new ParamError('rest_missing_source', 'An ical source needs the URL of its feed.')]);
  if (origin === 'ics' && !file) failures.push(['file', new ParamError('rest_missing_file', 'An ics source needs the content of its file.')]);
  if (origin === 'csv' && !url && !file) failures.push(['file', new ParamError('rest_missing_file', 'A csv source needs a file or the URL of one.')]);
  const interval = typeof meta[SOURCE_META.interval] === 'number' ? (meta[SOURCE_META.interval] as number) : 0;
  if (interval > 0 && interval < limits.minIntervalSeconds) failures.push(['interval', new ParamError('rest_invalid_param', `interval must be at least ${limits.minIntervalSeconds} seconds.`)]);
  const categories = Array.isArray(meta[SOURCE_META.categories]) ? (meta[SOURCE_META.categories] as number[]) : [];
  if (categories.length) {
    const found = await deps.terms.collection.find({ id: { $in: categories }, taxonomy: CATEGORY_TAXONOMY }, { fields: ['id'] });
    if (found.length !== new Set(categories).size) failures.push(['categories', new ParamError('rest_invalid_param', 'categories names an event category that does not exist.')]);
  }
  if (failures.length) throw invalidParams(failures);
}

/** Declares the queue schedule of a source after a change (none for `once`). */
export async function syncSchedule(deps: AggregatorDeps, doc: ImportRecordDoc, opts: { keepExisting?: boolean } = {}): Promise<void> {
  const period = periodOf(sourceOf(doc));
  const queue = deps.queue();
  if (!period) await queue.unschedule(scheduleKey(doc.id), 'import.source');
  else await queue.schedule(scheduleKey(doc.id), period, 'import.source', { source: doc.id }, opts);
}

/** Queues a run of a source now; answers with the pending run. */
async function runNow(deps: AggregatorDeps, sources: Sources, doc: ImportRecordDoc): Promise<ImportRecordDoc> {
  const job = `import-source-${doc.id}-now-${newImportId().slice(0, 12)}`;
  const run = await sources.startRun(doc, job);
  try {
    await deps.queue().enqueue('import.source', { source: doc.id }, { jobId: job });
  } catch (e) {
    // Not queued (the queue is down): the run never happens, so it is not left pending.
    await sources.dropRun(doc, run);
    throw e;
  }
  return run;
}

export interface SourceLimits {
  minIntervalSeconds: number;
}

export function bindSources(app: ServiceApp, deps: AggregatorDeps, opts: SourceLimits): Sources {
  const sources = new Sources(deps);
  const permission = async (ctx: HandlerContext) => can(ctx.user, 'manage_options');
  const mustExist = async (ctx: HandlerContext) => {
    const doc = await ctx.cached(`source:${ctx.params.id}`, () => sources.get(Number(ctx.params.id)));
    if (!doc) throw invalidSource();
    return doc;
  };
  const withLastRun = async (doc: ImportRecordDoc) => {
    const last = sourceOf(doc).lastRun;
    return presentSource(deps.site, doc, last ? await sources.runRecord(last) : null);
  };

  app.bind('imports.sources.list', {
    permission,
    async handle(ctx) {
      const page = Number(ctx.params.page);
      const perPage = Number(ctx.params.per_page);
      const { items, total } = await sources.page(page, perPage);
      const runs = await deps.posts.byIds(items.map((d) => sourceOf(d).lastRun).filter((n) => n > 0));
      const body = items.map((d) => presentSource(deps.site, d, (runs.get(sourceOf(d).lastRun) as ImportRecordDoc | undefined) ?? null));
      return { body, headers: pagingHeaders(deps.site, `/${SOURCES_NS}/sources`, ctx.params, page, perPage, total) };
    },
  });

  app.bind('imports.sources.create', {
    permission,
    async handle(ctx) {
      const { meta, title } = fieldsFrom(ctx);
      await checkSource(deps, meta, opts);
      const name = title || str(meta[SOURCE_META.source]) || `${str(meta[RECORD_META.origin])} file`;
      const doc = await sources.create(meta, name, ctx.user?.id ?? 0);
      let run: ImportRecordDoc;
      try {
        run = await runNow(deps, sources, doc);
        await syncSchedule(deps, doc);
      } catch (e) {
        // A source whose first run could not be queued is not kept: the client sends it again.
        await deps.queue().unschedule(scheduleKey(doc.id), 'import.source').catch(() => undefined);
        await sources.remove(doc);
        throw e;
      }
      const body = presentSource(deps.site, doc, run);
      return { status: 201, body, headers: { Location: restUrl(deps.site, `/${SOURCES_NS}/sources/${doc.id}`) } };
    },
  });

  app.bind('imports.sources.get', {
    permission,
    async handle(ctx) {
      return { body: await withLastRun(await mustExist(ctx)) };
    },
  });

  app.bind('imports.sources.update', {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      const { meta, title } = fieldsFrom(ctx);
      await checkSource(deps, { ...(doc.meta ?? {}), ...meta }, opts);
      // A changed feed is fetched whole again.
      if (SOURCE_META.source in meta || SOURCE_META.file in meta) Object.assign(meta, { [SOURCE_META.etag]: '', [SOURCE_META.lastModified]: '' });
      const saved = await sources.update(doc, meta, title);
      // Declaring the schedule again restarts its period: only a changed schedule is declared.
      if (SOURCE_META.frequency in meta || SOURCE_META.interval in meta) await syncSchedule(deps, saved);
      return { body: await withLastRun(saved) };
    },
  });

  app.bind('imports.sources.delete', {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      const before = await withLastRun(doc);
      await deps.queue().unschedule(scheduleKey(doc.id), 'import.source');
      await sources.remove(doc);
      return { body: { deleted: true, previous: before } };
    },
  });

  app.bind('imports.sources.runs', {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      const page = Number(ctx.params.page);
      const perPage = Number(ctx.params.per_page);
      const { items, total } = await sources.runsOf(doc.id, page, perPage);
      return { body: items.map((r) => presentRun(deps.site, r)), headers: pagingHeaders(deps.site, `/${SOURCES_NS}/sources/${doc.id}/runs`, ctx.params, page, perPage, total) };
    },
  });

  app.bind('imports.sources.run', {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      return { status: 202, body: presentRun(deps.site, await runNow(deps, sources, doc)) };
    },
  });
  return sources;
}

/** Comments of a run's errors (the reference's tribe-ea-error comments). */
export function errorComment(code: string, message: string, at: Date): ErrorComment {
  return { type: ERROR_COMMENT_TYPE, code, message, date_gmt: at };
}
