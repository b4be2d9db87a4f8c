/**
 * The subscribable iCalendar feed on the front end: `GET /events/?ical=1`, with the event archive's
 * filters as query arguments, as the reference serves it on its event list. It answers only when `ical`
 * asks for it (any other `/events/` request is left to whatever serves that page) and runs the REST
 * export `vendor/events/v1/events/ical` as a guest, so the feed shows what the public archive shows.
 */
import type Koa from 'koa';
import { clientIp } from './client-ip';
import { stateString } from '../koa-state';
import type { RestOutput, RestServer } from '../../libs/rest/server';

export const ICAL_FEED_ROUTE = '/vendor/events/v1/events/ical';

const wantsFeed = (v: unknown): boolean => typeof v === 'string' && !['', '0', 'false'].includes(v.trim().toLowerCase());

/** Answers `/events/?ical=1`; false for any other request. */
export async function serveICalFeed(ctx: Koa.Context, rest: RestServer, query: Record<string, unknown>, write: (out: RestOutput) => void): Promise<boolean> {
  if ((ctx.path !== '/events/' && ctx.path !== '/events') || !wantsFeed(query.ical)) return false;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
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
  write(out);
  return true;
}
