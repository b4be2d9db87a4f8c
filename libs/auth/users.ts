/**
 * User records and their application passwords. The gateway reads them to authenticate; the content
 * service manages them through cms/v2/users. Application passwords live inside the user document so
 * that authenticating a request is one indexed lookup.
 */
import { Kept } from '../store/kept';
import { randomUUID } from 'node:crypto';
import { Repository } from '../store/repository';
import type { Store } from '../store/types';
import { generateAppPassword, hashAccountPassword, hashAppPassword, normaliseAppPassword, verifyAppPassword } from './passwords';

export interface AppPasswordDoc {
  uuid: string;
  app_id: string;
  name: string;
  hash: string;
  created: Date;
  last_used: Date | null;
  last_ip: string | null;
}

export interface UserDoc extends Record<string, unknown> {
  id: number;
  login: string;
  email: string;
  /** Display name. */
  name: string;
  /** URL-safe nicename. */
  slug: string;
  first_name: string;
  last_name: string;
  nickname: string;
  description: string;
  url: string;
  locale: string;
  roles: string[];
  pass_hash: string;
  registered: Date;
  app_passwords: AppPasswordDoc[];
}

export function slugifyLogin(login: string): string {
  return (
    login
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9_.@-]+/g, '-')
      .replace(/[@.]/g, '')
      .replace(/^-+|-+$/g, '') || 'user'
  );
}

export class UsersRepository extends Repository<UserDoc> {
  constructor(private readonly store: Store) {
    super(store.collection<UserDoc>('users'));
  }

  /**
   * A keeper of values read from users: dropped as soon as this process writes any user (or a user's
   * application passwords) or, on the embedded store, another process does, and after `ttlMs` in any case.
   */
  kept<V>(maxEntries: number, ttlMs: number): Kept<V> {
    return new Kept<V>(this.store, { collections: ['users'], maxEntries, blindTtlMs: ttlMs, seenTtlMs: ttlMs });
  }

  byLogin(login: string): Promise<UserDoc | null> {
    return this.collection.findOne({ login });
  }

  byEmail(email: string): Promise<UserDoc | null> {
    return this.collection.findOne({ email: email.toLowerCase() });
  }

  /** The reference accepts the login or the e-mail address in Basic credentials. */
  async byLoginOrEmail(name: string): Promise<UserDoc | null> {
    return (await this.byLogin(name)) ?? (name.includes('@') ? this.byEmail(name) : null);
  }

  async create(fields: Partial<UserDoc> & { login: string; email: string; password: string }): Promise<UserDoc> {
    const { password, ...rest } = fields;
    const id = await this.store.nextId('users');
    const doc: UserDoc = {
      id,
      name: fields.name ?? fields.login,
      slug: fields.slug ?? slugifyLogin(fields.login),
      first_name: '',
      last_name: '',
      nickname: fields.login,
      description: '',
      url: '',
      locale: 'en_US',
      roles: ['subscriber'],
      registered: new Date(),
      app_passwords: [],
      ...rest,
      email: fields.email.toLowerCase(),
      pass_hash: await hashAccountPassword(password),
    };
    await this.collection.insertOne(doc);
    return doc;
  }

  /**
   * Creates an application password and returns the record with the clear password, which is never
   * stored and is shown only this once.
   */
  async addAppPassword(userId: number, name: string, appId = '', clear = generateAppPassword()): Promise<{ record: AppPasswordDoc; password: string }> {
    const record: AppPasswordDoc = {
      uuid: randomUUID(),
      app_id: appId,
      name,
      hash: hashAppPassword(clear),
      created: new Date(),
      last_used: null,
      last_ip: null,
    };
    await this.collection.updateOne({ id: userId }, { $push: { app_passwords: record } });
    return { record, password: clear };
  }

  /** Replaces the user's application passwords with `list` (an empty list revokes them all). */
  async setAppPasswords(userId: number, list: AppPasswordDoc[]): Promise<void> {
    await this.collection.updateOne({ id: userId }, { $set: { app_passwords: list } });
  }

  /**
   * Sets account fields (roles, e-mail, password hash, profile); callers have checked that a login or
   * e-mail stays unique. Application passwords change only through their own methods.
   */
  async setAccount(userId: number, set: Record<string, unknown>): Promise<void> {
    if ('app_passwords' in set || 'id' in set) throw new Error('not an account field');
    await this.collection.updateOne({ id: userId }, { $set: set });
  }

  /** The application password of the user that matches, or null. Every stored hash is checked. */
  matchAppPassword(user: UserDoc, password: string): AppPasswordDoc | null {
    const clean = normaliseAppPassword(password);
    let found: AppPasswordDoc | null = null;
    for (const ap of user.app_passwords ?? []) if (verifyAppPassword(clean, ap.hash) && !found) found = ap;
    return found;
  }

  /** Records use at most once a day, as the reference does, to keep authenticated reads write-free. */
  async recordUse(user: UserDoc, ap: AppPasswordDoc, ip: string): Promise<void> {
    const day = 24 * 3600 * 1000;
    if (ap.last_used && Date.now() - new Date(ap.last_used).getTime() < day && ap.last_ip === ip) return;
    const list = (user.app_passwords ?? []).map((p) => (p.uuid === ap.uuid ? { ...p, last_used: new Date(), last_ip: ip } : p));
    await this.collection.updateOne({ id: user.id }, { $set: { app_passwords: list } });
  }
}
