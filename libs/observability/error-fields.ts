/**
 * What a caught value tells: its `message` and its `code` (a Node errno name such as `ENOENT`). Read
 * from any object, not only from an `Error` of this realm (Node's own errors may come from another).
 */
import { isRecord } from '../rest/args';

export function errorMessage(e: unknown): string {
  return String(isRecord(e) ? e.message : e);
}

export function errorCode(e: unknown): unknown {
  return isRecord(e) ? e.code : undefined;
}
