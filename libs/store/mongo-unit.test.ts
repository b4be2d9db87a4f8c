/**
 * The transaction mode of MongoDB units, which the store contract suite runs only on a server with
 * transactions (a replica set): here the mode is forced on the tests' MongoDB to check its plumbing.
 * Every operation of a unit's work carries the unit's session while its transaction is open, `nextId`
 * never does, operations outside a unit (or left running after it) carry none, and a unit that fails
 * aborts its transaction. The test server ignores transactions, so what they keep apart is the contract
 * suite's to check on a replica set.
 */
import { ClientSession, Collection } from 'mongodb';
import { MongoStore } from './mongo';
import { unitModeOf } from './mongo-unit';

let base: MongoStore;
let store: MongoStore;

beforeAll(async () => {
  base = await MongoStore.connect({ url: process.env.TEST_MONGO_URL!, db: `units_${process.pid}_${Date.now()}` });
  store = new MongoStore(base.client, base.db, 'transaction');
});
afterAll(async () => {
  await base.db.dropDatabase();
  await base.close();
});
afterEach(() => jest.restoreAllMocks());

/** Records, for every call of a driver method, whether it ran in an open transaction of a session. */
function watch(method: 'insertOne' | 'findOne' | 'updateOne' | 'findOneAndUpdate' | 'countDocuments'): boolean[] {
  const seen: boolean[] = [];
  const original = Collection.prototype[method];
  jest.spyOn(Collection.prototype, method).mockImplementation(function (this: Collection, ...args: unknown[]) {
    const options = args.find((a): a is { session?: unknown } => typeof a === 'object' && a !== null && 'session' in a);
    seen.push(options?.session instanceof ClientSession && options.session.inTransaction());
    return Reflect.apply(original, this, args);
  });
  return seen;
}

it('tells a server with transactions (a replica-set member, a mongos) from a standalone one', async () => {
  const answering = (hello: Record<string, unknown>) => ({ command: async () => ({ ok: 1, ...hello }) });
  expect(await unitModeOf(answering({ setName: 'rs0', isWritablePrimary: true }))).toBe('transaction');
  expect(await unitModeOf(answering({ msg: 'isdbgrid' }))).toBe('transaction');
  expect(await unitModeOf(answering({ isWritablePrimary: true }))).toBe('compensation');
});

it('gives every operation of a unit the unit’s transaction, and none to nextId or to operations outside', async () => {
  const items = store.collection('items');
  const inserts = watch('insertOne');
  const reads = watch('findOne');
  const counters = watch('findOneAndUpdate');
  const counts = watch('countDocuments');
  // The session ends, and endSession takes its time to return (a loaded machine): the work left running starts meanwhile.
  const endSession = ClientSession.prototype.endSession;
  jest.spyOn(ClientSession.prototype, 'endSession').mockImplementation(async function (this: ClientSession, ...args) {
    await Reflect.apply(endSession, this, args);
    await new Promise((r) => setTimeout(r, 150));
  });
  let leftRunning: Promise<unknown> = Promise.resolve();
  await store.unit(async () => {
    await items.insertOne({ id: 1 });
    await items.findOne({ id: 1 });
    await store.nextId('units');
    await store.unit(async () => void (await items.count({})));
    // Work the unit leaves behind runs outside it once it has ended.
    leftRunning = new Promise((r) => setTimeout(r, 50)).then(() => items.count({}));
  });
  await leftRunning;
  await items.insertOne({ id: 2 });
  expect(inserts).toEqual([true, false]);
  expect(reads).toEqual([true]);
  expect(counters).toEqual([false]);
  expect(counts).toEqual([true, false]);
});

it('aborts the transaction of a unit that fails', async () => {
  const abort = jest.spyOn(ClientSession.prototype, 'abortTransaction');
  const commit = jest.spyOn(ClientSession.prototype, 'commitTransaction');
  await expect(
    store.unit(async () => {
      await store.collection('items').insertOne({ id: 3 });
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(abort).toHaveBeenCalledTimes(1);
  expect(commit).not.toHaveBeenCalled();
  await store.unit(async () => void (await store.collection('items').insertOne({ id: 4 })));
  expect(commit).toHaveBeenCalledTimes(1);
});
