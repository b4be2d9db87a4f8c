/**
 * Real-world iCalendar files (../shared/ical-corpus: Google, Outlook/Exchange, Apple, Thunderbird,
 * SabreDAV, Meetup and others) imported through an import source, each with the service's clock at the
 * file's own time, and compared occurrence by occurrence with an independent expansion
 * (test/fixtures/ical-corpus-expected.json, written by scripts/ical-oracle.py from Debian's
 * python3-icalendar and python3-recurring-ical-events over the same window and caps).
 *
 * An event is matched on its series UID and start (the instant; the date for all-day events), or on
 * its title when the file gives it no UID, and its end must agree too. Per file and in total: expected,
 * imported, matched, missing, extra, and wrong time (found at another time than expected: the same key
 * with another end, or an unmatched pair of one series). Skipped, with one line, where the corpus is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_META, localImport, runOnce, storedEvents } from '../bench/ical-import';
import { decodeEntities } from '#libs/html/escape';
import { RECORD_META } from '../services/aggregator/storage/records';
import expectedJson from './fixtures/ical-corpus-expected.json';

const CORPUS = process.env.ICAL_CORPUS_DIR ?? resolve(__dirname, '../../shared/ical-corpus');
const present = existsSync(resolve(CORPUS, 'manifest.tsv'));
if (!present) process.stdout.write(`\nnot run: ical corpus absent (looked for ${CORPUS}); the corpus comparison is skipped\n`);

type Expected = [string | null, string, string, string?];
interface FileExpectation {
  clock?: string;
  error?: string;
  corrections?: string[];
  events?: Expected[];
}
const expected = expectedJson as unknown as { files: Record<string, FileExpectation> };

interface Row {
  file: string;
  expected: number;
  imported: number;
  matched: number;
  missing: number;
  extra: number;
  'wrong time': number;
}

/** One occurrence: its series, its key (series + start) and its end. */
interface Seen {
  series: string;
  key: string;
  end: string;
}

const iso = (mysql: unknown) => `${String(mysql).replace(' ', 'T')}Z`;
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The series UID of a stored key: the UID, less the occurrence suffix (`/20260105T090000Z`, `/20260105`). */
const seriesOf = (key: string) => key.replace(/\/\d{8}(T\d{6}Z)?$/, '').replace(/#[0-9a-f]{8}$/, '');

function compare(file: string, want: Expected[], got: Seen[]): Row & { details: string[] } {
  const wanted: Seen[] = want.map(([uid, start, end, title]) => {
    const series = uid ?? `title:${title ?? ''}`;
    return { series, key: `${series}|${start}`, end };
  });
  const byKey = new Map<string, Seen[]>();
  for (const g of got) byKey.set(g.key, [...(byKey.get(g.key) ?? []), g]);
  let matched = 0;
  let wrong = 0;
  const missing: Seen[] = [];
  for (const w of wanted) {
    const list = byKey.get(w.key);
    const at = list?.findIndex((g) => g.end === w.end) ?? -1;
    if (list && at >= 0) {
      list.splice(at, 1);
      matched++;
    } else if (list && list.length) {
      list.shift();
      wrong++;
    } else missing.push(w);
  }
  // What is left on both sides in one series was found at another time.
  const extra = [...byKey.values()].flat();
  const leftMissing: Seen[] = [];
  for (const m of missing) {
    const at = extra.findIndex((e) => e.series === m.series);
    if (at >= 0) {
      extra.splice(at, 1);
      wrong++;
    } else leftMissing.push(m);
  }
  const details = [...leftMissing.map((m) => `missing ${m.key} → ${m.end}`), ...extra.map((e) => `extra ${e.key} → ${e.end}`)];
  return { file, expected: wanted.length, imported: got.length, matched, missing: leftMissing.length, extra: extra.length, 'wrong time': wrong, details };
}

(present ? describe : describe.skip)('the iCalendar corpus', () => {
  const rows: Row[] = [];
  const notes: string[] = [];

  afterAll(() => {
    const total = rows.reduce(
      (t, r) => ({
        ...t,
        expected: t.expected + r.expected,
        imported: t.imported + r.imported,
        matched: t.matched + r.matched,
        missing: t.missing + r.missing,
        extra: t.extra + r.extra,
        'wrong time': t['wrong time'] + r['wrong time'],
      }),
      { file: 'total', expected: 0, imported: 0, matched: 0, missing: 0, extra: 0, 'wrong time': 0 },
    );
    console.table([...rows, total]);
    if (notes.length) console.log(notes.join('\n'));
  });

  const files = Object.keys(expected.files).sort();

  it('has an expectation for every file of the corpus', () => {
    const onDisk = readFileSync(resolve(CORPUS, 'manifest.tsv'), 'utf8')
      .split('\n')
      .map((l) => l.split('\t')[0])
      .filter((n) => n.endsWith('.ics'))
      .sort();
    expect(files).toEqual(onDisk);
    expect(files.filter((f) => expected.files[f].error)).toEqual([]);
  });

  it.each(files)('%s imports as expected', async (file) => {
    const exp = expected.files[file];
    const text = readFileSync(resolve(CORPUS, file), 'utf8');
    const l = await localImport(text, new Date(exp.clock!));
    try {
      const run = await runOnce(l);
      expect(run.status).toBe('vendor-ea-success');
      const got: Seen[] = (await storedEvents(l)).map((d) => {
        const m = d.meta ?? {};
        const uid = String(m._uid ?? '');
        const series = uid.startsWith('hash-') ? `title:${decodeEntities(d.title)}` : seriesOf(uid);
        const allDay = m[EVENT_META.allDay] === true || m[EVENT_META.allDay] === 'yes';
        const start = allDay ? String(m[EVENT_META.start]).slice(0, 10) : iso(m[EVENT_META.startUtc]);
        const end = allDay ? nextDay(String(m[EVENT_META.end]).slice(0, 10)) : iso(m[EVENT_META.endUtc]);
        return { series, key: `${series}|${start}`, end };
      });
      const row = compare(file, exp.events!, got);
      const { details, ...plain } = row;
      rows.push(plain);
      if (details.length) notes.push(`${file} (${String(run.meta?.[RECORD_META.message] ?? '')}):\n  ${details.slice(0, 12).join('\n  ')}`);
      expect(plain).toEqual({ ...plain, matched: plain.expected, missing: 0, extra: 0, 'wrong time': 0 });
    } finally {
      await l.close();
    }
  });
});
