/**
 * The gateway's HTTP front. A REST request (`/index.php/cms-json/...` or `?rest_route=`) goes to the REST
 * front (./rest-front), straight from Node's request to its response. Any other request goes to a Koa
 * app of single-purpose middleware (./middleware), in the order a request meets them: its id, log line
 * and error envelope; health, readiness and metrics; then the site's own pages (the iCalendar feed,
 * uploads, the calendar page, the authorization page, the home page).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import Koa from 'koa';
import type { Authenticator } from '#libs/auth/authenticate';
import { opsEndpoints } from '#libs/http/ops';
import { readBody } from '#libs/http/read-body';
import type { FileStorage } from '#libs/media/storage';
import type { RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { logger } from '#libs/observability/logger';
import { serveUpload } from './uploads';
import { icalFeed } from './middleware/ical-feed';
import { requestLog } from './middleware/request-log';
import { answering, isSiteRequest, keepQuery, parseQuery, restRoutePath, splitTarget } from './middleware/route';
import { homePage, labelSitePath, unanswered } from './middleware/site-pages';
import { restFront } from './rest-front';

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

/** The gateway: its request listener for a Node server, and the Koa app of the site's pages. */
export interface Gateway {
  callback(): RequestListener;
  readonly site: Koa;
}

export function createGatewayApp(opts: GatewayOptions): Gateway {
  const hops = opts.trustProxyHops ?? 0;
  const { rest, site, files, calendar, calendarSingles, pages } = opts;
  const front = restFront({ rest, auth: opts.auth, site, maxBodyBytes: opts.maxBodyBytes, trustProxyHops: hops });
  /**
   * Tells a REST request apart by its path and query string: hands it to the REST front (true), or keeps
   * a site request's parsed query for its pages (false). The query string is parsed once either way.
   */
  const tellApart = (req: IncomingMessage, res: ServerResponse, urlPath: string, querystring: string): boolean => {
    const query = parseQuery(querystring);
    const routePath = restRoutePath(urlPath, query);
    if (routePath === undefined) {
      keepQuery(req, query);
      return false;
    }
    front(req, res, { urlPath, querystring, query, routePath }).catch((e: unknown) => logger.error({ err: e }, 'REST front failed'));
    return true;
  };

  // Koa reads the last `maxIpsCount` X-Forwarded-For entries (those the trusted proxies added) and takes the first of them.
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  // A REST request whose target only Koa splits (an absolute URI, a fragment) is told apart here, by Koa's path.
  app.use((ctx, next) => {
    if (isSiteRequest(ctx.req) || !tellApart(ctx.req, ctx.res, ctx.path, ctx.querystring)) return next();
    ctx.respond = false;
    return Promise.resolve();
  });
  app.use(requestLog());
  app.use(opsEndpoints(opts.ready));
  // The iCalendar feed of the event list (/events/?ical=1) comes before any page under /events/.
  app.use(icalFeed(rest, site));
  app.use(labelSitePath);
  if (files) app.use(answering((ctx) => serveUpload(ctx, files)));
  if (calendar) app.use(answering(calendar));
  // Before the home page: `/?post_type=vendor_events&p=ID` is an event's address.
  if (calendarSingles) app.use(answering(calendarSingles));
  if (pages) app.use(answering((ctx) => pages(ctx, () => readBody(ctx.req, opts.maxBodyBytes))));
  app.use(answering(homePage(site)));
  app.use(unanswered);

  return {
    site: app,
    callback() {
      const sitePages = app.callback();
      return (req, res) => {
        const split = splitTarget(req.url ?? '');
        if (split && tellApart(req, res, split.path, split.querystring)) return;
        void sitePages(req, res);
      };
    },
  };
}
