/** The calendar service: vendor/events/v1 events, venues, organizers, categories, tags and its OpenAPI document; ec/v1 over the same records. */
import { Nonces } from '#libs/auth/nonces';
import { UsersRepository } from '#libs/auth/users';
import type { Config } from '#libs/config/env';
import { CommentsRepository } from '#libs/comments/repository';
import { MediaLibrary } from '#libs/media/library';
import { imageFetchPolicy } from '#libs/media/sideload';
import { storageFor } from '#libs/media/storage';
import { PostsRepository } from '#libs/posts/repository';
import type { RouteRegistry } from '#libs/rest/registry';
import { ServiceApp } from '#libs/rest/service';
import type { Site } from '#libs/rest/site';
import type { SiteSettings } from '#libs/settings/site-settings';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import type { CalendarDeps } from './deps';
import { bindDoc } from './doc/handlers';
import { bindEc } from './ec/handlers';
import { bindEvents } from './events/handlers';
import { bindICal } from './ical/handlers';
import { bindLinked } from './linked/handlers';
import { bindOnboarding } from './onboarding/handlers';
import { bindPages } from './pages/handlers';
import { ORGANIZER } from './organizers/kind';
import { bindTerms } from './terms/handlers';
import { CalendarCache } from './read-cache';
import { VENUE } from './venues/kind';
import { bindViews } from './views/handlers';
import { systemNow } from '#libs/dates/post-dates';
import { placeLookupOf, venueWrittenHook } from '#libs/geocode/jobs';
import type { JobQueue } from '#libs/queue/types';
import { DEFAULT_GEOFENCE, DEFAULT_GEO_UNIT, geofenceKm } from '#libs/calendar/geo';

export async function createCalendarService(opts: {
  registry: RouteRegistry;
  store: Store;
  site: Site;
  config: Config;
  settings?: SiteSettings;
  /** The process's producer queue (venues are geocoded on workers in the extended edition). */
  queue?: () => JobQueue;
}): Promise<ServiceApp> {
  const store = opts.store;
  const deps: CalendarDeps = {
    store,
    site: opts.site,
    registry: opts.registry,
    posts: new PostsRepository(store),
    terms: new TermsRepository(store),
    comments: new CommentsRepository(store),
    users: new UsersRepository(store),
    cache: new CalendarCache(store, opts.site),
    nonces: await Nonces.open(opts.store, opts.config.SERVICE_SECRET),
    now: systemNow,
    edition: opts.config.EDITION,
    venueWritten: venueWrittenHook(opts.config, opts.queue),
    ...(opts.settings ? { postsPerPage: () => opts.settings!.get<number>('posts_per_page') } : {}),
    ...(opts.config.EDITION === 'extended'
      ? {
          geofenceKm: () =>
            geofenceKm(opts.settings?.get('geoloc_default_geofence') ?? DEFAULT_GEOFENCE, opts.settings?.get('geoloc_default_unit') ?? DEFAULT_GEO_UNIT),
          geoUnit: () => (opts.settings?.get('geoloc_default_unit') === 'kilometers' ? 'kilometers' : 'miles'),
          placeToPoint: placeLookupOf(opts.config, store, opts.queue),
        }
      : {}),
    media: new MediaLibrary(opts.site, new PostsRepository(store), storageFor(opts.store, opts.config.DATA_DIR), opts.config.MAX_BODY_BYTES),
    imagePolicy: imageFetchPolicy(opts.config.OUTBOUND_ALLOW_HOSTS, opts.config.MAX_BODY_BYTES),
  };
  const app = new ServiceApp('calendar', opts.registry, deps.cache);
  bindDoc(app, deps);
  bindEvents(app, deps);
  bindICal(app, deps);
  bindLinked(app, deps, VENUE);
  bindLinked(app, deps, ORGANIZER);
  bindTerms(app, deps);
  bindEc(app, deps);
  bindViews(app, deps);
  bindPages(app, deps);
  bindOnboarding(app, deps);
  return app.verify();
}
