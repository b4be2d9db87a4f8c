/**
 * The all-in-one process on the embedded SQLite store, killed with SIGKILL in the middle of a stream of
 * concurrent creates, then started again on the same data folder: every create that was answered 201
 * is there with its fields whole, none is there twice, and the store opens cleanly. Three rounds. Then
 * twenty cycles of six concurrent event creates, each with a new venue, organizer and category inline,
 * killed at a random moment: the event and what it created are one unit, so no venue, organizer or
 * category is ever left without its event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { openStore } from '#libs/store/index';
import { ADMIN, makeRequester } from './support/app';
import { freePort } from './support/cluster';

const ROOT = resolve(__dirname, '..');
const REGISTER = resolve(ROOT, 'scripts/ts-register.js');
const IN_FLIGHT = 8;

interface Proc {
  child: ChildProcess;
  output: string[];
  url: string;
}

let dataDir: string;
let port: number;
let current: Proc | undefined;

async function startAllInOne(): Promise<Proc> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['-r', REGISTER, resolve(ROOT, 'services/main.ts'), 'all'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: url,
      LOG_LEVEL: 'warn',
      ADMIN_USER: ADMIN.login,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_APP_PASSWORD: ADMIN.appPassword,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = { child, output: [], url };
  const keep = (b: Buffer) => {
    proc.output.push(b.toString());
    if (proc.output.length > 200) proc.output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode}:\n${proc.output.join('')}`);
    if (Date.now() > deadline) throw new Error(`the process did not become ready:\n${proc.output.join('')}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  current = proc;
  return proc;
}

function killHard(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => proc.child.once('exit', () => r()));
  proc.child.kill('SIGKILL');
  return gone;
}

interface Written {
  kind: 'post' | 'event';
  id: number;
  title: string;
  n: number;
}

const day = (n: number, year = 2032) => `${year}-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ecs-crash-'));
  port = await freePort();
});

afterAll(async () => {
  if (current) await killHard(current);
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps every acknowledged create, whole and once, across three SIGKILLs', async () => {
  const acked: Written[] = [];
  let n = 0;
  for (let round = 0; round < 3; round++) {
    const proc = await startAllInOne();
    const request = makeRequester(proc.url, `${proc.url}/index.php/cms-json`);
    const auth: [string, string] = [ADMIN.login, ADMIN.appPassword];

    let stop = false;
    let answered = 0;
    const create = async (): Promise<void> => {
      const i = n++;
      const kind = i % 2 === 0 ? 'post' : 'event';
      const title = `Crash ${kind} ${round}-${i}`;
      try {
        const res =
          kind === 'post'
            ? await request('POST', '/cms/v2/posts', { auth, body: { title, content: `Body ${i}`, status: 'publish', date: `${day(i, 2022)}T09:30:00` } })
            : await request('POST', '/vendor/events/v1/events', {
                auth,
                body: { title, start_date: `${day(i)} 10:00:00`, end_date: `${day(i)} 12:30:00`, cost: String(i), website: `https://example.com/e/${i}` },
              });
        if (res.status === 201) {
          acked.push({ kind, id: res.body.id, title, n: i });
          answered++;
        }
      } catch {
        // the connection died with the process: the write is not acknowledged
      }
    };
    const lane = async () => {
      while (!stop) await create();
    };
    const lanes = Array.from({ length: IN_FLIGHT }, lane);
    // Kill once a round's worth of writes has been acknowledged, with eight more in flight.
    const target = 40 + round * 15;
    while (answered < target) await new Promise((r) => setTimeout(r, 5));
    await killHard(proc);
    stop = true;
    await Promise.all(lanes);
    expect(proc.child.signalCode).toBe('SIGKILL');
  }

  // The store the last kill left behind is consistent (SQLite replays its WAL on open).
  const db = new Database(join(dataDir, 'store.sqlite'));
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();

  const proc = await startAllInOne();
  const request = makeRequester(proc.url, `${proc.url}/index.php/cms-json`);
  const auth: [string, string] = [ADMIN.login, ADMIN.appPassword];

  for (const w of acked) {
    if (w.kind === 'post') {
      const res = await request('GET', `/cms/v2/posts/${w.id}?context=edit`, { auth });
      expect(res.status).toBe(200);
      expect(res.body.title.raw).toBe(w.title);
      expect(res.body.content.raw).toBe(`Body ${w.n}`);
      expect(res.body.date).toBe(`${day(w.n, 2022)}T09:30:00`);
      expect(res.body.status).toBe('publish');
    } else {
      const res = await request('GET', `/vendor/events/v1/events/${w.id}`, { auth });
      expect(res.status).toBe(200);
      expect(res.body.title).toBe(w.title);
      expect(res.body.start_date).toBe(`${day(w.n)} 10:00:00`);
      expect(res.body.end_date).toBe(`${day(w.n)} 12:30:00`);
      expect(res.body.website).toBe(`https://example.com/e/${w.n}`);
      expect(String(res.body.cost)).toContain(String(w.n));
    }
  }

  // One record per title: search every acknowledged title and count the exact matches.
  const posts = await listAll(request, auth, '/cms/v2/posts?search=Crash%20post&context=edit&status=any', (p) => p.title.raw);
  const events = await listAll(
    request,
    auth,
    '/vendor/events/v1/events?search=Crash%20event&start_date=2032-01-01&end_date=2032-12-31&status=any',
    (e) => e.title,
  );
  const counts = new Map<string, number>();
  for (const t of [...posts, ...events]) counts.set(t, (counts.get(t) ?? 0) + 1);
  expect([...counts.values()].filter((c) => c > 1)).toEqual([]);
  for (const w of acked) expect(counts.get(w.title)).toBe(1);
  expect(acked.length).toBeGreaterThanOrEqual(40 + 55 + 70);
}, 90000);

it('never leaves an inline venue, organizer or category without its event, killed at any moment', async () => {
  if (current) await killHard(current);
  const CYCLES = 20;
  const LANES = 6;
  const acked: Array<{ id: number; n: string }> = [];
  let sent = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const proc = await startAllInOne();
    const request = makeRequester(proc.url, `${proc.url}/index.php/cms-json`);
    const auth: [string, string] = [ADMIN.login, ADMIN.appPassword];
    let stop = false;
    let firstAnswer!: () => void;
    const answered = new Promise<void>((r) => (firstAnswer = r));
    const create = async (): Promise<void> => {
      const n = `${cycle}-${sent++}`;
      try {
        const res = await request('POST', '/vendor/events/v1/events', {
          auth,
          body: {
            title: `Unit event ${n}`,
            start_date: '2033-03-03 10:00:00',
            end_date: '2033-03-03 11:00:00',
            status: 'publish',
            venue: { venue: `Unit venue ${n}`, city: 'Lyon' },
            organizer: [{ organizer: `Unit organizer ${n}` }],
            categories: [`Unit category ${n}`],
          },
        });
        if (res.status === 201) acked.push({ id: res.body.id, n });
        firstAnswer();
      } catch {
        // the connection died with the process: the write is not acknowledged
      }
    };
    const lanes = Array.from({ length: LANES }, async () => {
      while (!stop) await create();
    });
    // Once the process answers, kill it a random moment later, with six creates in flight.
    await answered;
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
    await killHard(proc);
    stop = true;
    await Promise.all(lanes);
  }

  const store = await openStore({ dataDir });
  try {
    const posts = store.collection('posts');
    const events = await posts.find({ type: EVENT_TYPE, title: { $icontains: 'Unit event' } }, { fields: ['venues', 'organizers', 'terms', 'title'] });
    const linked = (key: 'venues' | 'organizers' | 'terms') => new Set(events.flatMap((e) => (Array.isArray(e[key]) ? e[key].map(Number) : [])));
    const venues = await posts.find({ type: VENUE_TYPE, title: { $icontains: 'Unit venue' } }, { fields: ['title'] });
    const organizers = await posts.find({ type: ORGANIZER_TYPE, title: { $icontains: 'Unit organizer' } }, { fields: ['title'] });
    const categories = await store.collection('terms').find({ name: { $icontains: 'Unit category' } });
    const orphans = (docs: Array<{ id?: unknown; title?: unknown; name?: unknown }>, ids: Set<number>) =>
      docs.filter((d) => !ids.has(Number(d.id))).map((d) => String(d.title ?? d.name));
    expect(orphans(venues, linked('venues'))).toEqual([]);
    expect(orphans(organizers, linked('organizers'))).toEqual([]);
    expect(orphans(categories, linked('terms'))).toEqual([]);
    // Every acknowledged create is there with all it created; kills landed while creates were being written.
    const byId = new Map(events.map((e) => [Number(e.id), e]));
    for (const a of acked) {
      const e = byId.get(a.id);
      expect(e?.title).toBe(`Unit event ${a.n}`);
      expect(e?.venues).toHaveLength(1);
      expect(e?.organizers).toHaveLength(1);
    }
    expect(events.length).toBeGreaterThanOrEqual(acked.length);
    expect(sent).toBeGreaterThan(acked.length);
    expect(venues.length).toBe(events.length);
  } finally {
    await store.close();
  }
}, 900000);

async function listAll(request: ReturnType<typeof makeRequester>, auth: [string, string], path: string, title: (item: any) => string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const res = await request('GET', `${path}&per_page=100&page=${page}`, { auth });
    expect(res.status).toBe(200);
    const items = Array.isArray(res.body) ? res.body : res.body.events;
    out.push(...items.map(title));
    const pages = Number(res.headers.get('x-wp-totalpages') ?? res.body.total_pages ?? 1);
    if (page >= pages) return out;
  }
}
