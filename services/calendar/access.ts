/** Who may see and write what: statuses a caller may filter on or write (the reference's status rules). */
import { can, readScope, type Caller } from '#libs/auth/user';
import type { FieldCondition, Filter } from '#libs/store/types';
import type { CapabilityType } from '#libs/auth/roles';
import { FILTER_STATUSES } from '#libs/routes/vendor-events/args';
import { INVALID } from './errors';

/** What `any` means in a list: every status a record can be read in, not trash. */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

const plural = (t: CapabilityType) => `${t}s`;

/**
 * The store condition of every calendar list, export and ability: records in `statuses` the caller may
 * read, as single reads decide (read_post, libs/auth/user.ts `readScope`), so a list never shows what a
 * single read refuses and its totals count only what it shows. The status condition is the one the
 * list indexes lead with; statuses the caller reads only on their own records add an author condition
 * checked on the rows those indexes find. Matches nothing when no status is readable.
 */
export function readableFilter(user: Caller, type: CapabilityType, statuses: string[]): Filter {
  const { anyone, own } = readScope(user, type, statuses);
  const readable = [...anyone, ...own];
  const status: FieldCondition = readable.length === 1 ? readable[0] : { $in: readable };
  if (!own.length || !user) return { status };
  return anyone.length ? { status, $or: [{ status: { $in: anyone } }, { author: user.id }] } : { status, author: user.id };
}

/**
 * vendor/events/v1's statuses: a caller without the type's edit capability may ask for exactly `publish`
 * (the default), else the status is refused (rest_invalid_param, as the reference answers); one with it
 * may ask for any registered status (default: any), and sees of them what it may read (readableFilter).
 * `echo` is the status the archive's `rest_url` repeats.
 */
export function listStatuses(user: Caller, type: CapabilityType, requested: string[] | undefined): { filter: Filter; echo: string } | string {
  const editor = can(user, `edit_${plural(type)}`);
  const shown = (statuses: string[], echo: string) => ({ filter: readableFilter(user, type, statuses), echo });
  if (!requested) return editor ? shown(ANY_STATUSES, 'any') : shown(['publish'], 'publish');
  if (!editor) return requested.length === 1 && requested[0] === 'publish' ? shown(['publish'], 'publish') : INVALID;
  if (!requested.every((s) => FILTER_STATUSES.includes(s))) return INVALID;
  return shown([...new Set(requested.flatMap((s) => (s === 'any' ? ANY_STATUSES : [s])))], requested.join(','));
}

/**
 * ec/v1's statuses (the reference narrows the list silently where vendor/events/v1 refuses, see
 * listStatuses): a caller without the type's edit capability gets `publish` whatever it asks for; one
 * with it the requested statuses, of which it sees what it may read (readableFilter).
 */
export function readableStatuses(user: Caller, type: CapabilityType, requested: string[]): Filter {
  return readableFilter(user, type, can(user, `edit_${plural(type)}`) ? requested : ['publish']);
}

/**
 * The status a write stores: a caller who cannot publish gets `pending` for publish, future and private,
 * and `draft` by default; a publisher gets what was asked, `publish` by default. An update without a
 * status keeps the current one.
 */
export function scaleStatus(user: Caller, type: CapabilityType, requested: string | undefined, current?: string): string {
  const publisher = can(user, `publish_${plural(type)}`);
  if (requested === undefined) return current ?? (publisher ? 'publish' : 'draft');
  if (!publisher && ['publish', 'future', 'private'].includes(requested)) return current === requested ? current : 'pending';
  return requested;
}

/** A scheduled date turns publish into future and a past one turns future into publish, as the reference's insert does. */
export function statusForDate(status: string, dateGmt: Date, now: Date): string {
  if (status === 'publish' && dateGmt.getTime() > now.getTime()) return 'future';
  if (status === 'future' && dateGmt.getTime() <= now.getTime()) return 'publish';
  return status;
}

/**
 * Whether the caller may write a record as `author`: naming someone else needs edit_others_X, as the
 * posts controller's rest_cannot_edit_others rule, so a contributor cannot attribute records to others
 * (or hand theirs away). No author, or the caller's own id, is always allowed.
 */
export function mayWriteAs(user: Caller, type: CapabilityType, author: unknown): boolean {
  if (typeof author !== 'number' || author === 0 || author === user?.id) return true;
  return can(user, `edit_others_${plural(type)}`);
}

/**
 * What the record checks of a write read besides the caller's capabilities (canEditRecord,
 * canDeleteRecord, mayWriteAs): the target's status and whether the caller wrote it (`none` without a
 * target), and whether an `author` argument names someone else. A key of ServiceApp's Allow table
 * (Handler.allowState) for checks made of those alone.
 */
export function writeState(user: Caller, doc: { status: string; author: number } | null, author: unknown): string {
  const target = doc ? `${doc.status}:${doc.author === user?.id ? 'own' : 'other'}` : 'none';
  return `${target}:${typeof author !== 'number' || author === 0 || author === user?.id ? 'self' : 'other'}`;
}
