/**
 * The store port's contract, run against both adapters (contract.fixtures.ts): units of work, the Repository and bulk writes; and opening either store, and MongoDB's duplicate-key errors.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openStore } from './index';
import { mapError, MongoStore } from './mongo';
import { UNIT_JOURNAL, UNIT_LEASE_MS, UnitAbandonedError } from './mongo-unit';
import { Repository } from './repository';
import { DuplicateKeyError, type Collection, type Doc } from './types';
import { describeStores, h, inOrder, items, match } from './contract.fixtures';

describeStores(() => {
  describe('units of work', () => {
    const deferred = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const boom = () => {
      throw new Error('boom');
    };

    it('keeps a unit’s writes, which its own reads see, and answers its result', async () => {
      const result = await h.store.unit(async () => {
        await items.insertOne({ id: 100, title: 'unit' });
        await items.updateOne({ id: 1 }, { $set: { title: 'in unit' } });
        expect(await items.count({ id: 100 })).toBe(1);
        expect((await items.findOne({ id: 1 }))!.title).toBe('in unit');
        return 7;
      });
      expect(result).toBe(7);
      expect(await match({ id: { $gte: 100 } })).toEqual([100]);
      expect((await items.findOne({ id: 1 }))!.title).toBe('in unit');
    });

    it('counts a unit that only inserted as an insert once it commits, and one taken back as a change', async () => {
      const changes = () => h.store.generations.changesOf('items');
      const all = () => h.store.generations.of('items');
      let before = changes();
      let writes = all();
      await h.store.unit(async () => {
        await items.insertOne({ id: 110 });
        await items.insertMany([{ id: 111 }]);
      });
      expect(changes()).toBe(before);
      expect(all()).toBeGreaterThan(writes);
      before = changes();
      await expect(
        h.store.unit(async () => {
          await items.insertOne({ id: 112 });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(changes()).toBeGreaterThan(before);
      before = changes();
      writes = all();
      await h.store.unit(async () => {
        await items.insertOne({ id: 113 });
        await items.updateOne({ id: 110 }, { $set: { title: 'changed' } });
      });
      expect(changes()).toBeGreaterThan(before);
      expect(all()).toBeGreaterThan(writes);
    });

    it('leaves none of the inserts of a unit that fails, nested units included', async () => {
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 101 });
        await h.store.unit(async () => {
          await items.insertMany([{ id: 102 }, { id: 103, terms: [77] }]);
        });
        boom();
      });
      await expect(failing).rejects.toThrow('boom');
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
      expect(await match({ terms: 77 })).toEqual([]);
    });

    it('leaves none of its writes with transactions; without, keeps what its first update committed', async () => {
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 104 });
        await items.updateOne({ id: 1 }, { $set: { title: 'changed' } });
        await items.insertOne({ id: 105 });
        await items.deleteOne({ id: 2 });
        boom();
      });
      await expect(failing).rejects.toThrow('boom');
      if (h.store.unitMode === 'transaction') {
        expect(await match({ id: { $gte: 100 } })).toEqual([]);
        expect((await items.findOne({ id: 1 }))!.title).toBe('Alpha Ümlaut');
        expect(await items.count({ id: 2 })).toBe(1);
      } else {
        // The update may name what was inserted before it, so from there on nothing is undone.
        expect(await match({ id: { $gte: 100 } })).toEqual([104, 105]);
        expect((await items.findOne({ id: 1 }))!.title).toBe('changed');
        expect(await items.count({ id: 2 })).toBe(0);
      }
    });

    it('undoes the inserts before an update that fails (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      const failing = h.store.unit(async () => {
        await items.insertOne({ id: 106 });
        await items.updateOne({ id: 1 }, { $set: { 'bad path': 1 } });
      });
      await expect(failing).rejects.toThrow();
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
    });

    it('never takes in, nor undoes, a write made outside it while it is open', async () => {
      const held = deferred();
      const unit = h.store.unit(async () => {
        await items.insertOne({ id: 110 });
        await held.promise;
        await items.insertOne({ id: 111 });
        boom();
      });
      await new Promise((r) => setImmediate(r));
      const outside = items.insertOne({ id: 112 });
      const outsideUpdate = items.updateOne({ id: 2 }, { $set: { title: 'outside' } });
      await new Promise((r) => setImmediate(r));
      held.resolve();
      await expect(unit).rejects.toThrow('boom');
      await outside;
      await outsideUpdate;
      expect(await match({ id: { $gte: 100 } })).toEqual([112]);
      expect((await items.findOne({ id: 2 }))!.title).toBe('outside');
    });

    it('shows nothing it has not committed to readers outside it (with transactions)', async () => {
      if (h.store.unitMode !== 'transaction') return;
      const held = deferred();
      const inserted = deferred();
      const unit = h.store.unit(async () => {
        await items.insertOne({ id: 120, status: 'unit' });
        inserted.resolve();
        await held.promise;
        boom();
      });
      await inserted.promise;
      const seen = items.count({ status: 'unit' });
      const seenPage = items.find({ id: { $gte: 100 } });
      held.resolve();
      await expect(unit).rejects.toThrow('boom');
      expect(await seen).toBe(0);
      expect(await seenPage).toEqual([]);
    });

    it('runs units one at a time on the embedded store, so a read-then-write inside one is never raced', async () => {
      if (h.store.kind !== 'sqlite') return;
      const claim = (title: string) =>
        h.store.unit(async () => {
          const taken = await items.count({ status: 'claimed' });
          // A turn of the event loop in the middle, where another unit could start were units not serialised.
          await new Promise((r) => setImmediate(r));
          await items.insertOne({ id: 130 + taken, status: 'claimed', title });
        });
      await Promise.all(['a', 'b', 'c', 'd'].map(claim));
      expect(await match({ status: 'claimed' })).toEqual([130, 131, 132, 133]);
    });

    it('undoes, from another process, the inserts of a unit whose process died before it ended (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      const store = h.store as MongoStore;
      const journal = store.db.collection(UNIT_JOURNAL);
      expect(await journal.countDocuments()).toBe(0);
      const held = deferred();
      const inserted = deferred();
      // This unit stands for a process killed in the middle: it stops after its first inserts.
      const unit = store.unit(async () => {
        await items.insertOne({ id: 140 });
        await items.insertMany([{ id: 141 }, { id: 142 }]);
        inserted.resolve();
        await held.promise;
        await items.insertOne({ id: 143 });
      });
      await inserted.promise;
      expect(await match({ id: { $gte: 100 } })).toEqual([140, 141, 142]);
      const other = await MongoStore.connect({ url: process.env.TEST_MONGO_URL!, db: store.db.databaseName });
      try {
        expect(await other.units.recover(new Date())).toBe(0);
        expect(await match({ id: { $gte: 100 } })).toEqual([140, 141, 142]);
        expect(await other.units.recover(new Date(Date.now() + UNIT_LEASE_MS + 1000))).toBe(1);
      } finally {
        await other.close();
      }
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
      expect(await journal.countDocuments()).toBe(0);
      // Should the unit go on after all, it cannot commit, and inserts nothing more.
      held.resolve();
      await expect(unit).rejects.toBeInstanceOf(UnitAbandonedError);
      expect(await match({ id: { $gte: 100 } })).toEqual([]);
    });

    it('leaves no journal behind (compensation)', async () => {
      if (h.store.unitMode !== 'compensation') return;
      await h.store.unit(async () => void (await items.insertOne({ id: 150 })));
      await expect(h.store.unit(async () => boom())).rejects.toThrow('boom');
      await expect(h.store.unit(async () => (await items.insertOne({ id: 151 }), boom()))).rejects.toThrow('boom');
      expect(await (h.store as MongoStore).db.collection(UNIT_JOURNAL).countDocuments()).toBe(0);
      expect(await match({ id: { $gte: 100 } })).toEqual([150]);
    });
  });
  describe('Repository', () => {
    type Item = Doc & { id: number };
    let items: Collection<Item>;
    let repo: Repository<Item>;
    beforeEach(() => {
      items = h.store.collection<Item>('items');
      repo = new Repository<Item>(items);
    });
    afterEach(() => {
      jest.restoreAllMocks();
    });

    it('loads by id and by many ids in one query', async () => {
      expect((await repo.byId(3))!.slug).toBe('gamma');
      expect(await repo.byId(99)).toBeNull();
      const find = jest.spyOn(items, 'find');
      const map = await repo.byIds([1, 3, 99, 1]);
      expect(find).toHaveBeenCalledTimes(1);
      expect([...map.keys()].sort()).toEqual([1, 3]);
      expect(map.get(3)!.slug).toBe('gamma');
      expect((await repo.byIds([])).size).toBe(0);
    });

    it('lists a page with its total, counting only when the page cannot tell', async () => {
      const count = jest.spyOn(items, 'count');
      const sort: Array<[string, 1 | -1]> = [['id', 1]];
      expect(await repo.list({ status: 'publish' }, { page: 1, perPage: 10, sort })).toMatchObject({ total: 3 });
      expect(inOrder((await repo.list({ status: 'publish' }, { page: 2, perPage: 2, sort })).items)).toEqual([5]);
      expect(count).not.toHaveBeenCalled();
      const full = await repo.list({ status: 'publish' }, { page: 1, perPage: 2, sort });
      expect([inOrder(full.items), full.total]).toEqual([[1, 3], 3]);
      const beyond = await repo.list({ status: 'publish' }, { page: 3, perPage: 2, sort });
      expect([beyond.items, beyond.total]).toEqual([[], 3]);
      expect(count).toHaveBeenCalledTimes(2);
      expect(await repo.list({ status: 'publish' }, { perPage: 1, fields: ['slug'], sort })).toEqual({ items: [{ id: 1, slug: 'alpha' }], total: 3 });
    });

    it('inserts, updates and removes by id', async () => {
      expect(await repo.insert({ id: 40, slug: 'forty' })).toEqual({ id: 40, slug: 'forty' });
      expect(await repo.update(40, { $set: { status: 'draft' } })).toEqual({ id: 40, slug: 'forty', status: 'draft' });
      expect(await repo.update(41, { $set: { status: 'draft' } })).toBeNull();
      expect(await repo.remove(40)).toBe(true);
      expect(await repo.remove(40)).toBe(false);
    });
  });

  describe('bulk', () => {
    it('inserts 50,000 documents in one call and queries them', async () => {
      const bulk = h.store.collection('bulk');
      await bulk.deleteMany({});
      const docs: Doc[] = [];
      for (let i = 1; i <= 50_000; i++) {
        docs.push({ id: i, group: i % 100, terms: [i % 50, 1000 + (i % 7)], title: `Event ${i}`, start: new Date(Date.UTC(2024, 0, 1) + i * 60_000) });
      }
      await bulk.insertMany(docs);
      expect(await bulk.count({})).toBe(50_000);
      expect(await bulk.count({ group: 7 })).toBe(500);
      expect(await bulk.count({ terms: 1003 })).toBe(Math.floor((50_000 - 3) / 7) + 1);
      expect(inOrder(await bulk.find({ terms: 42 }, { sort: [['id', -1]], limit: 3 }))).toEqual([49_992, 49_942, 49_892]);
      expect((await bulk.findOne({ id: 25_000 }))!.start).toEqual(new Date(Date.UTC(2024, 0, 1) + 25_000 * 60_000));
      await bulk.deleteMany({});
    }, 120_000);
  });
});

describe('openStore', () => {
  it('opens the embedded store without a MongoDB URL and MongoDB with one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-open-'));
    const sqlite = await openStore({ dataDir: dir });
    expect(sqlite.kind).toBe('sqlite');
    await sqlite.ping();
    await sqlite.close();
    expect(fs.existsSync(path.join(dir, 'store.sqlite'))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });

    const mongo = await openStore({ mongoUrl: process.env.TEST_MONGO_URL, mongoDb: `open_${process.pid}`, dataDir: dir });
    expect(mongo.kind).toBe('mongo');
    await mongo.ping();
    expect(await mongo.nextId('probe')).toBe(1);
    await (mongo as MongoStore).db.dropDatabase();
    await mongo.close();
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('MongoDB duplicate-key errors', () => {
  // Built by hand because the wire-compatible test server never raises them.
  it('become DuplicateKeyError with the index keys, whatever shape the driver reports', () => {
    const single = mapError({ code: 11000, keyPattern: { slug: 1 }, message: 'E11000' }, 'items');
    expect(single).toBeInstanceOf(DuplicateKeyError);
    expect(single).toMatchObject({ collection: 'items', keys: ['slug'] });
    const bulk = mapError({ code: 11000, writeErrors: [{ code: 11000, err: { keyPattern: { id: 1 } } }] }, 'items');
    expect(bulk).toMatchObject({ keys: ['id'] });
    const fromMessage = mapError({ code: 11000, message: 'E11000 duplicate key error collection: db.items index: status_1_date_-1 dup key: { }' }, 'items');
    expect(fromMessage).toMatchObject({ keys: ['status', 'date'] });
    const other = new Error('network');
    expect(mapError(other, 'items')).toBe(other);
  });
});
