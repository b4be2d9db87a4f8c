/**
 * The authenticated caller as it travels from the gateway to services (signed) and into batch jobs.
 * Meta capabilities on a record (edit_post, delete_post, read_post) are mapped to primitive ones as
 * the reference system's map_meta_cap does for post-like types.
 */
import { capsOf, type CapabilityType } from './roles';

export interface AuthUser {
  id: number;
  login: string;
  roles: string[];
  caps: string[];
  /** The application password used, when the request authenticated with one. */
  appPassword?: string;
}

export type Caller = AuthUser | null;

const capCache = new WeakMap<AuthUser, Set<string>>();

export function can(user: Caller, cap: string): boolean {
  if (!user) return false;
  let set = capCache.get(user);
  if (!set) {
    set = new Set(user.caps);
    capCache.set(user, set);
  }
  return set.has(cap);
}

export function makeAuthUser(doc: { id: number; login: string; roles: string[] }, appPassword?: string): AuthUser {
  return { id: doc.id, login: doc.login, roles: doc.roles, caps: capsOf(doc.roles), ...(appPassword ? { appPassword } : {}) };
}

/** The minimal record shape the post meta capabilities need. */
export interface OwnedRecord {
  author: number;
  status: string;
}

const plural = (t: CapabilityType) => `${t}s`;

/** edit_post on a record: own drafts need edit_X; published need edit_published_X; others' need edit_others_X. */
export function canEditRecord(user: Caller, type: CapabilityType, rec: OwnedRecord): boolean {
  if (!user) return false;
  const p = plural(type);
  const status = rec.status === 'trash' ? 'draft' : rec.status;
  if (rec.author === user.id) {
    if (status === 'publish' || status === 'future') return can(user, `edit_published_${p}`);
    if (status === 'private') return can(user, `edit_private_${p}`) || can(user, `edit_published_${p}`);
    return can(user, `edit_${p}`);
  }
  if (!can(user, `edit_others_${p}`)) return false;
  if (status === 'publish' || status === 'future') return can(user, `edit_published_${p}`);
  if (status === 'private') return can(user, `edit_private_${p}`);
  return true;
}

export function canDeleteRecord(user: Caller, type: CapabilityType, rec: OwnedRecord): boolean {
  if (!user) return false;
  const p = plural(type);
  const status = rec.status === 'trash' ? 'draft' : rec.status;
  if (rec.author === user.id) {
    if (status === 'publish' || status === 'future') return can(user, `delete_published_${p}`);
    if (status === 'private') return can(user, `delete_private_${p}`);
    return can(user, `delete_${p}`);
  }
  if (!can(user, `delete_others_${p}`)) return false;
  if (status === 'publish' || status === 'future') return can(user, `delete_published_${p}`);
  if (status === 'private') return can(user, `delete_private_${p}`);
  return true;
}

/** read_post: published records are public; private ones need read_private_X; others need edit rights. */
export function canReadRecord(user: Caller, type: CapabilityType, rec: OwnedRecord): boolean {
  if (rec.status === 'publish') return true;
  if (!user) return false;
  if (rec.status === 'private') return rec.author === user.id || can(user, `read_private_${plural(type)}`);
  return canEditRecord(user, type, rec);
}

/** Statuses a caller reads on anyone's records, and those read only on their own. */
export interface ReadScope {
  anyone: string[];
  own: string[];
}

/** An author id no caller has: a record "by someone else" in the questions readScope asks. */
const SOMEONE_ELSE = -1;

/**
 * read_post over statuses, for lists: canReadRecord asked of a record by someone else and of one of
 * the caller's own in each status. Its answer depends on nothing else (status, and whether the caller
 * wrote the record), so a list filtered by the scope shows exactly the records single reads allow.
 */
export function readScope(user: Caller, type: CapabilityType, statuses: Iterable<string>): ReadScope {
  const scope: ReadScope = { anyone: [], own: [] };
  for (const status of new Set(statuses)) {
    if (canReadRecord(user, type, { author: SOMEONE_ELSE, status })) scope.anyone.push(status);
    else if (user && canReadRecord(user, type, { author: user.id, status })) scope.own.push(status);
  }
  return scope;
}
