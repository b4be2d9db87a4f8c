/**
 * The VEVENTs of a feed grouped by UID, as calendar apps resolve them (RFC 5545 3.8.4.4):
 * - copies of one UID without RECURRENCE-ID that are versions of one event (another SEQUENCE, else
 *   another DTSTAMP) leave the newest; copies of one version that differ (another start or title) are
 *   different events that share a UID by the exporter's mistake, and all are kept, the later ones
 *   under `UID#<hash of their start and title>`; either way the run says so;
 * - RECURRENCE-ID overrides replace the occurrence they name (the newest copy of each wins); an
 *   all-day series' overrides are matched by the local date of their RECURRENCE-ID, since Exchange
 *   names an all-day occurrence by a date-time (midnight in its own zone);
 * - overrides whose series is not in the feed are events of their own.
 */
import { createHash } from 'node:crypto';
import type { FeedError } from './types';
import type { Vevent } from './vevent';
import { basicDate, basicUtc } from './zones';

export interface Series {
  master: Vevent;
  overrides: Map<string, Vevent>;
}

/** What to emit, in the order of the feed: series, and events without a rule under the UID they are stored with. */
export type Plan = Array<{ series: Series } | { single: Vevent; uid: string }>;

/** Whether b is a later version than a: a higher SEQUENCE, else a later DTSTAMP, else later in the file. */
export function isNewer(a: Vevent | undefined, b: Vevent): boolean {
  if (!a) return true;
  if (a.sequence !== b.sequence) return b.sequence > a.sequence;
  if (a.stamp !== b.stamp && a.stamp !== null && b.stamp !== null) return b.stamp > a.stamp;
  return true;
}

const sameVersion = (a: Vevent, b: Vevent) => a.sequence === b.sequence && a.stamp === b.stamp;
const look = (v: Vevent) => `${v.startMs}|${v.allDay}|${v.title}`;
const lookHash = (v: Vevent) => createHash('sha1').update(look(v)).digest('hex').slice(0, 8);

/** The copies of one UID without RECURRENCE-ID that are kept (see the module's comment). */
function keptMasters(uid: string, masters: Vevent[], notes: FeedError[]): Vevent[] {
  if (masters.length < 2) return masters;
  let newest = masters[0];
  for (const m of masters.slice(1)) if (isNewer(newest, m)) newest = m;
  const kept = [newest];
  for (const m of masters) {
    if (m === newest || !sameVersion(m, newest) || kept.some((k) => look(k) === look(m))) continue;
    kept.push({ ...m, uid: `${uid}#${lookHash(m)}` });
  }
  const replaced = masters.filter((m) => !sameVersion(m, newest)).length;
  if (replaced)
    notes.push({
      uid,
      line: newest.line,
      message: `${replaced} older cop${replaced > 1 ? 'ies' : 'y'} of this UID left out for the newest (SEQUENCE ${newest.sequence})`,
    });
  if (kept.length > 1) notes.push({ uid, line: kept[1].line, message: `${kept.length} different events share this UID: each is kept` });
  const twins = masters.length - replaced - kept.length;
  if (twins > 0) notes.push({ uid, line: newest.line, message: `${twins} identical cop${twins > 1 ? 'ies' : 'y'} of this event left out` });
  return kept;
}

export function groupEvents(vevents: Vevent[], notes: FeedError[]): Plan {
  const byUid = new Map<string, { masters: Vevent[]; overrides: Map<string, Vevent> }>();
  for (const v of vevents) {
    let g = byUid.get(v.uid);
    if (!g) byUid.set(v.uid, (g = { masters: [], overrides: new Map() }));
    if (v.recurrenceId) {
      if (isNewer(g.overrides.get(v.recurrenceId), v)) g.overrides.set(v.recurrenceId, v);
    } else g.masters.push(v);
  }
  const plan: Plan = [];
  for (const [uid, g] of byUid) {
    const kept = keptMasters(uid, g.masters, notes);
    const first = kept.find((m) => m.recurring) ?? kept[0];
    let overrides = g.overrides;
    if (first?.recurring && first.allDay) {
      // An all-day series: its occurrences are dates, so are the overrides' RECURRENCE-IDs.
      overrides = new Map();
      for (const o of g.overrides.values()) overrides.set(o.recurrenceDate ?? o.recurrenceId!, o);
    }
    let taken: string | undefined;
    for (const m of kept) {
      const own = m === first ? overrides : new Map<string, Vevent>();
      if (m.recurring) plan.push({ series: { master: m, overrides: own } });
      else {
        // An event without a rule: an override of its only occurrence replaces it, under its UID.
        const key = m.allDay ? basicDate(m.start) : basicUtc(m.startMs);
        if (m === first) taken = key;
        plan.push({ single: own.get(key) ?? m, uid: m.uid });
      }
    }
    if (!first?.recurring) for (const [key, o] of g.overrides) if (key !== taken) plan.push({ single: o, uid: `${o.uid}/${key}` });
  }
  return plan;
}
