/**
 * vendor/views/v2/page: the single event, venue and organizer pages the site prints at
 * `/event/{slug}/`, `/venue/{slug}/`, `/organizer/{slug}/` (and `/?post_type=...&p={id}`). A record is
 * found by its slug (the type and slug index) or id; what the caller may not read answers 404 as the
 * reference's front end does: trash always, and drafts, pending, scheduled and private records unless
 * the single REST read would allow them (libs/auth/user.ts `canReadRecord`). An address by id of a
 * record with a pretty address answers that address to redirect to.
 */
import { canReadRecord } from '#libs/auth/user';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { permalinkOf } from '#libs/posts/permalink';
import type { PostDoc } from '#libs/posts/types';
import { RestError } from '#libs/rest/errors';
import type { ServiceApp } from '#libs/rest/service';
import { VIEWS_PAGE_ENDPOINT } from '#libs/routes/calendar-views';
import type { CalendarDeps } from '../deps';
import type { PageAnswer, RedirectAnswer } from './common';
import { eventPage } from './event';
import { linkedPage } from './linked';

const KINDS = {
  event: { type: EVENT_TYPE, cap: 'vendor_event' },
  venue: { type: VENUE_TYPE, cap: 'vendor_venue' },
  organizer: { type: ORGANIZER_TYPE, cap: 'vendor_organizer' },
} as const;

export const pageNotFound = (): RestError => new RestError('rest_post_invalid_id', 'Page not found.', 404);

export function bindPages(app: ServiceApp, deps: CalendarDeps): void {
  app.bind(VIEWS_PAGE_ENDPOINT, {
    async handle(ctx): Promise<{ body: PageAnswer | RedirectAnswer; headers?: Record<string, string> }> {
      const kind = ctx.input.type;
      const { type, cap } = KINDS[kind];
      const { slug, id } = ctx.input;
      let doc: PostDoc | null = null;
      if (typeof id === 'number') doc = await deps.posts.byId(id);
      else if (slug) doc = await deps.posts.findOne({ type, slug });
      if (!doc || doc.type !== type || doc.status === 'trash' || !canReadRecord(ctx.user, cap, doc)) throw pageNotFound();
      if (typeof id === 'number' && doc.slug && doc.status === 'publish') return { body: { redirect: permalinkOf(deps.site, doc) } };
      const page = kind === 'event' ? await eventPage(deps, doc) : await linkedPage(deps, kind, doc);
      // What only the caller may read is never kept by shared caches.
      return { body: { ...page, public: page.public && doc.status === 'publish' } };
    },
  });
}
