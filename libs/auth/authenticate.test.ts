import { COLLECTIONS } from '../data/collections';
import { RestError } from '../rest/errors';
import { SqliteStore } from '../store/sqlite';
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

describe('Authenticator', () => {
  let store: SqliteStore;
  let users: UsersRepository;
  let auth: Authenticator;
  let userId: number;
  let password: string;
  let uuid: string;

  beforeEach(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure(COLLECTIONS);
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
    await store.close();
  });

  it('looks a repeated credential up once, and checks it again after the time-to-live', async () => {
    const lookups = jest.spyOn(users, 'byLoginOrEmail');
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(1_000_000);
    for (let i = 0; i < 5; i++) expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.id).toBe(userId);
    // The first use is recorded (a user write), so the credential is verified a second time, then kept.
    expect(lookups).toHaveBeenCalledTimes(2);
    now.mockReturnValue(1_000_000 + VERIFIED_TTL_MS);
    await auth.authenticate(basic('ada', password), '10.0.0.1');
    expect(lookups).toHaveBeenCalledTimes(3);
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

  it('takes the password with or without its spaces as one credential each, both verified', async () => {
    const spaced = password.replace(/(.{4})(?!$)/g, '$1 ');
    expect((await auth.authenticate(basic('ada', spaced), '10.0.0.1'))?.id).toBe(userId);
    expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.id).toBe(userId);
    expect((await auth.authenticate(basic('ada', password), '10.0.0.1'))?.appPassword).toBe(uuid);
  });
});
