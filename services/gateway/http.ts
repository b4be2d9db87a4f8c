/**
 * The gateway's HTTP front, composed here of single-purpose middleware (./middleware), in the order a
 * request meets them: its id, log line and error envelope; health, readiness and metrics; then either
 * the site's own pages (the iCalendar feed, uploads, the calendar page, the authorization page, the
 * home page) or a REST request (`/index.php/cms-json/...` or `?rest_route=`): its JSONP callback, its
 * body within the limit, its caller, the kept site index, its body's buckets, and the REST pipeline,
 * whose answer is written with the reference's headers.
 */
import Koa from 'koa';
import type { Authenticator } from '#libs/auth/authenticate';
import { opsEndpoints } from '#libs/http/ops';
import { readBody } from '#libs/http/read-body';
import type { FileStorage } from '#libs/media/storage';
import type { RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { serveUpload } from './uploads';
import { authenticate } from './middleware/authenticate';
import { dispatchRest } from './middleware/dispatch';
import { icalFeed } from './middleware/ical-feed';
import { jsonpCallback } from './middleware/jsonp';
import { parseRequestBody } from './middleware/parse-body';
import { requestBody } from './middleware/request-body';
import { requestLog } from './middleware/request-log';
import { answering, findRestRoute, siteOrRest } from './middleware/route';
import { homePage, labelSitePath, unanswered } from './middleware/site-pages';
import { siteIndex } from './middleware/site-index';

export interface GatewayOptions {
  rest: RestServer;
  auth: Authenticator;
  site: Site;
  maxBodyBytes: number;
  /** Throws when a dependency (store, queue) is not reachable. */
  ready: () => Promise<void>;
  /** Extra pages outside the REST root (the application authorization page). */
  pages?: (ctx: Koa.Context, body: () => Promise<Buffer>) => Promise<boolean>;
  /** The media library's files, served under /cms-content/uploads/. */
  files?: FileStorage;
  /** The public calendar page under /events/ and its assets under /cms-content/calendar/ (./calendar-page). */
  calendar?: (ctx: Koa.Context) => Promise<boolean>;
  /** The calendar's single event, venue and organizer pages (./calendar-single). */
  calendarSingles?: (ctx: Koa.Context) => Promise<boolean>;
  /**
   * Reverse proxies in front whose X-Forwarded-For entries are trusted (TRUST_PROXY_HOPS): the client
   * address is the entry the outermost one added; 0 takes the connection's address.
   */
  trustProxyHops?: number;
}

export function createGatewayApp(opts: GatewayOptions): Koa {
  const hops = opts.trustProxyHops ?? 0;
  // Koa reads the last `maxIpsCount` X-Forwarded-For entries (those the trusted proxies added) and takes the first of them.
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const { rest, site, files, calendar, calendarSingles, pages } = opts;

  app.use(requestLog());
  app.use(opsEndpoints(opts.ready));
  app.use(findRestRoute(rest));
  app.use(
    siteOrRest(
      // The site's own pages. The iCalendar feed of the event list (/events/?ical=1) comes before any page under /events/.
      [
        icalFeed(rest, site),
        labelSitePath,
        ...(files ? [answering((ctx) => serveUpload(ctx, files))] : []),
        ...(calendar ? [answering(calendar)] : []),
        // Before the home page: `/?post_type=vendor_events&p=ID` is an event's address.
        ...(calendarSingles ? [answering(calendarSingles)] : []),
        ...(pages ? [answering((ctx) => pages(ctx, () => readBody(ctx.req, opts.maxBodyBytes)))] : []),
        answering(homePage(site)),
        unanswered,
      ],
      // A REST request.
      [
        jsonpCallback(site),
        requestBody(site, opts.maxBodyBytes),
        authenticate(site, opts.auth),
        siteIndex(site, rest.registry),
        parseRequestBody(),
        dispatchRest(rest, site),
      ],
    ),
  );

  return app;
}
