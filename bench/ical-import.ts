/**
 * An iCalendar file imported through an import source on a store of its own, with the service's clock
 * set to a given time: the run a worker does (source-run.ts), in this process. Used by the corpus test
 * (test/ical-corpus.slow.test.ts) and, run as a script, to time the import and the unchanged re-import
 * of one file:
 *
 *   node -r ./scripts/ts-register.js bench/ical-import.ts FILE.ics [clock ISO] [runs]
 *
 * prints the seconds (and CPU seconds: a shared machine's wall time says little) of the first import
 * and of each re-import of the same text, with the run's counts.
 */
import { readFileSync } from 'node:fs';
import { CommentsRepository } from '#libs/comments/repository';
import { COLLECTIONS } from '#libs/data/collections';
import { EVENT_META, EVENT_TYPE } from '#libs/calendar/meta';
import { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import { feedFetchPolicy } from '../services/aggregator/import/jobs';
import { IMPORT_META } from '../services/aggregator/items/items';
import { RECORD_META, type ImportRecordDoc } from '../services/aggregator/storage/records';
import { runSource, type SourceRunDeps } from '../services/aggregator/import/source-run';
import { SOURCE_META, Sources } from '../services/aggregator/sources/sources';

export interface LocalImport {
  store: Store;
  deps: SourceRunDeps;
  source: ImportRecordDoc;
  /** The clock the service reads; change `clock.now` to move it. */
  clock: { now: Date };
  close(): Promise<void>;
}

/** A fresh in-memory store with an `ics` source holding `text`, read in `zone` (the site's zone). */
export async function localImport(text: string, at: Date, zone = 'UTC'): Promise<LocalImport> {
  const store = await openStore({ dataDir: ':memory:' });
  await store.ensure(COLLECTIONS);
  const site = siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'Corpus', SITE_DESCRIPTION: '', SITE_TIMEZONE: zone });
  const clock = { now: at };
  const posts = new PostsRepository(store);
  const base = { store, posts, terms: new TermsRepository(store), site, now: () => clock.now };
  const deps: SourceRunDeps = {
    ...base,
    comments: new CommentsRepository(store),
    sources: new Sources(base),
    policy: feedFetchPolicy([], 0),
  };
  const source = await deps.sources.create({ [RECORD_META.origin]: 'ics', [SOURCE_META.file]: text }, 'corpus file', 1);
  return { store, deps, source, clock, close: () => store.close() };
}

let jobs = 0;

/** One run of the source; the run record (status, message, counts, comments). */
export async function runOnce(l: LocalImport): Promise<ImportRecordDoc> {
  const result = await runSource(
    l.deps,
    { source: l.source.id },
    {
      id: `local-${++jobs}`,
      name: 'import.source',
      attempt: 1,
      // Run outside a queue: the import queue has no rate, so its pace never waits.
      pace: () => Promise.resolve(),
    },
  );
  const run = await l.deps.sources.runRecord(result.run);
  if (!run) throw new Error('the run record is gone');
  return run;
}

/** The events a source stored. */
export function storedEvents(l: LocalImport): Promise<PostDoc[]> {
  return l.deps.posts.find({ type: EVENT_TYPE, [`meta.${IMPORT_META.record}`]: l.source.id }, { fields: ['id', 'title', 'status', 'meta'] });
}

export { EVENT_META };

async function main(): Promise<void> {
  const [file, clockText, runsText] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/ical-import.ts FILE.ics [clock ISO] [runs]');
  const text = readFileSync(file, 'utf8');
  const at = clockText ? new Date(clockText) : new Date();
  const runs = Math.max(2, Number(runsText ?? 3));
  // A worker has its modules loaded and compiled: one small import first, untimed.
  const warm = await localImport(
    [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:warm-up',
      'DTSTART:20200101T100000Z',
      'RRULE:FREQ=DAILY;COUNT=3',
      'SUMMARY:Warm-up',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n'),
    at,
  );
  await runOnce(warm);
  await warm.close();
  const l = await localImport(text, at);
  try {
    console.log(`${file}: ${(text.length / 1024 / 1024).toFixed(2)} MB, clock ${at.toISOString()}`);
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const run = await runOnce(l);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = process.cpuUsage(cpu0);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      console.log(
        `  ${i === 0 ? 'import   ' : 're-import'} ${seconds.toFixed(2)} s (${cpuSeconds.toFixed(2)} s of CPU)  ${String(run.meta?.[RECORD_META.message] ?? '')}`,
      );
    }
  } finally {
    await l.close();
  }
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
