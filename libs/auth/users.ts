/**
 * Users: their profiles (the `users` collection, what cms/v2/users lists and presents) and their
 * credential records (the `credentials` collection, what authentication reads: libs/auth/credentials.ts).
 * This repository is the one writer of both. The login never changes; the e-mail and roles live in
 * both records and are written to the credential record first, so that after a crash between the two
 * writes, authentication already follows the change (a demotion or a new e-mail) the profile may lag.
 * Every write is bounded (libs/auth/limits.ts) and user slugs are unique (libs/auth/nicename.ts).
 *
 * Stores written before credential records existed kept the password hashes and application passwords
 * inside the user document: such a user's record is moved into a credential record the first time it
 * is needed (`credentialOf`, `credentialByLoginOrEmail`).
 */
import { Kept } from '../store/kept';
import { randomUUID } from 'node:crypto';
import { Repository } from '../store/repository';
import { DuplicateKeyError, type Store } from '../store/types';
import { CREDENTIAL_FIELDS, Credentials, matchAppPassword, type AppPasswordDoc, type CredentialDoc } from './credentials';
import { appPasswordProblem, checkUserFields } from './limits';
import { firstFreeSlug, slugifyLogin } from './nicename';
import { generateAppPassword, hashAccountPassword, hashAppPassword } from './passwords';

export type { AppPasswordDoc, CredentialDoc } from './credentials';

/** A user's profile. */
export interface UserFields {
  id: number;
  login: string;
  email: string;
  /** Display name. */
  name: string;
  /** URL-safe nicename, unique among users. */
  slug: string;
  first_name: string;
  last_name: string;
  nickname: string;
  description: string;
  url: string;
  locale: string;
  roles: string[];
  registered: Date;
}

export interface UserDoc extends UserFields, Record<string, unknown> {}

/** What creating a user takes: the login, e-mail and account password, and any profile field. */
export type NewUser = Partial<Omit<UserFields, 'id'>> & { login: string; email: string; password: string };

/**
 * Attempts at a new user's slug: each failed one means a concurrent create took the slug found free, so
 * the bound only stops a store that would refuse every slug.
 */
const SLUG_ATTEMPTS = 100;

export class UsersRepository extends Repository<UserDoc> {
  private readonly credentials: Credentials;

  constructor(private readonly store: Store) {
    super(store.collection<UserDoc>('users'));
    this.credentials = new Credentials(store);
  }

  /**
   * A keeper of values read from users: dropped as soon as this process writes any user, credential
   * record or application password or, on the embedded store, another process does, and after `ttlMs`
   * in any case.
   */
  kept<V>(maxEntries: number, ttlMs: number): Kept<V> {
    return new Kept<V>(this.store, { collections: ['users', 'credentials'], maxEntries, blindTtlMs: ttlMs, seenTtlMs: ttlMs });
  }

  byLogin(login: string): Promise<UserDoc | null> {
    return this.collection.findOne({ login });
  }

  byEmail(email: string): Promise<UserDoc | null> {
    return this.collection.findOne({ email: email.toLowerCase() });
  }

  /** Whether a user other than the one with this login holds the slug. */
  async slugTaken(slug: string, login: string): Promise<boolean> {
    return (await this.collection.count({ slug, login: { $ne: login } })) > 0;
  }

  async create(fields: NewUser): Promise<UserDoc> {
    const base: Omit<UserFields, 'id' | 'slug'> = {
      login: fields.login,
      name: fields.name ?? fields.login,
      first_name: fields.first_name ?? '',
      last_name: fields.last_name ?? '',
      nickname: fields.nickname ?? fields.login,
      description: fields.description ?? '',
      url: fields.url ?? '',
      locale: fields.locale ?? 'en_US',
      registered: fields.registered ?? new Date(),
      roles: [...new Set(fields.roles ?? ['subscriber'])],
      email: fields.email.toLowerCase(),
    };
    const wanted = fields.slug ?? slugifyLogin(fields.login);
    checkUserFields({ ...base, slug: wanted });
    const pass_hash = await hashAccountPassword(fields.password);
    const id = await this.store.nextId('users');
    let doc: UserDoc;
    for (let attempt = 1; ; attempt++) {
      doc = { id, ...base, slug: await firstFreeSlug(wanted, (s) => this.slugTaken(s, base.login)) };
      try {
        await this.collection.insertOne(doc);
        break;
      } catch (e) {
        // Another create took the slug found free (the unique index refused it): look again.
        if (!(e instanceof DuplicateKeyError && e.keys.includes('slug') && attempt < SLUG_ATTEMPTS)) throw e;
      }
    }
    try {
      await this.credentials.collection.insertOne({ id, login: doc.login, email: doc.email, roles: doc.roles, pass_hash, app_passwords: [] });
    } catch (e) {
      await this.collection.deleteOne({ id });
      throw e;
    }
    return doc;
  }

  /**
   * Sets account fields (roles, e-mail, password hash, profile); callers have checked that an e-mail
   * stays unique and a slug is free (the unique indexes refuse what a concurrent write took meanwhile).
   * Application passwords change only through their own methods; the login never changes.
   */
  async setAccount(userId: number, set: Record<string, unknown>): Promise<void> {
    if ('app_passwords' in set || 'id' in set || 'login' in set) throw new Error('not an account field');
    checkUserFields(set);
    if (Array.isArray(set.roles)) set = { ...set, roles: [...new Set(set.roles)] };
    const own: Record<string, unknown> = {};
    const profile: Record<string, unknown> = { ...set };
    for (const k of CREDENTIAL_FIELDS) if (k in set) own[k] = set[k];
    delete profile.pass_hash;
    if (Object.keys(own).length) {
      await this.ensureCredential(userId);
      await this.credentials.collection.updateOne({ id: userId }, { $set: own });
    }
    if (Object.keys(profile).length) await this.collection.updateOne({ id: userId }, { $set: profile });
  }

  /** Deletes the user: the credential record first, so no crash leaves a way in for a removed user. */
  override async remove(id: number): Promise<boolean> {
    await this.collection.updateOne({ id }, { $unset: { pass_hash: true, app_passwords: true } });
    await this.credentials.collection.deleteOne({ id });
    return super.remove(id);
  }

  /** The user's credential record, or null for no user (or one who never had a password). */
  async credentialOf(userId: number): Promise<CredentialDoc | null> {
    return (await this.credentials.byId(userId)) ?? this.fromLegacy(await this.collection.findOne({ id: userId, pass_hash: { $exists: true } }));
  }

  /** The credential record a Basic login names, by login or e-mail, or null. */
  async credentialByLoginOrEmail(name: string): Promise<CredentialDoc | null> {
    const found = await this.credentials.byLoginOrEmail(name);
    if (found) return found;
    const legacy =
      (await this.collection.findOne({ login: name, pass_hash: { $exists: true } })) ??
      (name.includes('@') ? await this.collection.findOne({ email: name.toLowerCase(), pass_hash: { $exists: true } }) : null);
    return this.fromLegacy(legacy);
  }

  /** The application passwords of a user (none for no user). */
  async appPasswords(userId: number): Promise<AppPasswordDoc[]> {
    return (await this.credentialOf(userId))?.app_passwords ?? [];
  }

  /**
   * Creates an application password and returns the record with the clear password, which is never
   * stored and is shown only this once.
   */
  async addAppPassword(userId: number, name: string, appId = '', clear = generateAppPassword()): Promise<{ record: AppPasswordDoc; password: string }> {
    const early = appPasswordProblem(name, null);
    if (early) throw early;
    const cred = await this.ensureCredential(userId);
    // Checked before the write: concurrent creates may each pass it, each going one past the limit at most.
    const problem = appPasswordProblem(name, cred.app_passwords.length);
    if (problem) throw problem;
    const record: AppPasswordDoc = {
      uuid: randomUUID(),
      app_id: appId,
      name,
      hash: hashAppPassword(clear),
      created: new Date(),
      last_used: null,
      last_ip: null,
    };
    await this.credentials.collection.updateOne({ id: userId }, { $push: { app_passwords: record } });
    return { record, password: clear };
  }

  /** Replaces the user's application passwords with `list` (an empty list revokes them all). */
  async setAppPasswords(userId: number, list: AppPasswordDoc[]): Promise<void> {
    for (const ap of list) {
      const problem = appPasswordProblem(ap.name, null);
      if (problem) throw problem;
    }
    await this.ensureCredential(userId);
    await this.credentials.collection.updateOne({ id: userId }, { $set: { app_passwords: list } });
  }

  /** The application password of the record that matches, or null. Every stored hash is checked. */
  matchAppPassword(cred: Pick<CredentialDoc, 'app_passwords'>, password: string): AppPasswordDoc | null {
    return matchAppPassword(cred, password);
  }

  /** Records use at most once a day, as the reference does, to keep authenticated reads write-free. */
  async recordUse(cred: CredentialDoc, ap: AppPasswordDoc, ip: string): Promise<void> {
    const day = 24 * 3600 * 1000;
    if (ap.last_used && Date.now() - new Date(ap.last_used).getTime() < day && ap.last_ip === ip) return;
    const list = (cred.app_passwords ?? []).map((p) => (p.uuid === ap.uuid ? { ...p, last_used: new Date(), last_ip: ip } : p));
    await this.credentials.collection.updateOne({ id: cred.id }, { $set: { app_passwords: list } });
  }

  /** The user's credential record, made (empty, or from a legacy user document) when it has none. */
  private async ensureCredential(userId: number): Promise<CredentialDoc> {
    const found = await this.credentialOf(userId);
    if (found) return found;
    const user = await this.collection.findOne({ id: userId });
    if (!user) throw new Error(`no user ${userId}`);
    return this.credentials.insert({ id: user.id, login: user.login, email: user.email, roles: user.roles, pass_hash: '', app_passwords: [] });
  }

  /** Moves a legacy user document's password hashes into a credential record; null for no document. */
  private async fromLegacy(user: UserDoc | null): Promise<CredentialDoc | null> {
    if (!user) return null;
    const cred = await this.credentials.insert({
      id: user.id,
      login: user.login,
      email: user.email,
      roles: user.roles,
      pass_hash: typeof user.pass_hash === 'string' ? user.pass_hash : '',
      // A boundary: the stored list is taken as the application passwords it was written as.
      app_passwords: Array.isArray(user.app_passwords) ? user.app_passwords : [],
    });
    await this.collection.updateOne({ id: user.id }, { $unset: { pass_hash: true, app_passwords: true } });
    return cred;
  }
}
