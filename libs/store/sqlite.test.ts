/**
 * What only the embedded store has: a file that survives restarts, schema growth through ensure(),
 * typed columns and side tables that indexes actually serve, transactional bulk inserts.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { SqliteStore, decodeDoc, encodeDoc } from './sqlite';
import type { CollectionSpec, Doc, Filter } from './types';

const SPEC: CollectionSpec = {
  name: 'items',
  fields: { id: 'int', slug: 'text', status: 'text', title: 'text', sticky: 'bool', date: 'date', rank: 'int' },
  arrays: { terms: 'int' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['slug'], unique: true, sparse: true }, { keys: ['status', 'date'] }, { keys: ['date'] }],
};

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-sqlite-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function docs(n: number, from = 1): Doc[] {
  const out: Doc[] = [];
  for (let i = from; i < from + n; i++) {
    out.push({
      id: i,
      slug: `item-${i}`,
      status: i % 3 === 0 ? 'draft' : 'publish',
      title: `Item ${i}`,
      sticky: i % 10 === 0,
      date: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000),
      rank: i % 7,
      terms: [i % 20, 100 + (i % 3)],
      content: 'lorem ipsum '.repeat(20),
    });
  }
  return out;
}

describe('SQLite store', () => {
  it('keeps data, layout and counters in its file across a reopen', async () => {
    const dir = tempDir();
    const first = new SqliteStore({ dataDir: dir });
    expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await first.ensure([SPEC]);
    await first.collection('items').insertMany(docs(50));
    expect(await first.nextId('posts', 5)).toBe(1);
    await first.close();
    expect(fs.existsSync(path.join(dir, 'store.sqlite'))).toBe(true);

    // No ensure() this time: the declared layout is read back from the file.
    const again = new SqliteStore({ dataDir: dir });
    const items = again.collection('items');
    expect(await items.count({})).toBe(50);
    expect((await items.findOne({ id: 7 }))!.date).toEqual(new Date(Date.UTC(2024, 0, 1) + 7 * 3_600_000));
    expect(await items.count({ terms: 5 })).toBe(3);
    expect(again.explain('items', { terms: 5 }).join('\n')).toMatch(/ix:items:terms:value/);
    expect(await again.nextId('posts')).toBe(6);
    await again.close();
  });

  it('ensure() adds columns and side tables to an existing table, filled from the JSON', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.ensure([{ name: 'items', fields: { id: 'int' }, indexes: [{ keys: ['id'], unique: true }] }]);
    await store.collection('items').insertMany(docs(30));
    await store.close();

    const grown = new SqliteStore({ dataDir: dir });
    await grown.ensure([SPEC]);
    await grown.ensure([SPEC]);
    const columns = grown.db.prepare(`SELECT name, type FROM pragma_table_info('items')`).all();
    expect(columns).toEqual(
      expect.arrayContaining([
        { name: 'rank', type: 'INTEGER' },
        { name: 'date', type: 'INTEGER' },
        { name: 'slug', type: 'TEXT' },
      ]),
    );
    const row = grown.db.prepare(`SELECT rank, date, sticky, slug FROM items WHERE id = 10`).get();
    expect(row).toEqual({ rank: 3, date: Date.UTC(2024, 0, 1) + 10 * 3_600_000, sticky: 1, slug: 'item-10' });
    const items = grown.collection('items');
    expect(await items.count({ terms: 101 })).toBe(10);
    expect(await items.count({ rank: 3 })).toBe(4);
    expect(grown.explain('items', { status: 'draft' }).join('\n')).toMatch(/USING (COVERING )?INDEX ix:items:status\+date/);

    // New writes keep the new columns in step.
    await items.updateOne({ id: 10 }, { $set: { rank: 6 }, $push: { terms: 555 } });
    expect(grown.db.prepare(`SELECT rank FROM items WHERE id = 10`).pluck().get()).toBe(6);
    expect(await items.count({ terms: 555 })).toBe(1);
    await grown.close();
  });

  it('refuses to change the type of a declared field', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    await expect(store.ensure([{ ...SPEC, fields: { ...SPEC.fields, rank: 'text' } }])).rejects.toThrow(/needs a migration/);
    await expect(store.ensure([{ name: 'x', fields: { doc: 'text' } }])).rejects.toThrow(/reserved/);
    await expect(store.ensure([{ name: 'y', fields: { id: 'int' }, indexes: [{ keys: ['nope'] }] }])).rejects.toThrow(/declared/);
    await store.close();
  });

  it('serves declared-field and array-field filters from indexes', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    await store.collection('items').insertMany(docs(2000));
    const plan = (filter: Filter, options = {}): string => store.explain('items', filter, options).join('\n');

    expect(plan({ status: 'publish' })).toMatch(/SEARCH t USING (COVERING )?INDEX ix:items:status\+date \(status=\?\)/);
    expect(plan({ id: 5 })).toMatch(/USING INDEX ix:items:id:unique/);
    expect(plan({ id: { $in: [1, 2, 3] } })).toMatch(/USING INDEX ix:items:id:unique/);
    expect(plan({ date: { $gte: new Date('2024-02-01T00:00:00Z') } })).toMatch(/USING INDEX ix:items:date \(date>\?\)/);
    expect(plan({ terms: 5 })).toMatch(/SEARCH s USING COVERING INDEX ix:items:terms:value \(value=\?\)/);
    expect(plan({ terms: { $in: [5, 6] } })).toMatch(/ix:items:terms:value/);
    expect(plan({ terms: { $nin: [5, 6] } })).toMatch(/ix:items:terms:value/);
    // The rowid tie-breaker follows the sort, so the (status, date) index yields rows already in order.
    expect(plan({ status: 'publish' }, { sort: [['date', -1]] })).not.toMatch(/TEMP B-TREE/);
    await store.close();
  });

  it('lets a rare array value drive a query and checks a popular one per record, in the main index order, with the same answers', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    const all = docs(2000);
    await store.collection('items').insertMany(all);
    const items = store.collection('items');
    const plan = (filter: Filter, options = {}): string => store.explain('items', filter, options).join('\n');
    // terms 5: 100 records (rare); terms 100: 667 (popular, at least POPULAR_MEMBERS).
    expect(plan({ terms: 5 })).toMatch(/SEARCH s USING COVERING INDEX ix:items:terms:value \(value=\?\)/);
    const popular = plan({ status: 'publish', terms: 100 }, { sort: [['date', -1]], limit: 10 });
    expect(popular).toMatch(
      /SEARCH t USING INDEX ix:items:status\+date[\s\S]*SEARCH s (EXISTS )?USING (PRIMARY KEY \(doc=\? AND value=\?\)|COVERING INDEX ix:items:terms:value \(value=\? AND doc=\?\))/,
    );
    expect(popular).not.toMatch(/TEMP B-TREE/);
    const cases: Array<[number, Filter]> = [
      [5, { terms: 5 }],
      [100, { terms: 100 }],
      [100, { terms: { $in: [100] } }],
    ];
    for (const [value, filter] of cases) {
      const expected = all
        .filter((d) => (d.terms as number[]).includes(value) && d.status === 'publish')
        .map((d) => d.id as number)
        .sort((a, b) => b - a);
      const found = await items.find({ ...filter, status: 'publish' }, { sort: [['date', -1]] });
      expect(found.map((d) => d.id)).toEqual(expected);
      expect(await items.count({ ...filter, status: 'publish' })).toBe(expected.length);
      const first = await items.find({ ...filter, status: 'publish' }, { sort: [['date', -1]], limit: 10, skip: 5 });
      expect(first.map((d) => d.id)).toEqual(expected.slice(5, 15));
    }
    // Excluding a popular value keeps every record without it.
    expect(await items.count({ terms: { $ne: 100 } })).toBe(all.filter((d) => !(d.terms as number[]).includes(100)).length);
    await store.close();
  });

  it('writes typed columns and falls back to JSON for values of another type', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    const date = new Date('2024-07-01T12:34:56.789Z');
    await items.insertMany([
      { id: 1, title: 'Typed', sticky: true, date, rank: 2, terms: [3, 3, 4] },
      { id: 2, title: 42, sticky: 'yes', date: '2024-07-01', rank: 'high', terms: ['x'] },
    ]);
    const rows = store.db.prepare(`SELECT id, typeof(title) t, sticky, date, rank FROM items ORDER BY id`).all();
    expect(rows).toEqual([
      { id: 1, t: 'text', sticky: 1, date: date.getTime(), rank: 2 },
      { id: 2, t: 'null', sticky: null, date: null, rank: null },
    ]);
    expect(store.db.prepare(`SELECT value FROM "items:terms" ORDER BY value`).pluck().all()).toEqual([3, 4]);
    expect((await items.find({ rank: 'high' })).map((d) => d.id)).toEqual([2]);
    expect((await items.find({ title: 42 })).map((d) => d.id)).toEqual([2]);
    expect((await items.find({ terms: 'x' })).map((d) => d.id)).toEqual([2]);
    expect((await items.find({ rank: null })).map((d) => d.id)).toEqual([]);
    expect((await items.find({ date: { $gt: '2024' } })).map((d) => d.id)).toEqual([2]);
    await store.close();
  });

  it('reuses one prepared statement for every length of an $in list (a single value compiles as an equality)', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    await items.find({ id: { $in: [1, 2] } });
    const size = store['statements'].size;
    for (let n = 2; n < 50; n++) await items.find({ id: { $in: Array.from({ length: n }, (_, i) => i) } });
    expect(store['statements'].size).toBe(size);
    await items.find({ id: { $in: [1] } });
    await items.find({ id: { $in: [7] } });
    expect(store['statements'].size).toBe(size + 1);
    expect(store.explain('items', { status: { $in: ['draft'] } }, { sort: [['date', 1]] }).join('\n')).not.toMatch(/json_each|TEMP B-TREE/);
    await store.close();
  });

  it('rolls a failed insertMany back completely, side tables included', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    await items.insertMany(docs(10));
    const batch = docs(5, 100);
    batch[3] = { ...batch[3], slug: 'item-1' };
    await expect(items.insertMany(batch)).rejects.toMatchObject({ name: 'DuplicateKeyError', keys: ['slug'] });
    expect(await items.count({})).toBe(10);
    expect(store.db.prepare(`SELECT COUNT(*) FROM "items:terms"`).pluck().get()).toBe(20);
    await store.close();
  });

  it('stores side-table values of a large insertMany, each once, whatever their number per document', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    // 0 to 4 terms each (one listed twice), and one document with 700 terms: many chunks of every size.
    const batch = docs(601).map((d, i) => ({
      ...d,
      terms: i === 600 ? Array.from({ length: 700 }, (_, k) => 1000 + k) : [...Array.from({ length: i % 5 }, (_, k) => k), ...(i % 5 ? [0] : [])],
    }));
    await items.insertMany(batch);
    const expected = batch.reduce((n, d) => n + new Set(d.terms as number[]).size, 0);
    expect(store.db.prepare(`SELECT COUNT(*) FROM "items:terms"`).pluck().get()).toBe(expected);
    for (const k of [0, 1, 3]) expect(await items.count({ terms: k })).toBe(batch.filter((d) => (d.terms as number[]).includes(k)).length);
    expect((await items.find({ terms: 1699 })).map((d) => d.id)).toEqual([601]);
    expect((await items.find({ terms: { $in: [1000, 1350] } })).map((d) => d.id)).toEqual([601]);
    await store.close();
  });

  it('inserts 50,000 documents in one transaction', async () => {
    const store = new SqliteStore({ dataDir: tempDir() });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    const batch = docs(50_000);
    const started = process.hrtime.bigint();
    await items.insertMany(batch);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(`[sqlite] insertMany: 50,000 documents in ${ms.toFixed(0)} ms (${Math.round(50_000 / (ms / 1000))} docs/s)\n`);
    expect(await items.count({})).toBe(50_000);
    expect(await items.count({ terms: 7 })).toBe(2500);
    expect(await items.count({ status: 'draft', date: { $lt: new Date(Date.UTC(2024, 0, 1) + 3000 * 3_600_000) } })).toBe(999);
    await store.close();
  }, 120_000);

  it('checkpoints the WAL on its worker thread, with no commit doing it, and stops that worker on close', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.ensure([SPEC]);
    const items = store.collection('items');
    const file = path.join(dir, 'store.sqlite');
    // Let the worker copy what ensure() wrote, then note the database file's size.
    await waitFor(() => walFrames(store) === 0);
    const before = fs.statSync(file).size;
    // About 2 MiB of pages, far under the writer's own autocheckpoint threshold: written to the WAL only.
    for (let i = 0; i < 20; i++) await items.insertMany(docs(200, 1 + i * 200));
    // The worker copies them into the database file while this thread waits on nothing but a timer.
    await waitFor(() => fs.statSync(file).size > before + 1024 * 1024);
    expect(await items.count({})).toBe(4000);
    const worker = (store as unknown as { checkpointer: { running: boolean } }).checkpointer;
    expect(worker.running).toBe(true);
    await store.close();
    expect(worker.running).toBe(false);
    // Everything was checkpointed before closing: a new connection finds every row.
    const again = new SqliteStore({ dataDir: dir });
    expect(await again.collection('items').count({})).toBe(4000);
    await again.close();
  }, 30_000);
});

describe('SQLite store in a short-lived process', () => {
  it('finishes closing (the checkpoint worker holds the process until it has closed) and goes on after close()', () => {
    const dir = tempDir();
    const script = `
      const { SqliteStore } = require(${JSON.stringify(path.join(__dirname, 'sqlite.ts'))});
      (async () => {
        const store = new SqliteStore({ dataDir: ${JSON.stringify(dir)} });
        await store.ensure([{ name: 'items', fields: { id: 'int' }, indexes: [] }]);
        await store.collection('items').insertOne({ id: 1 });
        await store.close();
        process.stdout.write('closed');
      })();`;
    const out = execFileSync(process.execPath, ['-r', path.join(__dirname, '../../scripts/ts-register.js'), '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out).toBe('closed');
  });
});

/** Frames in the WAL that no checkpoint has copied yet, as a PASSIVE checkpoint from this connection reports them. */
function walFrames(store: SqliteStore): number {
  const [r] = store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
  return r.log - r.checkpointed;
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SQLite document encoding', () => {
  it('writes every Date, at any depth and in arrays, as {"$date": ISO} and reads it back as a Date', async () => {
    const at = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 6));
    const doc = { id: 1, when: at, meta: { list: [at, 'x', { deep: at }], plain: 'y', none: null, gone: undefined }, tags: ['a', 'b'] };
    const text = encodeDoc(doc);
    const iso = '{"$date":"2031-01-02T03:04:05.006Z"}';
    expect(text).toBe(`{"id":1,"when":${iso},"meta":{"list":[${iso},"x",{"deep":${iso}}],"plain":"y","none":null},"tags":["a","b"]}`);
    expect(decodeDoc(text)).toEqual({ id: 1, when: at, meta: { list: [at, 'x', { deep: at }], plain: 'y', none: null }, tags: ['a', 'b'] });
    // A document without Dates is written as JSON.stringify writes it.
    const plain = { id: 2, a: [1, null, 'z'], b: { c: true } };
    expect(encodeDoc(plain)).toBe(JSON.stringify(plain));
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([SPEC]);
    await store.collection('items').insertOne(doc);
    expect(await store.collection('items').findOne({ id: 1 })).toEqual(decodeDoc(text));
    await store.close();
  });

  it('encodes values with toJSON, class instances and Dates of another realm as it always did', () => {
    const at = new Date(Date.UTC(2030, 5, 1));
    const iso = '{"$date":"2030-06-01T00:00:00.000Z"}';
    class Holder {
      constructor(readonly when: Date) {}
    }
    const other = vm.runInNewContext('new Date(Date.UTC(2030, 5, 1))') as Date;
    expect(encodeDoc({ a: { toJSON: () => ({ when: at }) } })).toBe(`{"a":{"when":${iso}}}`);
    expect(encodeDoc({ h: new Holder(at), list: [new Holder(at)] })).toBe(`{"h":{"when":${iso}},"list":[{"when":${iso}}]}`);
    expect(encodeDoc({ other, nested: [other] })).toBe(`{"other":${iso},"nested":[${iso}]}`);
    // An own "__proto__" key (as JSON.parse makes one) stays a key beside a Date.
    const odd = JSON.parse('{"__proto__":{"x":1},"b":2}') as Record<string, unknown>;
    odd.when = at;
    expect(encodeDoc(odd)).toBe(`{"__proto__":{"x":1},"b":2,"when":${iso}}`);
  });

  it('refuses an invalid Date, naming its key', () => {
    expect(() => encodeDoc({ ok: new Date(0), meta: { bad: new Date(Number.NaN) } })).toThrow('invalid Date at bad');
    expect(() => encodeDoc({ list: [new Date(0), new Date('nope')] })).toThrow('invalid Date at 1');
  });
});
