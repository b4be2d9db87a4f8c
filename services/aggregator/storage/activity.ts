/**
 * The activity log of an import (the reference's Record__Activity): per kind of record, the ids
 * created, updated, skipped and scheduled. A batch answers with its own activity; the record keeps the
 * union of every batch's.
 */
import { isRecord } from '#libs/rest/args';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from '#libs/calendar/meta';

export const ACTIVITY_KINDS = [EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE, CATEGORY_TAXONOMY, TAG_TAXONOMY, 'attachment'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export const ACTIVITY_ACTIONS = ['created', 'updated', 'skipped', 'scheduled'] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export type Activity = Record<ActivityKind, Record<ActivityAction, number[]>>;

export function emptyActivity(): Activity {
  const none = (): Record<ActivityAction, number[]> => ({ created: [], updated: [], skipped: [], scheduled: [] });
  // In ACTIVITY_KINDS order.
  return {
    [EVENT_TYPE]: none(),
    [ORGANIZER_TYPE]: none(),
    [VENUE_TYPE]: none(),
    [CATEGORY_TAXONOMY]: none(),
    [TAG_TAXONOMY]: none(),
    attachment: none(),
  };
}

/** Adds an id once under a kind and action. */
export function addActivity(a: Activity, kind: ActivityKind, action: ActivityAction, id: number): void {
  const list = a[kind][action];
  if (!list.includes(id)) list.push(id);
}

/**
 * The union of activities, in order (ids of `a` first). Tolerates a stored value of another shape:
 * unknown kinds and actions are ignored and missing ones read as empty.
 */
export function mergeActivity(...parts: unknown[]): Activity {
  const out = emptyActivity();
  for (const part of parts) {
    if (!isRecord(part)) continue;
    for (const kind of ACTIVITY_KINDS) {
      const byAction = part[kind];
      if (!isRecord(byAction)) continue;
      for (const action of ACTIVITY_ACTIONS) {
        const ids = byAction[action];
        if (!Array.isArray(ids)) continue;
        const into = out[kind][action];
        const seen = new Set(into);
        for (const id of ids) {
          if (typeof id === 'number' && !seen.has(id)) {
            seen.add(id);
            into.push(id);
          }
        }
      }
    }
  }
  return out;
}
