/** The users repository on both store adapters: unique slugs, bounded records, credential records. */
import { COLLECTIONS } from '../data/collections';
import { ensureCollections } from '../data/ensure';
import { RestError } from '../rest/errors';
import { DuplicateKeyError, type Store } from '../store/types';
import { APP_PASSWORDS_MAX, USER_LIMITS } from './limits';
import { renameDuplicateSlugs } from './nicename';
import { UsersRepository, type CredentialDoc, type UserDoc } from './users';
import { enforcesUnique, STORE_KINDS, type OpenedStore } from '../../test/support/stores';

async function refusal(p: Promise<unknown>): Promise<RestError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (e instanceof RestError) return e;
  throw new Error(`expected a RestError, got ${String(e)}`);
}

const x = (n: number, c = 'x') => c.repeat(n);

describe.each(STORE_KINDS)('users repository on %s', (_name, open) => {
  let opened: OpenedStore;
  let store: Store;
  let users: UsersRepository;
  let seq = 0;
  const login = (stem = 'u') => `${stem}${++seq}`;
  const make = (fields: Partial<UserDoc> & { login?: string } = {}) => {
    const name = fields.login ?? login();
    return users.create({ email: `${name}@example.test`, password: 'account password', ...fields, login: name });
  };

  beforeAll(async () => {
    opened = await open();
    store = opened.store;
    await ensureCollections(store);
    users = new UsersRepository(store);
  });
  afterAll(async () => {
    await opened.close();
  });

  it('gives a new user the slug asked for, or its login made URL-safe, then -2, -3... when another user holds it', async () => {
    const first = await make({ login: 'Slug.Taker' });
    expect(first.slug).toBe('slugtaker');
    expect((await make({ slug: 'slugtaker' })).slug).toBe('slugtaker-2');
    expect((await make({ login: 'slugtaker' })).slug).toBe('slugtaker-3');
    // A slug of 50 characters keeps 48 of them before "-2": the whole stays within the nicename's 50.
    const long = x(55, 'q');
    expect((await make({ login: long })).slug).toBe(x(50, 'q'));
    expect((await make({ login: `${long}r` })).slug).toBe(`${x(48, 'q')}-2`);
    // An update that keeps its own slug is no collision.
    expect(await users.slugTaken('slugtaker', 'Slug.Taker')).toBe(false);
    expect(await users.slugTaken('slugtaker', 'someone-else')).toBe(true);
  });

  it("refuses fields over their limits with the reference's errors, storing nothing", async () => {
    const before = await users.count({});
    const cases: Array<[Partial<UserDoc>, string]> = [
      [{ login: x(USER_LIMITS.login + 1) }, 'user_login_too_long'],
      [{ slug: x(USER_LIMITS.slug + 1) }, 'user_nicename_too_long'],
      [{ url: `https://example.test/${x(USER_LIMITS.url)}` }, 'user_url_too_long'],
      [{ description: x(USER_LIMITS.description + 1) }, 'rest_invalid_param'],
      [{ nickname: x(USER_LIMITS.nickname + 1) }, 'rest_invalid_param'],
      [{ first_name: x(USER_LIMITS.first_name + 1) }, 'rest_invalid_param'],
      [{ last_name: x(USER_LIMITS.last_name + 1) }, 'rest_invalid_param'],
      [{ name: x(USER_LIMITS.name + 1) }, 'rest_invalid_param'],
    ];
    for (const [fields, code] of cases) {
      const e = await refusal(make(fields));
      expect([Object.keys(fields)[0], e.code, e.status]).toEqual([Object.keys(fields)[0], code, 400]);
    }
    expect(await users.count({})).toBe(before);
    const e = await refusal(users.create({ login: login(), email: `${x(USER_LIMITS.email)}@example.test`, password: 'p' }));
    expect(e.code).toBe('rest_invalid_param');

    // Characters are counted, not UTF-16 units: the limit in emoji is accepted, one more is not.
    const user = await make({ description: x(USER_LIMITS.description, '😀') });
    expect((await refusal(users.setAccount(user.id, { description: `${x(USER_LIMITS.description, '😀')}!` }))).code).toBe('rest_invalid_param');
    expect((await refusal(users.setAccount(user.id, { url: `https://${x(100)}` }))).code).toBe('user_url_too_long');
    expect((await refusal(users.setAccount(user.id, { slug: x(51) }))).code).toBe('user_nicename_too_long');
    expect((await users.byId(user.id))!.description).toBe(x(USER_LIMITS.description, '😀'));
    expect((await users.byId(user.id))!.url).toBe('');
  });

  it('keeps password hashes and application passwords in a credential record, not the profile', async () => {
    const user = await make({ roles: ['author', 'author'] });
    expect(user.roles).toEqual(['author']);
    const { password } = await users.addAppPassword(user.id, 'phone');
    const profile = (await users.byId(user.id))!;
    expect(profile).not.toHaveProperty('pass_hash');
    expect(profile).not.toHaveProperty('app_passwords');
    const cred = (await users.credentialByLoginOrEmail(user.login))!;
    expect(cred).toMatchObject({ id: user.id, login: user.login, email: user.email, roles: ['author'] });
    expect(cred.pass_hash).toMatch(/^scrypt\$/);
    expect(users.matchAppPassword(cred, password)?.name).toBe('phone');
    expect((await users.credentialByLoginOrEmail(user.email.toUpperCase()))?.id).toBe(user.id);

    // Roles and e-mail are written to both records; the password hash only to the credential record.
    await users.setAccount(user.id, { roles: ['editor'], email: 'moved@example.test', pass_hash: 'scrypt$1$a$b', name: 'Moved' });
    expect(await users.credentialOf(user.id)).toMatchObject({ roles: ['editor'], email: 'moved@example.test', pass_hash: 'scrypt$1$a$b' });
    const moved = (await users.byId(user.id))!;
    expect(moved).toMatchObject({ roles: ['editor'], email: 'moved@example.test', name: 'Moved' });
    expect(moved).not.toHaveProperty('pass_hash');

    await users.remove(user.id);
    expect(await users.byId(user.id)).toBeNull();
    expect(await users.credentialOf(user.id)).toBeNull();
    expect(await users.credentialByLoginOrEmail(user.login)).toBeNull();
  });

  it('moves a user stored before credential records into one the first time it is needed', async () => {
    const name = login('legacy');
    const id = await store.nextId('users');
    const ap = {
      uuid: 'b5f1a2c4-0000-4000-8000-000000000001',
      app_id: '',
      name: 'old',
      hash: 'hmac-sha256$s$m',
      created: new Date(0),
      last_used: null,
      last_ip: null,
    };
    // The shape a user had when the profile held the secrets.
    await store.collection('users').insertOne({
      id,
      login: name,
      email: `${name}@example.test`,
      name,
      slug: name,
      first_name: '',
      last_name: '',
      nickname: name,
      description: '',
      url: '',
      locale: 'en_US',
      roles: ['editor'],
      registered: new Date(0),
      pass_hash: 'scrypt$legacy',
      app_passwords: [ap],
    });
    const cred = (await users.credentialByLoginOrEmail(name))!;
    expect(cred).toMatchObject({ id, login: name, roles: ['editor'], pass_hash: 'scrypt$legacy', app_passwords: [ap] });
    expect(await store.collection('users').findOne({ id })).not.toHaveProperty('pass_hash');
    expect(await store.collection<CredentialDoc>('credentials').count({ id })).toBe(1);
    expect(await users.appPasswords(id)).toEqual([ap]);

    // One by id too, for the application-password routes.
    const other = login('legacy');
    const otherId = await store.nextId('users');
    await store
      .collection('users')
      .insertOne({ id: otherId, login: other, email: `${other}@example.test`, slug: other, roles: [], pass_hash: 'h', app_passwords: [ap] });
    expect((await users.appPasswords(otherId)).map((p) => p.name)).toEqual(['old']);
  });

  it('gives users of a store written before slugs were unique their own slugs, then makes slugs unique', async () => {
    const old = await open();
    try {
      // The users index as it was declared: slugs not unique.
      const before = COLLECTIONS.map((spec) =>
        spec.name === 'users' ? { ...spec, indexes: (spec.indexes ?? []).map((ix) => (ix.keys.join() === 'slug' ? { keys: ['slug'] } : ix)) } : spec,
      );
      await old.store.ensure(before);
      const rows = [
        [1, 'ann'],
        [2, 'ann'],
        [3, 'ann'],
        [4, 'ann-2'],
        [5, 'bob'],
      ] as const;
      await old.store.collection('users').insertMany(rows.map(([id, slug]) => ({ id, login: `login${id}`, email: `${id}@example.test`, slug })));
      const enforced = await enforcesUnique(old.store);
      await ensureCollections(old.store);
      // Where unique indexes are not enforced, making one never fails, so nothing calls for the renaming: run it.
      if (!enforced) await renameDuplicateSlugs(old.store.collection('users'));
      const stored = await old.store.collection('users').find({}, { sort: [['id', 1]] });
      // The first holder keeps a slug; the others get the next slug nobody holds.
      expect(stored.map((u) => u.slug)).toEqual(['ann', 'ann-3', 'ann-4', 'ann-2', 'bob']);
      const again = await old.store
        .collection('users')
        .insertOne({ id: 6, login: 'login6', email: '6@example.test', slug: 'bob' })
        .then(
          () => null,
          (e: unknown) => e,
        );
      if (enforced) expect(again).toBeInstanceOf(DuplicateKeyError);
    } finally {
      await old.close();
    }
  });

  it(`holds at most ${APP_PASSWORDS_MAX} application passwords per user, with names of at most 100 characters`, async () => {
    const user = await make();
    expect((await refusal(users.addAppPassword(user.id, x(101)))).code).toBe('rest_invalid_param');
    await users.addAppPassword(user.id, x(100));
    for (let i = 1; i < APP_PASSWORDS_MAX; i++) await users.addAppPassword(user.id, `app ${i}`);
    const e = await refusal(users.addAppPassword(user.id, 'one more'));
    expect([e.code, e.status]).toEqual(['application_password_limit_reached', 409]);
    expect(await users.appPasswords(user.id)).toHaveLength(APP_PASSWORDS_MAX);
  });
});
