/** What the calendar service's handlers are given: the store, its repositories, the site facts and the route registry. */
import type { GeoUnit, LatLng } from '#libs/calendar/geo';
import type { Nonces } from '#libs/auth/nonces';
import type { UsersRepository } from '#libs/auth/users';
import type { CommentsRepository } from '#libs/comments/repository';
import type { MediaLibrary } from '#libs/media/library';
import type { FetchPolicy } from '#libs/net/outbound';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import type { RouteRegistry } from '#libs/rest/registry';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';
import type { TermsRepository } from '#libs/terms/repository';
import type { CalendarCache } from './read-cache';
import type { Edition } from '#libs/rest/registry';

export interface CalendarDeps {
  store: Store;
  site: Site;
  registry: RouteRegistry;
  posts: PostsRepository;
  terms: TermsRepository;
  /** The records' comments, hidden with a trashed record and removed with a deleted one. */
  comments: CommentsRepository;
  users: UsersRepository;
  /** What the calendar keeps between requests (./read-cache.ts): presented records, callers' answers, list pages and totals, embedded records. */
  cache: CalendarCache;
  /** Action nonces of the views and the onboarding wizard. */
  nonces: Nonces;
  /** The present moment; tests may pin it. */
  now: () => Date;
  /** The site's posts-per-page setting: the default page size of the event archives. */
  postsPerPage?: () => number;
  /**
   * The reference's time-zone mode of the calendar views: `event` (its default) shows each event in its
   * own zone, `site` every timed event in the site's.
   */
  timezoneMode?: 'event' | 'site';
  /** The media library, where images given by URL are kept. */
  media: MediaLibrary;
  /** Outbound policy of image fetches. */
  imagePolicy: FetchPolicy;
  /**
   * The extended edition (EDITION=extended): the geoloc filters' geofence radius, in kilometres, from the
   * settings. Absent in the free edition, which accepts the geoloc filters and ignores them.
   */
  geofenceKm?: () => number;
  /** The extended edition: the unit the settings give the geofence in, in which distances are shown. */
  geoUnit?: () => GeoUnit;
  /**
   * The extended edition with a geocoder configured: the point of a place typed in the calendar's "Near"
   * field: null when the geocoder finds none, `busy` when it cannot answer now. Without it, only a point
   * the browser gave is searched near.
   */
  placeToPoint?: (place: string) => Promise<LatLng | null | 'busy'>;
  /** Which edition runs (config EDITION): venue coordinates are written in the extended one only. */
  edition: Edition;
  /**
   * Told of every venue once it is stored (the extended edition with a geocoder configured): asks the
   * workers to geocode it when its address needs it. Never throws and never waits for the queue.
   */
  venueWritten?: (venue: PostDoc) => void;
}
