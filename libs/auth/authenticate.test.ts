import { STORE_KINDS, type OpenedStore } from '../../test/support/stores';
import { ensureCollections } from '../data/ensure';
import { RestError } from '../rest/errors';
import type { Collection, Doc, Filter, FindOptions, Store, Update } from '../store/types';
import { Authenticator, FailureThrottle, VERIFIED_TTL_MS } from './authenticate';
import { UsersRepository } from './users';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

async function refusal(p: Promise<unknown>): Promise<RestError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RestError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

/** A store that counts the bytes (as JSON) of every document it hands out: what its callers decode. */
class CountingStore implements Store {
  bytes = 0;
  constructor(private readonly inner: Store) {}
  get kind() {
    return this.inner.kind;
  }
  get generations() {
    return this.inner.generations;
  }
  foreignWrites() {
    return this.inner.foreignWrites();
  }
  private counted<T>(v: T): T {
    this.bytes += v === null ? 0 : Buffer.byteLength(JSON.stringify(v));
    return v;
  }
  collection<T extends Doc = Doc>(name: string): Collection<T> {
    const c = this.inner.collection<T>(name);
    return {
      name: c.name,
      find: async (f: Filter, o?: FindOptions) => this.counted(await c.find(f, o)),
      findOne: async (f: Filter, o?: Omit<FindOptions, 'limit'>) => this.counted(await c.findOne(f, o)),
      findOneAndUpdate: async (f: Filter, u: Update) => this.counted(await c.findOneAndUpdate(f, u)),
      count: (f) => c.count(f),
      distinct: async (p, f) => this.counted(await c.distinct(p, f)),
      insertOne: (d) => c.insertOne(d),
      insertMany: (d) => c.insertMany(d),
      updateOne: (f, u) => c.updateOne(f, u),
      updateMany: (f, u) => c.updateMany(f, u),
      deleteOne: (f) => c.deleteOne(f),
      deleteMany: (f) => c.deleteMany(f),
    };
  }
  nextId(counter: string, count?: number) {
    return this.inner.nextId(counter, count);
  }
  get unitMode() {
    return this.inner.unitMode;
  }
  unit<R>(work: () => Promise<R>): Promise<R> {
    return this.inner.unit(work);
  }
  ensure(specs: Parameters<Store['ensure']>[0]) {
    return this.inner.ensure(specs);
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

describe.each(STORE_KINDS)('Authenticator on %s', (_name, open) => {
  let opened: OpenedStore;
  let store: Store;
  let users: UsersRepository;
  let auth: Authenticator;
  let userId: number;
  let password: string;
  let uuid: string;

  beforeEach(async () => {
    opened = await open();
    store = opened.store;
    await ensureCollections(store);
    users = new UsersRepository(store);
    const user = await users.create({ login: 'ada', email: 'ada@example.test', password: 'an account password', roles: ['editor'] });
    userId = user.id;
    const added = await users.addAppPassword(user.id, 'client');
    password = added.password;
    uuid = added.record.uuid;
    auth = new Authenticator(users, new FailureThrottle(3, 60_000));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await opened.close();
  });

  it('looks a repeated credential up once, and checks it again after the time-to-live', async () => {
    const lookups = jest.spyOn(users, 'credentialByLoginOrEmail');
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(1_000_000);
    for (let i = 0; i < 5; i++) expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.id).toBe(userId);
    // The first use is recorded (a user write), so the credential is verified a second time, then kept.
    expect(lookups).toHaveBeenCalledTimes(2);
    now.mockReturnValue(1_000_000 + VERIFIED_TTL_MS);
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect(lookups).toHaveBeenCalledTimes(3);
  });

  it('answers a kept credential with the caller it authenticated, capabilities and all, until a user write', async () => {
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    const first = await auth.authenticate(basic('ada', password), '10.0.0.1');
    const again = await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect(again).toBe(first);
    expect(again?.caps.length).toBeGreaterThan(0);
    await users.setAccount(userId, { roles: ['subscriber'] });
    const changed = await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect(changed).not.toBe(first);
    expect(changed?.roles).toEqual(['subscriber']);
  });

  it('refuses a revoked application password on the very next request', async () => {
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    await users.setAppPasswords(userId, []);
    const e = await refusal(auth.authenticate(basic('ada', password), '10.0.0.1'));
    expect(e.status).toBe(401);
    expect(e.code).toBe('incorrect_password');
  });

  it('sees a role change and a deleted user at once, whichever repository wrote them', async () => {
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    // Another service's repository over the same store.
    const elsewhere = new UsersRepository(store);
    await elsewhere.setAccount(userId, { roles: ['subscriber'] });
    const user = await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect(user?.roles).toEqual(['subscriber']);
    await elsewhere.remove(userId);
    expect((await refusal(auth.authenticate(basic('ada', password), '10.0.0.1'))).code).toBe('invalid_username');
  });

  it('does not keep a credential that failed, and a kept one is still throttled by its address', async () => {
    for (let i = 0; i < 3; i++) expect((await refusal(auth.authenticate(basic('ada', 'wrong password'), '10.0.0.9'))).status).toBe(401);
    // Failures from that address for that login now block even the right password.
    expect((await refusal(auth.authenticate(basic('ada', password), '10.0.0.9'))).status).toBe(429);
    // From another address the right password works and is kept; from the throttled one it still is refused.
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect((await refusal(auth.authenticate(basic('ada', password), '10.0.0.9'))).status).toBe(429);
  });

  it('verifies every spelling of one credential once: separators in the password, spacing and padding of the header', async () => {
    const lookups = jest.spyOn(users, 'credentialByLoginOrEmail');
    const encoded = (text: string) => Buffer.from(text).toString('base64');
    const grouped = password.replace(/(.{4})(?!$)/g, '$1 ');
    const spellings = [
      basic('ada', password),
      basic('ada', grouped),
      basic('ada', password.replace(/(.{4})(?!$)/g, '$1-')),
      `Basic   ${encoded(`ada:${grouped}`)}`,
      `basic ${encoded(`ada:${password}`)}  `,
      `Basic ${encoded(`ada:${grouped} `).replace(/=+$/, '')}`,
    ];
    for (const header of spellings) expect((await auth.authenticate(header, '10.0.0.1'))?.id).toBe(userId);
    // The first use is recorded (a write), so the second spelling is verified again; the rest are kept.
    expect(lookups).toHaveBeenCalledTimes(2);
    // Another login or another password is another credential.
    await refusal(auth.authenticate(basic('Ada', password), '10.0.0.1'));
    await refusal(auth.authenticate(basic('ada', `${password}x`), '10.0.0.1'));
    expect(lookups).toHaveBeenCalledTimes(4);
  });

  it('reads only the small credential record: a huge profile makes a login read no more', async () => {
    const bob = await users.create({ login: 'bob', email: 'bob@example.test', password: 'an account password', roles: ['editor'] });
    const bobPassword = (await users.addAppPassword(bob.id, 'client')).password;
    // A description far past its limit, as a store written before the limits could hold one.
    await store.collection('users').updateOne({ id: bob.id }, { $set: { description: 'x'.repeat(2_000_000) } });
    const bytesOfLogin = async (login: string, pw: string) => {
      const counting = new CountingStore(store);
      const fresh = new Authenticator(new UsersRepository(counting), new FailureThrottle(3, 60_000));
      expect((await fresh.authenticate(basic(login, pw), '10.0.0.1'))?.login).toBe(login);
      return counting.bytes;
    };
    const small = await bytesOfLogin('ada', password);
    const large = await bytesOfLogin('bob', bobPassword);
    expect(large).toBe(small);
    expect(large).toBeLessThan(2_000);
  });

  it('takes the password with or without its spaces', async () => {
    const spaced = password.replace(/(.{4})(?!$)/g, '$1 ');
    expect((await auth.authenticate(basic('ada', spaced), '10.0.0.1'))?.id).toBe(userId);
    expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.id).toBe(userId);
    expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.appPassword).toBe(uuid);
  });
});
