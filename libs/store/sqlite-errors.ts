/**
 * SQLite's unique-constraint failures, reported as the port's DuplicateKeyError.
 */
import { isObject } from './query';
import { DuplicateKeyError } from './types';

export function isUniqueViolation(e: unknown): e is Error & { code: string } {
  const code = isObject(e) ? e.code : undefined;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function duplicateKey(e: Error, collection: string): DuplicateKeyError {
  // better-sqlite3 reports "UNIQUE constraint failed: posts.slug, posts.type".
  const list = e.message.split(':').slice(1).join(':');
  const keys = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith(`${collection}.`) ? s.slice(collection.length + 1) : s));
  return new DuplicateKeyError(collection, keys);
}
