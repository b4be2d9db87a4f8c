/**
 * The store port's contract, run against both adapters (contract.fixtures.ts): updates, deletes, unique indexes, `nextId`, and a query language closed to anything else.
 */
import { DuplicateKeyError, type CollectionSpec, type Filter } from './types';
import { D, describeStores, fixture, h, ids, items, match } from './contract.fixtures';

describeStores(() => {
  describe('updates', () => {
    it('$set writes top-level and dotted paths and keeps indexed queries in step', async () => {
      const when = D('2025-02-03T04:05:06.789Z');
      const r = await items.updateOne({ id: 4 }, { $set: { slug: 'delta', 'meta.venue.city': 'Berlin', date: when, status: 'publish' } });
      expect(r).toEqual({ matched: 1, modified: 1 });
      expect(await match({ slug: 'delta' })).toEqual([4]);
      expect(await match({ 'meta.venue.city': 'Berlin' })).toEqual([4]);
      expect(await match({ date: { $gt: D('2025-01-01T00:00:00Z') } })).toEqual([4]);
      expect(await match({ status: 'publish' })).toEqual([1, 3, 4, 5]);
      const doc = await items.findOne({ id: 4 });
      expect(doc!.meta).toEqual({ venue: { city: 'Berlin' } });
      expect(doc!.date).toEqual(when);
    });

    it('$unset removes fields', async () => {
      expect(await items.updateOne({ id: 1 }, { $unset: { slug: '', 'meta.color': 1 } })).toEqual({ matched: 1, modified: 1 });
      const doc = await items.findOne({ id: 1 });
      expect(doc).not.toHaveProperty('slug');
      expect(doc!.meta).not.toHaveProperty('color');
      expect(await match({ slug: null })).toEqual([1, 4]);
      expect(await match({ 'meta.color': 'red' })).toEqual([]);
    });

    it('$inc adds to numbers and creates missing ones', async () => {
      await items.updateOne({ id: 2 }, { $inc: { rank: 10, views: 1, 'meta.n': -2 } });
      const doc = await items.findOne({ id: 2 });
      expect(doc).toMatchObject({ rank: 11, views: 1, meta: { n: 5 } });
      expect(await match({ rank: { $gt: 10 } })).toEqual([2]);
    });

    it('updateMany $inc adds whole numbers to every matching row, in the document and in its indexed field', async () => {
      // Rows 1, 3, 5 are published; each has a whole rank, and rank is an indexed int field.
      expect(await items.updateMany({ status: 'publish' }, { $inc: { rank: 10 } })).toEqual({ matched: 3, modified: 3 });
      expect(ids(await items.find({ rank: { $gt: 10 } }))).toEqual([1, 3, 5]);
      expect(await match({ rank: 13 })).toEqual([1]);
      expect((await items.find({ status: 'publish' }, { sort: [['rank', -1]] })).map((d) => [d.id, d.rank])).toEqual([
        [5, 14],
        [1, 13],
        [3, 12],
      ]);
      // The other fields are as they were, dates included.
      const one = await items.findOne({ id: 1 });
      expect(one).toEqual({ ...fixture()[0], rank: 13 });
      expect(await items.updateMany({ status: 'nothing' }, { $inc: { rank: 1 } })).toEqual({ matched: 0, modified: 0 });
      // A nested field, several fields at once, and a negative amount.
      expect(await items.updateMany({ id: { $in: [1, 2] } }, { $inc: { 'meta.n': -5, rank: 1 } })).toEqual({ matched: 2, modified: 2 });
      expect((await items.find({ id: { $in: [1, 2] } }, { sort: [['id', 1]] })).map((d) => [(d.meta as { n: number }).n, d.rank])).toEqual([
        [0, 14],
        [2, 2],
      ]);
      expect(await match({ 'meta.n': 0 })).toEqual([1]);
      // The stored document reads as the same text: setting a field to its value again modifies nothing.
      expect(await items.updateOne({ id: 1 }, { $set: { title: 'Alpha Ümlaut', 'meta.color': 'red' } })).toEqual({ matched: 1, modified: 0 });
      expect(await items.updateOne({ id: 5 }, { $set: { title: `it's "quoted"` } })).toEqual({ matched: 1, modified: 0 });
    });

    it('updateMany $inc creates a field missing in some rows, adds fractions, and refuses a non-number', async () => {
      // Row 3 has no meta.n: it gets the amount, the others add it.
      expect(await items.updateMany({ id: { $in: [1, 2, 3] } }, { $inc: { 'meta.n': 2 } })).toEqual({ matched: 3, modified: 3 });
      expect((await items.find({ id: { $in: [1, 2, 3] } }, { sort: [['id', 1]] })).map((d) => (d.meta as { n: number }).n)).toEqual([7, 9, 2]);
      // A number field holding fractions.
      expect(await items.updateMany({ id: { $in: [1, 2] } }, { $inc: { score: 0.25 } })).toEqual({ matched: 2, modified: 2 });
      expect(await match({ score: 1.75 })).toEqual([1]);
      expect(await match({ score: 2.75 })).toEqual([2]);
      // Row 2 holds a string in `mixed`.
      await expect(items.updateMany({ id: 2 }, { $inc: { mixed: 1 } })).rejects.toThrow();
      expect((await items.findOne({ id: 2 }))!.mixed).toBe('7');
    });

    it('$push appends, creating the array when missing', async () => {
      const at = D('2025-01-01T00:00:00Z');
      await items.updateOne({ id: 4 }, { $push: { terms: 9, history: { at } } });
      await items.updateOne({ id: 4 }, { $push: { terms: 10 } });
      const doc = await items.findOne({ id: 4 });
      expect(doc!.terms).toEqual([9, 10]);
      expect(doc!.history).toEqual([{ at }]);
      expect((doc!.history as Array<{ at: Date }>)[0].at).toBeInstanceOf(Date);
      expect(await match({ terms: 10 })).toEqual([4]);
    });

    it('$pull removes every equal element', async () => {
      expect(await items.updateMany({ terms: 2 }, { $pull: { terms: 2 } })).toEqual({ matched: 2, modified: 2 });
      expect(await match({ terms: 2 })).toEqual([]);
      expect((await items.findOne({ id: 1 }))!.terms).toEqual([1]);
      await items.updateOne({ id: 1 }, { $pull: { dates: D('2024-05-01T00:00:00Z') } });
      // Test-server gap (see Harness.server): there every Date is pulled, so only the removal is checked.
      if (h.server.pullMatchesDates) expect((await items.findOne({ id: 1 }))!.dates).toEqual([D('2024-05-02T00:00:00Z')]);
      expect(await match({ dates: D('2024-05-01T00:00:00Z') })).toEqual([]);
    });

    it('reports matched and modified counts like MongoDB', async () => {
      expect(await items.updateOne({ id: 1 }, { $set: { status: 'publish' } })).toEqual({ matched: 1, modified: 0 });
      expect(await items.updateMany({ status: 'publish' }, { $set: { flag: true } })).toEqual({ matched: 3, modified: 3 });
      expect(await items.updateMany({ status: 'nope' }, { $set: { flag: true } })).toEqual({ matched: 0, modified: 0 });
      expect(await items.updateOne({ status: 'publish' }, { $set: { flag2: 1 } })).toEqual({ matched: 1, modified: 1 });
      expect(await items.count({ flag2: 1 })).toBe(1);
    });

    it('findOneAndUpdate returns the document after the update, or null', async () => {
      const doc = await items.findOneAndUpdate({ slug: 'beta' }, { $set: { status: 'publish' }, $inc: { rank: 1 } });
      expect(doc).toEqual({ ...fixture()[1], status: 'publish', rank: 2 });
      expect(doc).not.toHaveProperty('_id');
      expect(await items.findOneAndUpdate({ slug: 'nope' }, { $set: { status: 'x' } })).toBeNull();
    });

    it('rejects malformed updates', async () => {
      await expect(items.updateOne({ id: 1 }, { $rename: { a: 'b' } } as never)).rejects.toThrow(/unsupported update operator/);
      await expect(items.updateOne({ id: 1 }, {})).rejects.toThrow();
      await expect(items.updateOne({ id: 1 }, { $set: { 'a"b': 1 } })).rejects.toThrow(/invalid field path/);
      await expect(items.updateOne({ id: 1 }, { $inc: { rank: 'x' as never } })).rejects.toThrow();
      expect(await items.findOne({ id: 1 })).toEqual(fixture()[0]);
    });
  });

  describe('deletes', () => {
    it('deletes one or many and forgets array entries', async () => {
      expect(await items.deleteOne({ status: 'publish' })).toBe(1);
      expect(await items.count({ status: 'publish' })).toBe(2);
      expect(await items.deleteMany({ terms: 3 })).toBeGreaterThanOrEqual(1);
      expect(await match({ terms: 3 })).toEqual([]);
      expect(await items.deleteMany({ status: 'nope' })).toBe(0);
      const left = await items.count({});
      expect(await items.deleteMany({})).toBe(left);
      expect(await items.count({})).toBe(0);
    });
  });

  describe('unique indexes', () => {
    // The wire-compatible test server stores unique indexes without enforcing them (see Harness.server);
    // there only the DuplicateKeyError assertions are left out, the writes still run.
    const expectDuplicate = async (write: Promise<unknown>, key: string): Promise<void> => {
      if (!h.server.uniqueEnforced) {
        await write;
        return;
      }
      const err = await write.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DuplicateKeyError);
      expect((err as DuplicateKeyError).collection).toBe('items');
      expect((err as DuplicateKeyError).keys).toContain(key);
    };

    it('rejects duplicate keys on insert and update', async () => {
      await expectDuplicate(items.insertOne({ id: 1, title: 'again' }), 'id');
      await expectDuplicate(items.insertOne({ id: 20, slug: 'alpha' }), 'slug');
      await expectDuplicate(items.updateOne({ id: 2 }, { $set: { slug: 'alpha' } }), 'slug');
      await expectDuplicate(items.findOneAndUpdate({ id: 3 }, { $set: { slug: 'beta' } }), 'slug');
      if (h.server.uniqueEnforced) {
        expect((await items.findOne({ id: 2 }))!.slug).toBe('beta');
        expect(await items.count({ id: 1 })).toBe(1);
      }
    });

    it('replaces an index whose declaration changed, refusing to make it unique while duplicates exist', async () => {
      const plain: CollectionSpec = { name: 'redeclared', fields: { id: 'int', slug: 'text' }, indexes: [{ keys: ['id'], unique: true }, { keys: ['slug'] }] };
      const unique: CollectionSpec = {
        ...plain,
        indexes: [
          { keys: ['id'], unique: true },
          { keys: ['slug'], unique: true },
        ],
      };
      await h.store.ensure([plain]);
      const c = h.store.collection('redeclared');
      await c.deleteMany({});
      await c.insertMany([
        { id: 1, slug: 'a' },
        { id: 2, slug: 'a' },
      ]);
      if (h.server.uniqueEnforced) {
        const err = await h.store.ensure([unique]).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(DuplicateKeyError);
        expect((err as DuplicateKeyError).collection).toBe('redeclared');
        expect((err as DuplicateKeyError).keys).toContain('slug');
      }
      await c.updateOne({ id: 2 }, { $set: { slug: 'b' } });
      await h.store.ensure([unique]);
      await h.store.ensure([unique]);
      const dup = c.insertOne({ id: 3, slug: 'a' }).then(
        () => null,
        (e: unknown) => e,
      );
      if (h.server.uniqueEnforced) expect(await dup).toBeInstanceOf(DuplicateKeyError);
      else await dup;
      // Declared plain again, the unique index goes.
      await c.deleteMany({ id: 3 });
      await h.store.ensure([plain]);
      await c.insertOne({ id: 4, slug: 'b' });
      expect(await c.count({ slug: 'b' })).toBe(2);
    });

    it('lets a sparse unique index hold many documents without the key', async () => {
      await items.insertMany([{ id: 30 }, { id: 31 }]);
      expect(await match({ slug: { $exists: false } })).toEqual([4, 30, 31]);
    });

    it('inserts all or none', async () => {
      const batch = [
        { id: 100, terms: [77] },
        { id: 101, terms: [77] },
        { id: 1, terms: [77] },
        { id: 102, terms: [77] },
      ];
      await expectDuplicate(items.insertMany(batch), 'id');
      if (h.server.uniqueEnforced) {
        expect(await items.count({ id: { $gte: 100 } })).toBe(0);
        expect(await match({ terms: 77 })).toEqual([]);
        expect(await items.count({})).toBe(5);
      }
    });
  });

  describe('nextId', () => {
    it('counts from 1 and hands out blocks', async () => {
      expect(await h.store.nextId('posts')).toBe(1);
      expect(await h.store.nextId('posts')).toBe(2);
      expect(await h.store.nextId('posts', 10)).toBe(3);
      expect(await h.store.nextId('posts')).toBe(13);
      expect(await h.store.nextId('terms')).toBe(1);
      await expect(h.store.nextId('posts', 0)).rejects.toThrow();
    });

    it('never hands the same id to concurrent callers', async () => {
      const got = await Promise.all(Array.from({ length: 20 }, (_, i) => h.store.nextId('concurrent', (i % 3) + 1)));
      const all = got.flatMap((first, i) => Array.from({ length: (i % 3) + 1 }, (_, k) => first + k));
      expect(new Set(all).size).toBe(all.length);
      expect(Math.min(...all)).toBe(1);
      expect(Math.max(...all)).toBe(all.length);
    });
  });

  describe('the query language is closed', () => {
    it('treats filter values as literals', async () => {
      expect(await match({ slug: "{$gt: ''}" })).toEqual([]);
      expect(await match({ slug: "' OR 1=1 --" })).toEqual([]);
      expect(await match({ slug: '%' })).toEqual([]);
      expect(await match({ title: '.*' })).toEqual([]);
      expect(await match({ 'meta.color': "red' OR '1'='1" })).toEqual([]);
      expect(await match({ status: { $in: ["publish') OR ('1'='1"] } })).toEqual([]);
    });

    it('rejects unsafe paths and unknown operators', async () => {
      for (const bad of ['a"b', "a'b", 'a b', 'a..b', 'a.', '.a', 'a.$b', 'a]', 'a;drop']) {
        await expect(items.find({ [bad]: 1 })).rejects.toThrow(/invalid field path/);
      }
      await expect(items.find({}, { sort: [['a"b', 1]] })).rejects.toThrow(/invalid field path/);
      await expect(items.find({}, { fields: ["a'b"] })).rejects.toThrow(/invalid field path/);
      await expect(items.distinct('a"b', {})).rejects.toThrow(/invalid field path/);
      await expect(items.find({ $where: 'true' } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ $nor: [{ id: 1 }] } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ slug: { $regex: '.*' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ slug: { $gt: '', $where: '1' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ meta: { color: 'red' } } as Filter)).rejects.toThrow(/unsupported filter operator/);
      await expect(items.find({ terms: [1, 2] } as unknown as Filter)).rejects.toThrow();
      await expect(items.find({ slug: undefined })).rejects.toThrow(/undefined/);
      await expect(items.find({ $or: [] })).rejects.toThrow();
      await expect(items.find({ slug: { $icontains: 5 } } as unknown as Filter)).rejects.toThrow();
      await expect(items.find({ id: { $in: 5 } } as unknown as Filter)).rejects.toThrow();
      expect(() => h.store.collection('bad-name')).toThrow();
    });

    it('accepts real operators as operators', async () => {
      expect(await match({ slug: { $gt: '' } })).toEqual([1, 2, 3, 5]);
    });
  });
});
