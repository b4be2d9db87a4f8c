/**
 * One run of an import source, on a worker (the `import.source` job): fetch the feed through the
 * outbound guard (conditional on the last run's ETag / Last-Modified), parse it, store its events in
 * chunks through the same steps as pushed batches (storage/store-items.ts, which runs them in this
 * process: the job already is on a worker), then apply the source's policy to events that left the feed. Progress,
 * counts and errors go to the run's import record as the run goes. Re-imports update events by their
 * feed UID (and recurrence id), so a run repeated after a crash stores nothing twice.
 */
import { trashRecords } from '#libs/calendar/lifecycle';
import { EVENT_META, EVENT_TYPE } from '#libs/calendar/meta';
import type { CommentsRepository } from '#libs/comments/repository';
import { guardedGet, RefusedError, type FetchPolicy } from '#libs/net/outbound';
import { logger } from '#libs/observability/logger';
import type { JobContext } from '#libs/queue/types';
import type { Filter } from '#libs/store/types';
import { mergeActivity, type Activity } from '../storage/activity';
import { parseFeed } from '../feeds';
import type { InsertDeps } from '../storage/insert-job';
import { checkEvents } from '../items/check';
import { itemFingerprint, storedFingerprints, storedKeyOf } from '../items/fingerprint';
import { uniqueIdOf } from '../items/identity';
import { IMPORT_META, UNIQUE_FIELDS, type EaEvent } from '../items/items';
import { RECORD_META, RECORD_STATUS } from '../storage/records';
import { SOURCE_META, countsOf, errorComment, sourceOf, type Source, type Sources } from '../sources/sources';
import { storeItems } from '../storage/store-items';
import { errorText } from '../error-text';

const log = logger.child({ component: 'import-source' });

/** Events stored per chunk: progress is written after each, and memory holds one chunk's work. */
const SOURCE_CHUNK = 1000;
/** Recurring events are expanded from this long ago to this far ahead (single events are all imported). */
const WINDOW_PAST_MS = 31 * 86_400_000;
const WINDOW_AHEAD_MS = 366 * 86_400_000;
/** Errors kept on a run record at most (the count of the rest is in its message). */
const MAX_ERRORS = 50;

export interface SourceRunDeps extends InsertDeps {
  comments: CommentsRepository;
  sources: Sources;
  /** The outbound policy of feed fetches. */
  policy: FetchPolicy;
  chunk?: number;
}

export interface SourceRunResult {
  run: number;
  status: 'success' | 'failed' | 'gone';
  events?: number;
}

const ACCEPT: Record<Source['origin'], string> = {
  ical: 'text/calendar, application/calendar+json;q=0.5, */*;q=0.1',
  ics: 'text/calendar',
  csv: 'text/csv, text/plain;q=0.5, */*;q=0.1',
};

/** A feed the run cannot use: the run fails with this code and message, and is not retried. */
class FeedProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function fetchFeed(deps: SourceRunDeps, s: Source): Promise<{ text: string; etag: string; lastModified: string } | 'unchanged'> {
  if (!s.url) return { text: s.file, etag: '', lastModified: '' };
  const headers: Record<string, string> = {};
  if (s.etag) headers['If-None-Match'] = s.etag;
  if (s.lastModified) headers['If-Modified-Since'] = s.lastModified;
  let got;
  try {
    got = await guardedGet(s.url, deps.policy, { accept: ACCEPT[s.origin], truncate: false, headers });
  } catch (e) {
    if (e instanceof RefusedError) throw new FeedProblem('feed_refused', `The feed was not fetched: ${e.message}.`);
    throw e;
  }
  if (got.status === 304) return 'unchanged';
  if (got.status < 200 || got.status >= 300) throw new FeedProblem('feed_http_error', `The feed answered with HTTP ${got.status}.`);
  return { text: got.body, etag: got.headers.etag ?? '', lastModified: got.headers['last-modified'] ?? '' };
}

/** The event's key in the feed, as stored on the event (its unique id meta). */
const feedKey = (item: EaEvent, origin: string) => uniqueIdOf(item, origin)?.value ?? '';

export async function runSource(deps: SourceRunDeps, data: { source?: unknown }, job: JobContext): Promise<SourceRunResult> {
  const sourceDoc = typeof data.source === 'number' ? await deps.sources.get(data.source) : null;
  if (!sourceDoc) return { run: 0, status: 'gone' };
  const run = await deps.sources.startRun(sourceDoc, job.id);
  if (run.status === RECORD_STATUS.success) return { run: run.id, status: 'success' };
  const s = sourceOf(sourceDoc);
  const setRun = (changes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    deps.posts.setFields(run.id, { ...Object.fromEntries(Object.entries(changes).map(([k, v]) => [`meta.${k}`, v])), ...extra, modified_gmt: deps.now() });
  await setRun({}, { status: RECORD_STATUS.pending });

  try {
    const feed = await fetchFeed(deps, s);
    if (feed === 'unchanged') {
      await setRun({ [RECORD_META.percentage]: 100, [RECORD_META.message]: 'The feed has not changed since the last run.' }, { status: RECORD_STATUS.success });
      return { run: run.id, status: 'success', events: 0 };
    }
    const now = deps.now().getTime();
    const window = { from: new Date(now - WINDOW_PAST_MS), to: new Date(now + WINDOW_AHEAD_MS) };
    let parsed;
    try {
      parsed = parseFeed(feed.text, s.origin, { defaultZone: s.timezone || deps.site.timezone, window, singles: 'all' });
    } catch (e) {
      throw new FeedProblem('feed_unreadable', `The feed could not be read: ${errorText(e)}`);
    }
    const problems = parsed.errors.map((e) =>
      errorComment('feed_item_invalid', `${e.uid ? `${e.uid}: ` : e.line ? `line ${e.line}: ` : ''}${e.message}`, deps.now()),
    );
    // What the feed holds, broken items included: they are not taken for events that left it.
    const feedHolds: FeedContents = { keys: new Set(), uids: new Set(), broken: new Set(parsed.errors.map((e) => e.uid ?? '').filter(Boolean)) };
    const events: EaEvent[] = [];
    for (const item of parsed.events) {
      const key = feedKey(item, s.origin);
      if (key) {
        feedHolds.keys.add(key);
        feedHolds.uids.add(seriesUid(key));
      }
      const checked = checkEvents([item], deps.site.timezone);
      if ('error' in checked) problems.push(errorComment('feed_item_invalid', `${key || item.title}: ${checked.error.message}`, deps.now()));
      else events.push(item);
    }
    await setRun({ [RECORD_META.totalEvents]: events.length });

    // Items unchanged since the source last stored them are left as they are: nothing built, nothing written.
    const context = [s.postStatus, s.categories, s.author, deps.site.timezone];
    const known = await storedFingerprints(deps.posts, sourceDoc.id);
    const changed: EaEvent[] = [];
    const prints: string[] = [];
    for (const item of events) {
      const print = itemFingerprint(item, context);
      const key = storedKeyOf(item, s.origin);
      if (key && known.get(key) === print) continue;
      changed.push(item);
      prints.push(print);
    }
    const unchanged = events.length - changed.length;

    const chunk = deps.chunk ?? SOURCE_CHUNK;
    let activity: Activity = mergeActivity();
    for (let start = 0, k = 0; start < changed.length; start += chunk, k++) {
      const part = changed.slice(start, start + chunk);
      const stored = await storeItems({
        base: {
          importId: run.import_id,
          recordId: sourceDoc.id,
          batchRef: `${run.import_id}:${k}`,
          origin: s.origin,
          postStatus: s.postStatus,
          author: s.author,
        },
        events: part,
        sliceSize: chunk,
        place: { here: deps },
        extraCategories: s.categories,
        fingerprints: prints.slice(start, start + chunk),
      });
      await deps.terms.moveCounts(stored.counts);
      activity = mergeActivity(activity, stored.activity);
      const done = Math.min(changed.length, start + chunk);
      await setRun({ [RECORD_META.percentage]: Math.floor((done / changed.length) * 100), [SOURCE_META.counts]: countsOf(activity) });
    }

    const removed = s.onRemoved === 'keep' ? 0 : await retire(deps, sourceDoc.id, s, feedHolds, window);
    const byKind = countsOf(activity);
    const events_ = { ...(byKind[EVENT_TYPE] ?? { created: 0, updated: 0, skipped: 0 }), unchanged };
    const counts = { ...byKind, [EVENT_TYPE]: events_, ...(removed ? { removed } : {}) };
    const message = `${events.length} events in the feed: ${events_.created} created, ${events_.updated} updated, ${unchanged} unchanged${removed ? `, ${removed} ${s.onRemoved === 'trash' ? 'trashed' : 'drafted'}` : ''}${problems.length ? `; ${problems.length} part${problems.length > 1 ? 's' : ''} of the feed skipped or read otherwise than written (see errors)` : ''}.`;
    await setRun(
      { [RECORD_META.percentage]: 100, [SOURCE_META.counts]: counts, [RECORD_META.message]: message },
      { status: RECORD_STATUS.success, comments: problems.slice(0, MAX_ERRORS) },
    );
    await deps.sources.update(sourceDoc, { [SOURCE_META.etag]: feed.etag, [SOURCE_META.lastModified]: feed.lastModified });
    return { run: run.id, status: 'success', events: events.length };
  } catch (e) {
    const problem = e instanceof FeedProblem ? e : null;
    await setRun(
      {
        [RECORD_META.message]: problem ? problem.message : `The import stopped (attempt ${job.attempt}); the queue tries it again until its attempts run out.`,
      },
      {
        status: RECORD_STATUS.failed,
        comments: [errorComment(problem?.code ?? 'import_failed', problem ? problem.message : errorText(e), deps.now())],
      },
    );
    if (problem) {
      log.info({ source: sourceDoc.id, run: run.id, code: problem.code }, problem.message);
      return { run: run.id, status: 'failed' };
    }
    // The store or the network failed: the queue runs the job again, and the run picks up where it was.
    throw e;
  }
}

/** The UIDs and occurrence keys a feed holds, and the UIDs of its events that could not be read. */
export interface FeedContents {
  keys: Set<string>;
  uids: Set<string>;
  broken: Set<string>;
}

/** The UID of the series an occurrence key (`UID/20260105T170000Z`) belongs to; a single event's key is its UID. */
const seriesUid = (key: string) => {
  const cut = key.lastIndexOf('/');
  return cut > 0 ? key.slice(0, cut) : key;
};

/**
 * Whether an imported event left the feed: its UID is gone from it, or it is an occurrence of a series
 * the feed still holds whole (readable) that no longer produces it inside the import window (an EXDATE
 * or a cancellation). Occurrences outside the window are kept: the feed was not expanded there.
 */
export function leftFeed(key: string, startUtc: unknown, feed: FeedContents, window: { from: Date; to: Date }): boolean {
  if (feed.keys.has(key)) return false;
  const uid = seriesUid(key);
  if (feed.broken.has(uid) || feed.broken.has(key)) return false;
  if (!feed.uids.has(uid)) return true;
  if (uid === key || typeof startUtc !== 'string') return false;
  const at = Date.parse(`${startUtc.replace(' ', 'T')}Z`);
  return at >= window.from.getTime() && at < window.to.getTime();
}

/** The events a source created that its policy for removed events may still move (an index of the posts serves it). */
export function retiringFilter(sourceId: number, onRemoved: Source['onRemoved']): Filter {
  const keep = onRemoved === 'draft' ? ['trash', 'draft'] : ['trash'];
  return { type: EVENT_TYPE, [`meta.${IMPORT_META.record}`]: sourceId, status: { $nin: keep } };
}

/** Applies the source's policy to its events that are no longer in the feed; returns how many moved. */
async function retire(deps: SourceRunDeps, sourceId: number, s: Source, feed: FeedContents, window: { from: Date; to: Date }): Promise<number> {
  const mine = await deps.posts.find(retiringFilter(sourceId, s.onRemoved), { fields: ['id', 'status', 'slug', 'meta', 'terms'] });
  const key = `_${UNIQUE_FIELDS[s.origin].target}`;
  const gone = mine.filter((doc) => {
    const uid = doc.meta?.[key];
    return typeof uid === 'string' && leftFeed(uid, doc.meta?.[EVENT_META.startUtc], feed, window);
  });
  if (!gone.length) return 0;
  // Trashed as the calendar trashes events (comments hidden, term counts moved once).
  if (s.onRemoved === 'trash') await trashRecords(deps, gone);
  else {
    await deps.posts.setStatus(
      gone.map((d) => d.id),
      'draft',
    );
    await deps.terms.countWrites(gone.map((d) => [d, { ...d, status: 'draft' }]));
  }
  return gone.length;
}
