/**
 * The subscribable iCalendar feed on the front end: `GET /events/?ical=1`, with the event archive's
 * filters as query arguments, as the reference serves it on its event list. It answers only when `ical`
 * asks for it (any other `/events/` request is left to whatever serves that page) and runs the REST
 * export `vendor/events/v1/events/ical` as a guest, so the feed shows what the public archive shows.
 */
import type Koa from 'koa';
import { stateString } from '#libs/http/koa-state';
import type { RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { clientIp } from '../client-ip';
import { queryOf } from './route';
import { writeRest } from './write-rest';

export const ICAL_FEED_ROUTE = '/vendor/events/v1/events/ical';

const wantsFeed = (v: unknown): boolean => typeof v === 'string' && !['', '0', 'false'].includes(v.trim().toLowerCase());

/** Answers `/events/?ical=1`; any other request goes on. */
export function icalFeed(rest: RestServer, site: Site): Koa.Middleware {
  return async (ctx, next) => {
    const query = queryOf(ctx);
    if ((ctx.path !== '/events/' && ctx.path !== '/events') || !wantsFeed(query.ical)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const { ical: _ical, ...filters } = query;
    const out = await rest.handle({
      method: 'GET',
      path: ICAL_FEED_ROUTE,
      query: filters,
      bodyType: 'none',
      headers: ctx.headers,
      user: null,
      requestId: stateString(ctx, 'requestId'),
      ip: clientIp(ctx),
    });
    ctx.state.route = '/events/?ical';
    // Written as every REST answer is: the export's validators (304), an error's envelope and Retry-After.
    writeRest(ctx, site, out, { loggedIn: false, pretty: false });
  };
}
