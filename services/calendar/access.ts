/** Who may see and write what: statuses a caller may filter on or write (the reference's status rules). */
import { can, canReadRecord, type Caller } from '../../libs/auth/user';
import type { Filter } from '../../libs/store/types';
import type { CapabilityType } from '../../libs/auth/roles';
import { FILTER_STATUSES } from '../../libs/routes/vendor-events/args';
import { INVALID } from './errors';

/** What `any` means in a list: every status a record can be read in, not trash. */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

const plural = (t: CapabilityType) => `${t}s`;

/**
 * The statuses a list shows: a caller without the type's edit capability may ask for exactly `publish`
 * (the default); one with it may ask for any registered status (default: any).
 */
export function listStatuses(user: Caller, type: CapabilityType, requested: string[] | undefined): { statuses: string[]; echo: string } | string {
  const editor = can(user, `edit_${plural(type)}`);
  if (!requested) return editor ? { statuses: ANY_STATUSES, echo: 'any' } : { statuses: ['publish'], echo: 'publish' };
  if (!editor) return requested.length === 1 && requested[0] === 'publish' ? { statuses: ['publish'], echo: 'publish' } : INVALID;
  if (!requested.every((s) => FILTER_STATUSES.includes(s))) return INVALID;
  const statuses = [...new Set(requested.flatMap((s) => (s === 'any' ? ANY_STATUSES : [s])))];
  return { statuses, echo: requested.join(',') };
}

/**
 * ec/v1's status condition for a caller (the reference narrows the list silently where vendor/events/v1
 * refuses, see listStatuses): statuses anyone with the caller's rights reads in full, and
 * statuses the caller reads only on their own records. Null when no requested status is readable.
 */
export function readableStatuses(user: Caller, type: CapabilityType, requested: string[]): Filter | null {
  const statuses = can(user, `edit_${plural(type)}`) ? requested : ['publish'];
  const all: string[] = [];
  const own: string[] = [];
  for (const status of new Set(statuses)) {
    if (canReadRecord(user, type, { author: -1, status })) all.push(status);
    else if (user && canReadRecord(user, type, { author: user.id, status })) own.push(status);
  }
  const parts: Filter[] = [];
  if (all.length) parts.push({ status: { $in: all } });
  if (own.length && user) parts.push({ status: { $in: own }, author: user.id });
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0] : { $or: parts };
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
