import { SqliteStore } from '../store/sqlite';
import type { AuthUser } from '../auth/user';
import { endpoint } from './params';
import { jsonBytes } from './presented';
import { ReadCache, recordsIn, type KeptPresenter } from './read-cache';
import { RouteRegistry, type Method } from './registry';
import { ServiceApp, type Reply, type ServiceRequest } from './service';

const T = {
  list: endpoint({ id: 'k.list', service: 'calendar', methods: ['GET'], args: { q: { type: 'string' } } }),
  create: endpoint({ id: 'k.create', service: 'calendar', methods: ['POST'], args: { name: { type: 'string' } } }),
};

const editor: AuthUser = { id: 3, login: 'ed', roles: ['editor'], caps: [] };

describe('ReadCache: what a binding and a presenter declare, the ServiceApp keeps', () => {
  let store: SqliteStore;
  let app: ServiceApp;
  let listed: number;
  let presented: number[];

  const request = (method: Method, endpointId: string, user: AuthUser | null, query: Record<string, unknown> = {}): ServiceRequest => ({
    endpoint: endpointId,
    method,
    path: '/k/v1/things',
    params: query,
    queryKeys: Object.keys(query),
    bodyKeys: [],
    query,
    user,
    requestId: 'r',
  });

  beforeEach(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure([
      { name: 'posts', fields: { id: 'int' }, indexes: [] },
      { name: 'comments', fields: { id: 'int' }, indexes: [] },
    ]);
    await store.collection('posts').insertOne({ id: 1, version: 1 });
    const registry = new RouteRegistry();
    registry.add({ namespace: 'k/v1', pattern: '/k/v1/things', endpoints: [T.list, T.create] });
    app = new ServiceApp('calendar', registry, new ReadCache<Reply>(store, { records: ['posts'], answers: ['posts', 'comments'], revision: { revision: 1 } }));
    listed = 0;
    presented = [];
    const thing: KeptPresenter<{ id: number; version: number }, { id: number; shown: number }> = {
      key: (d) => `thing:${d.id}:${d.version}`,
      present: async (docs) => docs.map((d) => (presented.push(d.id), { id: d.id, shown: presented.length })),
    };
    app.bind(T.list, {
      keep: { answer: (ctx) => String(ctx.params.q ?? '') },
      handle: async (ctx) => {
        listed++;
        const docs = (await store.collection('posts').find({})) as { id: number; version: number }[];
        return { body: await ctx.present(docs, thing) };
      },
    });
    app.bind(T.create, {
      handle: async (ctx) => ({ status: 201, body: await ctx.present([{ id: 9, version: 1 }], thing) }),
    });
  });
  afterEach(() => store.close());

  it("keeps an answer per key and caller until what it shows is written; no caller gets another caller's answer", async () => {
    const first = await app.dispatch(request('GET', T.list.id, null, { q: 'a' }));
    expect((await app.dispatch(request('GET', T.list.id, null, { q: 'a' }))).body).toBe(first.body);
    expect(listed).toBe(1);
    await app.dispatch(request('GET', T.list.id, null, { q: 'b' }));
    expect(listed).toBe(2);
    // A user is answered apart from guests, and from every other user or capability set.
    const edited = await app.dispatch(request('GET', T.list.id, editor, { q: 'a' }));
    expect(listed).toBe(3);
    expect((await app.dispatch(request('GET', T.list.id, editor, { q: 'a' }))).body).toBe(edited.body);
    expect(listed).toBe(3);
    await app.dispatch(request('GET', T.list.id, { ...editor, id: 4 }, { q: 'a' }));
    expect(listed).toBe(4);
    await app.dispatch(request('GET', T.list.id, { ...editor, caps: ['unfiltered_html'] }, { q: 'a' }));
    expect(listed).toBe(5);
    await store.collection('comments').insertOne({ id: 1 });
    await app.dispatch(request('GET', T.list.id, null, { q: 'a' }));
    await app.dispatch(request('GET', T.list.id, editor, { q: 'a' }));
    expect(listed).toBe(7);
  });

  it("keeps an answer frozen, and writes its body's JSON once", async () => {
    const { body } = await app.dispatch(request('GET', T.list.id, null, { q: 'a' }));
    expect(Object.isFrozen(body)).toBe(true);
    const bytes = jsonBytes(body);
    expect(bytes.toString()).toBe(JSON.stringify(body));
    expect(jsonBytes((await app.dispatch(request('GET', T.list.id, null, { q: 'a' }))).body)).toBe(bytes);
  });

  it('keeps a guest answer apart per path, and never one shaped by arguments in the body', async () => {
    await app.dispatch(request('GET', T.list.id, null, { q: 'a' }));
    await app.dispatch({ ...request('GET', T.list.id, null, { q: 'a' }), path: '/k/v1/things/' });
    expect(listed).toBe(2);
    const withBody = { ...request('GET', T.list.id, null, { q: 'a' }), bodyKeys: ['q'] };
    await app.dispatch(withBody);
    await app.dispatch(withBody);
    expect(listed).toBe(4);
  });

  it('presents a record once per key on reads, again when it changes, and a write answer always afresh', async () => {
    await app.dispatch(request('GET', T.list.id, editor));
    await app.dispatch(request('GET', T.list.id, editor));
    expect(presented).toEqual([1]);
    await store.collection('posts').updateOne({ id: 1 }, { $set: { version: 2 } });
    const body = (await app.dispatch(request('GET', T.list.id, editor))).body;
    expect(body).toEqual([{ id: 1, shown: 2 }]);
    expect(presented).toEqual([1, 1]);
    await app.dispatch(request('POST', T.create.id, editor));
    await app.dispatch(request('POST', T.create.id, editor));
    expect(presented).toEqual([1, 1, 9, 9]);
  });

  it('keeps nothing that was read while a write landed', async () => {
    // Each request begins, then a write lands before it presents and answers: a change of a record
    // (presented records are kept across inserts, libs/rest/presented.ts).
    const registry = new RouteRegistry();
    registry.add({ namespace: 'k/v1', pattern: '/k/v1/things', endpoints: [T.list, T.create] });
    const racing = new ServiceApp('calendar', registry, new ReadCache<Reply>(store, { records: ['posts'], answers: ['posts'], revision: { revision: 1 } }));
    let made = 0;
    racing.bind(T.list, {
      keep: { answer: () => 'all' },
      handle: async (ctx) => {
        await store.collection('posts').updateOne({ id: 1 }, { $set: { version: 100 + made } });
        return { body: await ctx.present([{ id: 1 }], { key: () => 'one', present: async (docs) => docs.map(() => ({ made: ++made })) }) };
      },
    });
    racing.bind(T.create, { handle: async () => ({ body: null }) });
    await racing.dispatch(request('GET', T.list.id, null));
    await racing.dispatch(request('GET', T.list.id, null));
    expect(made).toBe(2);
  });

  it('weighs a kept answer by the records it lists', () => {
    expect(recordsIn([{}, {}, {}])).toBe(3);
    expect(recordsIn([])).toBe(1);
    expect(recordsIn({ events: [{}, {}], total: 2, rest_url: 'x' })).toBe(2);
    expect(recordsIn({ id: 1 })).toBe(1);
    expect(recordsIn(null)).toBe(1);
  });
});
