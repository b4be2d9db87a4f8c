/**
 * The import sources routes (vendor/event-aggregator/v1/sources): a source and its runs as the API
 * presents them, and the handlers that list, create, edit, delete and run sources, keeping each
 * source's queue schedule in step with it.
 */
import { CATEGORY_TAXONOMY } from '#libs/calendar/meta';
import { can } from '#libs/auth/user';
import { mysqlLocal } from '#libs/dates/format';
import { ParamError, RestError, invalidParams } from '#libs/rest/errors';
import { pagingHeaders } from '#libs/rest/paging';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { restUrl, type Site } from '#libs/rest/site';
import { SOURCE_ENDPOINTS as EPS, SOURCES_NS } from '#libs/routes/aggregator/sources';
import type { InputOf, Shared } from '#libs/rest/params';
import type { AggregatorDeps } from '../deps';
import { ERROR_COMMENT_TYPE, RECORD_META, isImportRecord, newImportId, type ImportRecordDoc } from '../storage/records';
import { SOURCE_META, Sources, periodOf, scheduleKey, sourceOf } from './sources';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

// ---------------------------------------------------------------------------------------------------------
// Presenting

const statusName = (status: string) => status.replace(/^vendor-ea-/, '');

export function presentRun(site: Site, run: ImportRecordDoc): Record<string, unknown> {
  const m = run.meta ?? {};
  const errors = (run.comments ?? [])
    .filter((c) => c.type === ERROR_COMMENT_TYPE)
    .map((c) => ({ code: c.code, message: c.message, date_gmt: mysqlLocal(c.date_gmt, 'UTC') }));
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

/** The fields a create or an update writes: each argument that has a value (a JSON null included) under its meta key. */
function fieldsFrom(ctx: HandlerContext<InputOf<Shared<typeof EPS.create | typeof EPS.update>>>): { meta: Record<string, unknown>; title?: string } {
  const p = ctx.input;
  const meta: Record<string, unknown> = {};
  const set = (value: unknown, key: string) => {
    if (value !== undefined) meta[key] = value;
  };
  set(p.origin, RECORD_META.origin);
  set(p.source, SOURCE_META.source);
  set(p.file, SOURCE_META.file);
  set(p.post_status, RECORD_META.postStatus);
  set(p.categories, SOURCE_META.categories);
  set(p.timezone, SOURCE_META.timezone);
  set(p.schedule, SOURCE_META.frequency);
  set(p.on_removed, SOURCE_META.onRemoved);
  set(p.interval, SOURCE_META.interval);
  return { meta, ...(p.title != null ? { title: p.title } : {}) };
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
  const givenInterval = meta[SOURCE_META.interval];
  const interval = typeof givenInterval === 'number' ? givenInterval : 0;
  if (interval > 0 && interval < limits.minIntervalSeconds)
    failures.push(['interval', new ParamError('rest_invalid_param', `interval must be at least ${limits.minIntervalSeconds} seconds.`)]);
  const givenCategories = meta[SOURCE_META.categories];
  // Category ids (the `categories` argument is a list of integers).
  const categories = Array.isArray(givenCategories) ? givenCategories.filter((n): n is number => typeof n === 'number') : [];
  if (categories.length) {
    const found = await deps.terms.find({ id: { $in: categories }, taxonomy: CATEGORY_TAXONOMY }, { fields: ['id'] });
    if (found.length !== new Set(categories).size)
      failures.push(['categories', new ParamError('rest_invalid_param', 'categories names an event category that does not exist.')]);
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
  const mustExist = async (ctx: HandlerContext<InputOf<Shared<typeof EPS.get>>>) => {
    const doc = await ctx.once(`source:${ctx.input.id}`, () => sources.get(ctx.input.id));
    if (!doc) throw invalidSource();
    return doc;
  };
  const withLastRun = async (doc: ImportRecordDoc) => {
    const last = sourceOf(doc).lastRun;
    return presentSource(deps.site, doc, last ? await sources.runRecord(last) : null);
  };

  app.bind(EPS.list, {
    permission,
    async handle(ctx) {
      const page = ctx.input.page;
      const perPage = ctx.input.per_page;
      const { items, total } = await sources.page(page, perPage);
      const runs = await deps.posts.byIds(items.map((d) => sourceOf(d).lastRun).filter((n) => n > 0));
      const body = items.map((d) => {
        const run = runs.get(sourceOf(d).lastRun);
        return presentSource(deps.site, d, isImportRecord(run) ? run : null);
      });
      return { body, headers: pagingHeaders(deps.site, `/${SOURCES_NS}/sources`, ctx.params, page, perPage, total) };
    },
  });

  app.bind(EPS.create, {
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
        await deps
          .queue()
          .unschedule(scheduleKey(doc.id), 'import.source')
          .catch(() => undefined);
        await sources.remove(doc);
        throw e;
      }
      const body = presentSource(deps.site, doc, run);
      return { status: 201, body, headers: { Location: restUrl(deps.site, `/${SOURCES_NS}/sources/${doc.id}`) } };
    },
  });

  app.bind(EPS.get, {
    permission,
    async handle(ctx) {
      return { body: await withLastRun(await mustExist(ctx)) };
    },
  });

  app.bind(EPS.update, {
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

  app.bind(EPS.delete, {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      const before = await withLastRun(doc);
      await deps.queue().unschedule(scheduleKey(doc.id), 'import.source');
      await sources.remove(doc);
      return { body: { deleted: true, previous: before } };
    },
  });

  app.bind(EPS.runs, {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      const page = ctx.input.page;
      const perPage = ctx.input.per_page;
      const { items, total } = await sources.runsOf(doc.id, page, perPage);
      return {
        body: items.map((r) => presentRun(deps.site, r)),
        headers: pagingHeaders(deps.site, `/${SOURCES_NS}/sources/${doc.id}/runs`, ctx.params, page, perPage, total),
      };
    },
  });

  app.bind(EPS.run, {
    permission,
    async handle(ctx) {
      const doc = await mustExist(ctx);
      return { status: 202, body: presentRun(deps.site, await runNow(deps, sources, doc)) };
    },
  });
  return sources;
}
