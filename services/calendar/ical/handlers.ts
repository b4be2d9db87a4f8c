/**
 * iCalendar exports: the event archive (the archive's own query and visibility), one event, and a venue's
 * or an organizer's events. Events are read in bounded batches and written as they come, up to
 * ICAL_MAX_EVENTS; each batch is presented as the archive presents it (a password-protected event keeps
 * its title and times only), so an export shows exactly what the archive shows the same caller.
 */
import { createHash } from 'node:crypto';
import { canReadRecord } from '#libs/auth/user';
import { ICAL_CONTENT_TYPE, ICalendarWriter, type ICalEvent } from '#libs/calendar/ical/export';
import { EVENT_META, EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE, truthyMeta } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import { invalidParams } from '#libs/rest/errors';
import { shared } from '#libs/rest/params';
import type { HandlerContext, Reply, ServiceApp } from '#libs/rest/service';
import { VENDOR_ICAL_ENDPOINTS } from '#libs/routes/vendor-events/index';
import type { SortSpec } from '#libs/store/types';
import type { CalendarDeps } from '../deps';
import { INVALID, calendarErrors } from '../errors';
import { archiveQuery, type ArchiveParams } from '../events/archive';
import { loadEventParts, type EventParts } from '../events/parts';
import { presentEvent } from '../events/present';

/** The most events one export holds; the archive's first ones (by start) when more match. */
export const ICAL_MAX_EVENTS = 10_000;
/** Events read and written at a time. */
const BATCH = 250;
/** How often a subscribed calendar should fetch the feed again. */
const REFRESH_MINUTES = 60;
/** The meta key an event imported from a calendar feed keeps the feed's UID under. */
const IMPORTED_UID = '_uid';

function icalEvent(deps: CalendarDeps, doc: PostDoc, parts: EventParts, blank: boolean): ICalEvent {
  const record = presentEvent(doc, deps.site, parts, { blank }) as unknown as ICalEvent;
  // Whether it lasts whole days is part of its times, which a protected event keeps (the record blanks the flag).
  const out: ICalEvent = { ...record, all_day: truthyMeta(doc.meta?.[EVENT_META.allDay]) };
  const uid = doc.meta?.[IMPORTED_UID];
  if (typeof uid === 'string' && uid.trim()) out.uid = uid.trim();
  return out;
}

/** A file name of letters, digits and dashes. */
function fileName(base: string): string {
  const safe = base
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${safe || 'events'}.ics`;
}

const httpDate = (utc: string): string | null => {
  const ms = Date.parse(`${utc.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? new Date(ms).toUTCString() : null;
};

/** The answer: the calendar text, named for download, with validators (the ETag ignores the export's DTSTAMP). */
function reply(writer: ICalendarWriter, name: string): Reply {
  const text = writer.finish();
  const digest = createHash('sha1').update(text.split(writer.stampLine).join('')).digest('base64url');
  const headers: Record<string, string> = {
    'Content-Disposition': `inline; filename="${fileName(name)}"`,
    ETag: `W/"${digest}"`,
  };
  const modified = writer.lastModified && httpDate(writer.lastModified);
  if (modified) headers['Last-Modified'] = modified;
  return { body: null, headers, raw: { contentType: ICAL_CONTENT_TYPE, text } };
}

/**
 * Writes every archive event matching the request's filters (plus `fixed`, a venue or organizer), in
 * batches. The archive's query decides what the caller may see.
 */
async function exportArchive(
  deps: CalendarDeps,
  ctx: HandlerContext<ArchiveParams>,
  name: string,
  fixed: Pick<ArchiveParams, 'venue' | 'organizer'> = {},
): Promise<Reply> {
  const params: ArchiveParams = { ...ctx.input, ...fixed };
  // A calendar program asking for a range wants every event that overlaps it, those straddling its edges too.
  const q = await archiveQuery(deps, { params, given: (n) => n in fixed || ctx.has(n), user: ctx.user, meets: true });
  if ('code' in q) throw q;
  // The id last makes the order total, so batches neither repeat nor skip an event.
  const sort: SortSpec = q.sort.some(([f]) => f === 'id') ? q.sort : [...q.sort, ['id', 1]];
  const writer = new ICalendarWriter(deps.site, { now: deps.now(), refreshMinutes: REFRESH_MINUTES });
  for (let skip = 0; skip < ICAL_MAX_EVENTS; skip += BATCH) {
    const limit = Math.min(BATCH, ICAL_MAX_EVENTS - skip);
    const items = await deps.posts.find(q.filter, { sort, skip, limit });
    if (!items.length) break;
    const parts = await loadEventParts(deps, items, false, ctx.user);
    writer.add(items.map((doc) => icalEvent(deps, doc, parts, !!doc.password)));
    if (items.length < limit) break;
  }
  return reply(writer, name);
}

/** The venue or organizer a route's id names, readable by the caller (as its single GET requires). */
async function linkedRecord(deps: CalendarDeps, ctx: HandlerContext, id: number, type: string, kind: 'venue' | 'organizer'): Promise<PostDoc> {
  const doc = Number.isInteger(id) && id > 0 ? await deps.posts.byId(id) : null;
  if (!doc || doc.type !== type) throw invalidParams([['id', INVALID]]);
  if (doc.status !== 'publish' && !canReadRecord(ctx.user, `vendor_${kind}`, doc)) throw calendarErrors.notAccessible(kind);
  return doc;
}

export function bindICal(app: ServiceApp, deps: CalendarDeps): void {
  app.bind(VENDOR_ICAL_ENDPOINTS.events, {
    handle: (ctx) => exportArchive(deps, ctx, `${deps.site.name}-events`),
  });

  app.bind(VENDOR_ICAL_ENDPOINTS.event, {
    async handle(ctx) {
      const id = ctx.input.id;
      const doc = Number.isInteger(id) && id > 0 ? await deps.posts.byId(id) : null;
      // The single event's own rules (its GET's errors), except that a password-protected event is exported
      // without its protected fields rather than refused.
      if (!doc) throw calendarErrors.eventNotFound(id);
      if (doc.type !== EVENT_TYPE) throw calendarErrors.invalidEventId();
      if (doc.status === 'trash') throw calendarErrors.eventNoLongerAvailable();
      if (doc.status !== 'publish' && !canReadRecord(ctx.user, 'vendor_event', doc)) throw calendarErrors.eventNotAccessible();
      const parts = await loadEventParts(deps, [doc], false, ctx.user);
      const blank = !!doc.password && ctx.input.password !== doc.password;
      const writer = new ICalendarWriter(deps.site, { now: deps.now() }).add([icalEvent(deps, doc, parts, blank)]);
      return reply(writer, doc.slug || `event-${doc.id}`);
    },
  });

  for (const [kind, type] of [
    ['venue', VENUE_TYPE],
    ['organizer', ORGANIZER_TYPE],
  ] as const) {
    app.bind(shared(VENDOR_ICAL_ENDPOINTS[kind]), {
      async handle(ctx) {
        const record = await linkedRecord(deps, ctx, ctx.input.id, type, kind);
        return exportArchive(deps, ctx, `${kind}-${record.slug || record.id}-events`, { [kind]: [record.id] });
      },
    });
  }
}
