/**
 * Credential records: what authenticating a request reads, one small record per user, apart from the
 * user's profile (libs/auth/users.ts). It holds the login and e-mail a request may name, the roles the
 * caller acts with, the account password's hash and the application passwords (their hashes, uuids,
 * names and use). Every field of it is bounded (libs/auth/limits.ts), so a login costs the same
 * whatever the user wrote into their profile. Only UsersRepository writes it.
 */
import { Collection, DuplicateKeyError, type Store } from '../store/types';
import { normaliseAppPassword, verifyAppPassword } from './passwords';

export interface AppPasswordDoc {
  uuid: string;
  app_id: string;
  name: string;
  hash: string;
  created: Date;
  last_used: Date | null;
  last_ip: string | null;
}

export interface CredentialDoc extends Record<string, unknown> {
  /** The user's id. */
  id: number;
  login: string;
  /** Lower case, as the profile keeps it. */
  email: string;
  roles: string[];
  /** The account password's hash; empty when the user has none. */
  pass_hash: string;
  app_passwords: AppPasswordDoc[];
}

/** The fields a credential record copies from the profile, or holds alone (pass_hash). */
export const CREDENTIAL_FIELDS = ['email', 'roles', 'pass_hash'] as const;

export class Credentials {
  readonly collection: Collection<CredentialDoc>;

  constructor(store: Store) {
    this.collection = store.collection<CredentialDoc>('credentials');
  }

  byId(id: number): Promise<CredentialDoc | null> {
    return this.collection.findOne({ id });
  }

  /** The reference accepts the login or the e-mail address in Basic credentials. */
  async byLoginOrEmail(name: string): Promise<CredentialDoc | null> {
    return (await this.collection.findOne({ login: name })) ?? (name.includes('@') ? this.collection.findOne({ email: name.toLowerCase() }) : null);
  }

  /** Inserts the record, or finds the one a concurrent writer inserted for the same user. */
  async insert(doc: CredentialDoc): Promise<CredentialDoc> {
    try {
      await this.collection.insertOne(doc);
      return doc;
    } catch (e) {
      const other = e instanceof DuplicateKeyError ? await this.byId(doc.id) : null;
      if (other) return other;
      throw e;
    }
  }
}

/** The application password of the record that matches, or null. Every stored hash is checked. */
export function matchAppPassword(cred: Pick<CredentialDoc, 'app_passwords'>, password: string): AppPasswordDoc | null {
  const clean = normaliseAppPassword(password);
  let found: AppPasswordDoc | null = null;
  for (const ap of cred.app_passwords ?? []) if (verifyAppPassword(clean, ap.hash) && !found) found = ap;
  return found;
}
