/**
 * The limit of this design, beside which `npm run bench` measures the service: a minimal Koa +
 * better-sqlite3 app on a copy of the same seeded store, with the same authentication scheme (HTTP
 * Basic with an application password kept as a salted HMAC-SHA256 and compared in constant time,
 * libs/auth/passwords.ts) and the same work per row, and nothing else: no validation beyond what the
 * answer needs, no permissions, no presentation, no logging.
 *
 * - `GET /index`: a cached body (the service's site index, as the bench wrote it to MINIMAL_INDEX);
 * - `GET /posts/{id}`, `GET /events/{id}`: a row by id, parsed and stringified;
 * - `GET /posts?page=N`, `GET /events?page=N`: a page of 10 (stored JSON joined) with a count, over the
 *   store's own indexes (type, status, date) and (type, status, hide_from_listings, event_start, …);
 * - `GET /events?category=slug&start=ms&end=ms`: an indexed window of one category with a count, over a
 *   (term, start) table it builds at start-up;
 * - `POST /events`: a JSON body checked for a title and dates, inserted in a transaction, answered 201;
 * - anything else: Koa's 404 (after authentication).
 *
 * Run as a child process by bench/limit.ts (`node dist/bench/minimal-app.js`), with MINIMAL_DB (a
 * store.sqlite copy), PORT, MINIMAL_USER and MINIMAL_SECRET (the one credential it accepts) and
 * MINIMAL_INDEX (a file holding the index body).
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { hashAppPassword, verifyAppPassword } from '#libs/auth/passwords';
import { CATEGORY_TAXONOMY, EVENT_TYPE } from '#libs/calendar/meta';

const env = process.env;
const db = new Database(env.MINIMAL_DB ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -32768');

// The category archive's index: (term, start) for every published event.
db.exec(`
  DROP TABLE IF EXISTS ev_terms;
  CREATE TABLE ev_terms (term INTEGER NOT NULL, start INTEGER NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (term, start, rid)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS minimal_events (id INTEGER PRIMARY KEY, status TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS minimal_events_start ON minimal_events (status, start);
`);
db.prepare(
  `INSERT INTO ev_terms (term, start, rid) SELECT t.value, p.event_start, p.rid FROM "posts:terms" t JOIN posts p ON p.rid = t.doc WHERE p.type = ? AND p.status = 'publish'`,
).run(EVENT_TYPE);

const byId = db.prepare(`SELECT doc FROM posts WHERE id = ? AND type = ?`).pluck();
const postPage = db.prepare(`SELECT doc FROM posts WHERE type = 'post' AND status = 'publish' ORDER BY date DESC LIMIT 10 OFFSET ?`).pluck();
const postCount = db.prepare(`SELECT COUNT(*) FROM posts WHERE type = 'post' AND status = 'publish'`).pluck();
const eventPage = db
  .prepare(`SELECT doc FROM posts WHERE type = ? AND status = 'publish' AND hide_from_listings = 0 AND event_start >= ? ORDER BY event_start LIMIT 10 OFFSET ?`)
  .pluck();
const eventCount = db.prepare(`SELECT COUNT(*) FROM posts WHERE type = ? AND status = 'publish' AND hide_from_listings = 0 AND event_start >= ?`).pluck();
const termBySlug = db.prepare(`SELECT id FROM terms WHERE taxonomy = ? AND slug = ?`).pluck();
const windowPage = db
  .prepare(`SELECT p.doc FROM ev_terms e JOIN posts p ON p.rid = e.rid WHERE e.term = ? AND e.start >= ? AND e.start <= ? ORDER BY e.start LIMIT 10 OFFSET ?`)
  .pluck();
const windowCount = db.prepare(`SELECT COUNT(*) FROM ev_terms WHERE term = ? AND start >= ? AND start <= ?`).pluck();
const insertEvent = db.prepare(`INSERT INTO minimal_events (status, start, "end", doc) VALUES ('publish', ?, ?, ?)`);
const insert = db.transaction((start: number, end: number, doc: Record<string, unknown>) => {
  const id = Number(insertEvent.run(start, end, JSON.stringify(doc)).lastInsertRowid);
  return { id, ...doc };
});

const credentials = new Map<string, string>([[env.MINIMAL_USER ?? 'admin', hashAppPassword(env.MINIMAL_SECRET ?? '')]]);
const indexBody = env.MINIMAL_INDEX ? readFileSync(env.MINIMAL_INDEX) : Buffer.from('{}');

const app = new Koa();

app.use(async (ctx, next) => {
  const header = ctx.get('authorization');
  if (header) {
    const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : '';
    const colon = decoded.indexOf(':');
    const stored = colon > 0 ? credentials.get(decoded.slice(0, colon)) : undefined;
    if (!stored || !verifyAppPassword(decoded.slice(colon + 1), stored)) {
      ctx.status = 401;
      ctx.body = { code: 'invalid_credentials', message: 'Unknown user or wrong password.', data: { status: 401 } };
      return;
    }
    ctx.state.user = decoded.slice(0, colon);
  }
  await next();
});

const page = (v: unknown) => Math.max(1, Number(v) || 1);
const json = (ctx: Koa.Context, body: string, total?: number) => {
  ctx.type = 'application/json';
  ctx.body = body;
  if (total !== undefined) {
    ctx.set('X-WP-Total', String(total));
    ctx.set('X-WP-TotalPages', String(Math.ceil(total / 10)));
  }
};

app.use(async (ctx, next) => {
  const parts = ctx.path.split('/');
  if (ctx.method === 'GET' && ctx.path === '/index') {
    ctx.type = 'application/json';
    ctx.body = indexBody;
    return;
  }
  if (ctx.method === 'GET' && parts.length === 3 && (parts[1] === 'posts' || parts[1] === 'events') && /^\d+$/.test(parts[2])) {
    const doc = byId.get(Number(parts[2]), parts[1] === 'posts' ? 'post' : EVENT_TYPE) as string | undefined;
    if (doc === undefined) return next();
    json(ctx, JSON.stringify(JSON.parse(doc)));
    return;
  }
  if (ctx.method === 'GET' && ctx.path === '/posts') {
    const rows = postPage.all((page(ctx.query.page) - 1) * 10) as string[];
    json(ctx, `[${rows.join(',')}]`, Number(postCount.get()));
    return;
  }
  if (ctx.method === 'GET' && ctx.path === '/events' && ctx.query.category) {
    const term = termBySlug.get(CATEGORY_TAXONOMY, String(ctx.query.category)) as number | undefined;
    if (term === undefined) return next();
    const [start, end] = [Number(ctx.query.start), Number(ctx.query.end)];
    const rows = windowPage.all(term, start, end, (page(ctx.query.page) - 1) * 10) as string[];
    json(ctx, `[${rows.join(',')}]`, Number(windowCount.get(term, start, end)));
    return;
  }
  if (ctx.method === 'GET' && ctx.path === '/events') {
    const from = Date.now() - 86_400_000;
    const rows = eventPage.all(EVENT_TYPE, from, (page(ctx.query.page) - 1) * 10) as string[];
    json(ctx, `[${rows.join(',')}]`, Number(eventCount.get(EVENT_TYPE, from)));
    return;
  }
  if (ctx.method === 'POST' && ctx.path === '/events') {
    let body: Record<string, unknown>;
    try {
      const chunks: Buffer[] = [];
      for await (const c of ctx.req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    } catch {
      ctx.status = 400;
      ctx.body = { code: 'invalid_json', message: 'Invalid JSON body.', data: { status: 400 } };
      return;
    }
    const start = Date.parse(`${String(body.start_date).replace(' ', 'T')}Z`);
    const end = Date.parse(`${String(body.end_date).replace(' ', 'T')}Z`);
    if (typeof body.title !== 'string' || !body.title || Number.isNaN(start) || Number.isNaN(end) || end < start) {
      ctx.status = 400;
      ctx.body = { code: 'invalid_param', message: 'A title and valid dates are required.', data: { status: 400 } };
      return;
    }
    ctx.status = 201;
    ctx.body = insert(start, end, { title: body.title, start_date: body.start_date, end_date: body.end_date, status: 'publish' });
    return;
  }
  await next();
});

app.listen(Number(env.PORT), '127.0.0.1');
