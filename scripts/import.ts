/**
 * `node dist/scripts/import.js <command>`: start an import and feed it, playing the part of the remote
 * import service that the vendor/event-aggregator/v1 endpoints expect.
 *
 *   create [--origin json] [--post-status publish] [--author <user id>] [--import-id <id>]
 *       Creates a pending import record in the store the service uses (same MONGO_URL / DATA_DIR
 *       environment) and prints {"import_id", "batch_hash", ...} as JSON.
 *   feed <feed.json> --import-id <id> --batch-hash <hash> [--url <REST root>] [--batch-size 500]
 *       [--interval-override <seconds>] [--max-body-bytes <n>]
 *       Streams the file (a JSON array of EA event objects, read incrementally) and posts it batch by
 *       batch to POST {REST root}/vendor/event-aggregator/v1/import/{id}/batch over HTTP, following the
 *       returned next_batch_hash and waiting the returned interval (or the override) between batches.
 *       A refused batch (400) ends the import with a `failed` state; a failed delivery is sent again.
 *       Prints a summary as JSON.
 *   interval <seconds>
 *       Sets the interval the service asks for between batches (clamped to 10..600 when answered).
 *   source add|list|show|run|runs|remove ...
 *       The service's own import sources (iCalendar feeds, ICS and CSV files; scripts/import/sources.ts).
 *
 * The REST root defaults to SITE_URL/index.php/cms-json, SITE_URL defaulting to http://127.0.0.1:$PORT
 * (PORT 8080 when unset), as the service computes it: run the command with the service's environment
 * or pass --url. A service that cannot be reached ends `feed` before anything is sent, naming the URL
 * and the cause.
 */
import { createReadStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '#libs/config/env';
import { ensureCollections } from '#libs/data/ensure';
import { PostsRepository } from '#libs/posts/repository';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { setBatchInterval } from '../services/aggregator/import/interval';
import { ImportRecords } from '../services/aggregator/storage/records';
import { JsonArrayError, jsonArrayElements } from './import/json-array';
import { SourceUsageError, sourceCommand } from './import/sources';

type Options = Record<string, string | true>;

function parseArgs(argv: string[]): { positional: string[]; options: Options } {
  const positional: string[] = [];
  const options: Options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) options[k] = inline;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[k] = argv[++i];
      else options[k] = true;
    } else positional.push(a);
  }
  return { positional, options };
}

class UsageError extends Error {}

function str(o: Options, name: string, def?: string): string {
  const v = o[name];
  if (typeof v === 'string' && v !== '') return v;
  if (def !== undefined) return def;
  throw new UsageError(`--${name} is required`);
}

function num(o: Options, name: string, def: number, min: number): number {
  const v = o[name];
  if (v === undefined) return def;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number of at least ${min}`);
  return n;
}

async function withStore<T>(fn: (store: Store, site: ReturnType<typeof siteFrom>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR });
  try {
    await ensureCollections(store);
    return await fn(store, siteFrom(config));
  } finally {
    await store.close();
  }
}

async function create(o: Options): Promise<void> {
  await withStore(async (store, site) => {
    let author = o.author !== undefined ? num(o, 'author', 0, 0) : 0;
    if (o.author === undefined) {
      // Imported records belong to the first administrator, as the reference picks a user who can edit events.
      const admin = (await store.collection('users').find({}, { sort: [['id', 1]] })).find((u) => Array.isArray(u.roles) && u.roles.includes('administrator'));
      author = typeof admin?.id === 'number' ? admin.id : 0;
    }
    const records = new ImportRecords(new PostsRepository(store), site);
    const record = await records.create({
      origin: str(o, 'origin', 'json'),
      author,
      ...(typeof o['import-id'] === 'string' ? { importId: o['import-id'] } : {}),
      ...(typeof o['post-status'] === 'string' ? { postStatus: o['post-status'] } : {}),
    });
    const out = {
      import_id: record.import_id,
      batch_hash: record.meta._vendor_aggregator_next_batch_hash,
      record_id: record.id,
      origin: record.meta._vendor_aggregator_origin,
      batch_url: `${site.restRoot}vendor/event-aggregator/v1/import/${record.import_id}/batch`,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  });
}

async function setInterval(positional: string[]): Promise<void> {
  const v = positional[0];
  if (v === undefined || !/^\d+$/.test(v)) throw new UsageError('interval takes a whole number of seconds');
  await withStore(async (store) => {
    await setBatchInterval(store, Number(v));
    process.stdout.write(`${JSON.stringify({ interval: Number(v) })}\n`);
  });
}

/** Batch sizes for the feed: at most `size` events and `maxBytes` of event JSON each. One pass over the file, which also checks every element is JSON. */
async function planBatches(file: string, size: number, maxBytes: number): Promise<{ total: number; batches: number[] }> {
  const batches: number[] = [];
  let total = 0;
  let inBatch = 0;
  let bytes = 0;
  for await (const text of jsonArrayElements(createReadStream(file, { highWaterMark: 1 << 16 }))) {
    try {
      JSON.parse(text);
    } catch (e) {
      throw new JsonArrayError(`element ${total} is not valid JSON: ${(e as Error).message}`);
    }
    const len = Buffer.byteLength(text) + 1;
    if (len > maxBytes) throw new JsonArrayError(`element ${total} is larger than a whole batch may be (${maxBytes} bytes)`);
    if (inBatch > 0 && (inBatch >= size || bytes + len > maxBytes)) {
      batches.push(inBatch);
      inBatch = 0;
      bytes = 0;
    }
    inBatch++;
    bytes += len;
    total++;
  }
  batches.push(inBatch);
  return { total, batches };
}

interface BatchAnswer {
  status?: string;
  activity?: Record<string, { created?: number[]; updated?: number[]; skipped?: number[] }>;
  interval?: number;
  next_batch_hash?: string;
  code?: string;
  message?: string;
  data?: unknown;
}

async function post(url: string, body: string): Promise<{ status: number; body: BatchAnswer }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  let parsed: BatchAnswer;
  try {
    parsed = text ? (JSON.parse(text) as BatchAnswer) : {};
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** What went wrong with a request that got no HTTP answer: the system's code and message (fetch hides them in `cause`). */
export function connectionProblem(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: Array<{ message?: string }> } }).cause;
  if (!cause) return (e as Error).message;
  // A host name with several addresses fails with one error per address.
  const detail = cause.message || cause.errors?.map((x) => x.message).join('; ') || (e as Error).message;
  return cause.code && !detail.includes(cause.code) ? `${cause.code}: ${detail}` : detail;
}

/** Checks that the REST root answers and serves the import routes; a message saying what failed, or null. */
async function reachable(root: string): Promise<string | null> {
  const url = `${root}/vendor/event-aggregator/v1`;
  const hint = 'start the service, or point the command at it with --url <REST root> or the SITE_URL / PORT the service uses';
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    return `cannot reach the service at ${url} (${connectionProblem(e)}): ${hint}`;
  }
  await res.arrayBuffer().catch(() => undefined);
  if (res.status === 404) return `${url} answered 404: ${root} is not the REST root of this service; ${hint}`;
  return null;
}

async function feed(positional: string[], o: Options): Promise<number> {
  const file = positional[0];
  if (!file) throw new UsageError('feed takes the path of a JSON file');
  if (/\.ics$/i.test(file)) throw new UsageError('iCalendar files are not read by this command; convert the feed to a JSON array of EA event objects');
  const importId = str(o, 'import-id');
  let hash = str(o, 'batch-hash');
  const config = loadConfig();
  const root = str(o, 'url', siteFrom(config).restRoot).replace(/\/+$/, '');
  const size = num(o, 'batch-size', 500, 1);
  // Leave room for the rest of the body under the service's request size limit.
  const maxBytes = num(o, 'max-body-bytes', config.MAX_BODY_BYTES, 4096) - 2048;
  const override = o['interval-override'] !== undefined ? num(o, 'interval-override', 0, 0) : null;
  const url = `${root}/vendor/event-aggregator/v1/import/${encodeURIComponent(importId)}`;
  const unreachable = await reachable(root);
  if (unreachable) {
    log(unreachable);
    return 1;
  }

  const { total, batches } = await planBatches(file, size, maxBytes);
  log(`feeding ${total} events in ${batches.length} batches to ${url}/batch`);
  const started = Date.now();
  let done = 0;
  const totals = { created: 0, updated: 0, skipped: 0 };
  let b = 0;
  let events: string[] = [];

  const send = async (): Promise<number | null> => {
    const percentage = total === 0 ? 100 : Math.floor(((done + events.length) / total) * 100);
    const body = `{"batch_hash":${JSON.stringify(hash)},"percentage_complete":${percentage},"status":${JSON.stringify({ data: { total, done }, batch: { per_batch: size, total: batches.length, done: b } })},"events":[${events.join(',')}]}`;
    for (let attempt = 1; ; attempt++) {
      let answer: { status: number; body: BatchAnswer };
      try {
        answer = await post(`${url}/batch`, body);
      } catch (e) {
        answer = { status: 0, body: { message: connectionProblem(e) } };
      }
      if (answer.status === 200) {
        const a = answer.body.activity?.vendor_events ?? {};
        totals.created += a.created?.length ?? 0;
        totals.updated += a.updated?.length ?? 0;
        totals.skipped += a.skipped?.length ?? 0;
        done += events.length;
        log(`batch ${b + 1}/${batches.length}: ${events.length} events (${a.created?.length ?? 0} created, ${a.updated?.length ?? 0} updated), ${percentage}%`);
        if (answer.body.next_batch_hash) hash = answer.body.next_batch_hash;
        const wait = override ?? answer.body.interval ?? 10;
        if (b + 1 < batches.length && wait > 0) await sleep(wait * 1000);
        return null;
      }
      if (answer.status >= 400 && answer.status < 500) {
        log(`batch ${b + 1} was refused (${answer.status} ${answer.body.code ?? ''}): ${answer.body.message ?? ''} ${JSON.stringify(answer.body.data ?? '')}`);
        const message = `Batch ${b + 1} of ${batches.length} was refused: ${answer.body.message ?? answer.status}`;
        const reported = await post(
          `${url}/state`,
          JSON.stringify({
            batch_hash: hash,
            status: 'failed',
            message,
            message_slug: 'error:batch-refused',
            percentage_complete: Math.floor((done / Math.max(total, 1)) * 100),
          }),
        ).catch(() => null);
        log(reported?.status === 200 ? 'the import is marked failed' : 'the import could not be marked failed');
        return 1;
      }
      if (attempt >= 5) {
        log(
          `batch ${b + 1} could not be delivered after ${attempt} attempts (${answer.status} ${answer.body.message ?? ''}); the import stays pending and can be fed again from this batch`,
        );
        return 1;
      }
      log(`batch ${b + 1}: ${answer.status || 'no answer'} (${answer.body.message ?? ''}); sending it again`);
      await sleep(Math.min(30_000, 500 * 2 ** attempt));
    }
  };

  if (total === 0) {
    const code = await send();
    if (code !== null) return code;
  } else {
    for await (const text of jsonArrayElements(createReadStream(file, { highWaterMark: 1 << 16 }))) {
      events.push(text);
      if (events.length === batches[b]) {
        const code = await send();
        if (code !== null) return code;
        b++;
        events = [];
      }
    }
  }
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({ import_id: importId, events: total, batches: batches.length, ...totals, seconds, events_per_second: Math.round(total / Math.max(seconds, 0.001)) })}\n`,
  );
  return 0;
}

const USAGE = `usage: import.js create [--origin json] [--post-status publish] [--author <id>] [--import-id <id>]
       import.js feed <feed.json> --import-id <id> --batch-hash <hash> [--url <REST root>] [--batch-size 500] [--interval-override <seconds>]
         (the REST root defaults to $SITE_URL/index.php/cms-json, else http://127.0.0.1:$PORT/index.php/cms-json)
       import.js interval <seconds>
       import.js source add --origin ical --source <feed URL> | --origin ics|csv --file <path> [--schedule once|hourly|daily|weekly]
                 [--interval <s>] [--on-removed keep|draft|trash] [--post-status publish] [--timezone <zone>] [--categories 3,7] [--title <name>]
       import.js source list | show <id> | run <id> | runs <id> | remove <id>
         (as an administrator: --user and --app-password, or IMPORT_USER and IMPORT_APP_PASSWORD; --url as for feed)`;

export async function main(argv: string[]): Promise<number> {
  const { positional, options } = parseArgs(argv);
  const [command, ...rest] = positional;
  try {
    switch (command) {
      case 'create':
        await create(options);
        return 0;
      case 'feed':
        return await feed(rest, options);
      case 'interval':
        await setInterval(rest);
        return 0;
      case 'source': {
        const root = str(options, 'url', siteFrom(loadConfig()).restRoot).replace(/\/+$/, '');
        const unreachable = await reachable(root);
        if (unreachable) {
          log(unreachable);
          return 1;
        }
        return await sourceCommand(rest, { root, options, env: process.env, out: (t) => process.stdout.write(t), log });
      }
      default:
        log(USAGE);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof SourceUsageError) {
      log(`${e.message}\n${USAGE}`);
      return 2;
    }
    if (e instanceof JsonArrayError) {
      log(e.message);
      return 1;
    }
    throw e;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`import failed: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
