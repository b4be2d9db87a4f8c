/**
 * The calendar's single pages at the reference's permalinks: `/event/{slug}/`, `/venue/{slug}/`,
 * `/organizer/{slug}/`, an event's iCalendar file at `/event/{slug}/ical/`, and the id form the service prints for a record without a pretty address
 * (`/?post_type=vendor_events&p={id}`, redirected to the pretty one when there is one). Each is the
 * vendor/views/v2/page answer for its record, asked for as the caller (a guest, or the user HTTP Basic
 * credentials name, so drafts and private records follow the REST single read's rules), printed in the
 * calendar page's frame and stylesheet. A record the caller may not read is a 404 page.
 */
import type Koa from 'koa';
import type { Authenticator } from '#libs/auth/authenticate';
import type { AuthUser } from '#libs/auth/user';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { escapeHtml as esc } from '#libs/html/escape';
import { stateString } from '#libs/http/koa-state';
import { isRecord } from '#libs/rest/args';
import { RestError, retryAfterHeader } from '#libs/rest/errors';
import type { PageAnswer } from '#libs/routes/calendar-views';
import type { RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { CALENDAR_ASSETS_PATH, CALENDAR_PATH, PAGE_CACHE, loadAssets, type Asset } from './calendar-page';
import { clientIp } from './client-ip';
import { queryOf } from './middleware/route';
import { writeRest } from './middleware/write-rest';

const PAGE_ROUTE = '/vendor/views/v2/page';
const KIND_OF_BASE: Record<string, 'event' | 'venue' | 'organizer'> = { event: 'event', venue: 'venue', organizer: 'organizer' };
const KIND_OF_TYPE: Record<string, 'event' | 'venue' | 'organizer'> = { [EVENT_TYPE]: 'event', [VENUE_TYPE]: 'venue', [ORGANIZER_TYPE]: 'organizer' };
/** `/event/{slug}/`: the base, the slug, and whether the trailing slash is there. */
const SINGLE_PATH = /^\/(event|venue|organizer)\/([^/]+)(\/?)$/;
/** `/event/{slug}/ical/`: the event's own iCalendar file, as the reference serves it. */
const ICAL_PATH = /^\/event\/([^/]+)\/ical\/?$/;

export interface CalendarSinglesOptions {
  site: Site;
  rest: RestServer;
  /** Reads HTTP Basic credentials, so a user who may read a draft sees its page. */
  auth?: Authenticator;
}

const isPage = (v: unknown): v is PageAnswer =>
  isRecord(v) && typeof v.title === 'string' && typeof v.url === 'string' && typeof v.head === 'string' && typeof v.html === 'string';

function document(site: Site, assets: Map<string, Asset>, page: { title: string; url?: string; head?: string; html: string }): string {
  const asset = (name: string) => `${CALENDAR_ASSETS_PATH}/${name}?v=${assets.get(name)!.hash}`;
  const feed = `${site.home}${CALENDAR_PATH}/?ical=1`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(`${page.title} – ${site.name}`)}</title><link rel="icon" href="data:,">` +
    (page.url ? `<link rel="canonical" href="${esc(page.url)}">` : '') +
    `<link rel="alternate" type="text/calendar" title="${esc(`${site.name} » iCal Feed`)}" href="${esc(feed)}">` +
    `<link rel="stylesheet" href="${asset('calendar.css')}"><link rel="stylesheet" href="${asset('single.css')}">` +
    (page.head ?? '') +
    `</head><body class="calendar-page calendar-page--single">` +
    `<a class="calendar-skip-link" href="#calendar-main">Skip to the content</a>` +
    `<header class="calendar-site-header"><div class="calendar-container"><a class="calendar-site-name" href="${esc(site.home)}/">${esc(site.name)}</a>` +
    (site.description ? `<p class="calendar-site-description">${esc(site.description)}</p>` : '') +
    `<nav class="calendar-site-nav" aria-label="Site"><a href="${esc(site.home)}${CALENDAR_PATH}/">Events</a></nav>` +
    `</div></header>` +
    `<main id="calendar-main" class="calendar-container calendar-main" tabindex="-1">${page.html}</main>` +
    `<footer class="calendar-site-footer"><div class="calendar-container"><p>${esc(site.name)} · <a href="${esc(site.home)}${CALENDAR_PATH}/list/">Upcoming events</a></p></div></footer>` +
    `</body></html>`
  );
}

const notFoundHtml = (site: Site) =>
  `<article class="calendar-single"><h1 class="calendar-single__title">Page not found</h1><p>There is nothing at this address. It may have been removed, or it is not public.</p><p><a href="${esc(site.home)}${CALENDAR_PATH}/">See all events</a></p></article>`;

/** The page of an address that names nothing the caller may read (404), or of a service that could not answer (a 503 with its Retry-After while the store is down). */
function notFound(ctx: Koa.Context, site: Site, assets: Map<string, Asset>, status: number, body?: unknown): true {
  ctx.status = status === 404 || status === 401 || status === 403 || status === 400 ? 404 : status >= 500 ? status : 500;
  for (const [k, v] of Object.entries(retryAfterHeader(status, body))) ctx.set(k, v);
  ctx.type = 'text/html; charset=UTF-8';
  ctx.set('Cache-Control', 'no-store');
  const html =
    ctx.status === 404
      ? notFoundHtml(site)
      : `<div class="tribe-events-c-messages"><div class="tribe-events-c-messages__message tribe-events-c-messages__message--error" role="alert"><p>This page could not be loaded. Please try again in a moment.</p></div></div>`;
  ctx.body = document(site, assets, { title: ctx.status === 404 ? 'Page not found' : 'Events', html });
  return true;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Which record an address names, or null when it is no single page of the calendar. */
function target(ctx: Koa.Context): { type: 'event' | 'venue' | 'organizer'; slug?: string; id?: number; slash: boolean } | null {
  const m = SINGLE_PATH.exec(ctx.path);
  if (m) {
    let slug: string;
    try {
      slug = decodeURIComponent(m[2]);
    } catch {
      return null;
    }
    return { type: KIND_OF_BASE[m[1]], slug, slash: m[3] === '/' };
  }
  if (ctx.path !== '/' && ctx.path !== '/index.php') return null;
  const query = queryOf(ctx);
  const kind = typeof query.post_type === 'string' ? KIND_OF_TYPE[query.post_type] : undefined;
  const id = typeof query.p === 'string' && /^\d{1,15}$/.test(query.p) ? Number(query.p) : 0;
  return kind && id > 0 ? { type: kind, id, slash: true } : null;
}

async function callerOf(ctx: Koa.Context, auth: Authenticator | undefined): Promise<AuthUser | null> {
  const header = ctx.get('Authorization');
  if (!auth || !header) return null;
  try {
    return await auth.authenticate(header, clientIp(ctx));
  } catch (e) {
    // Refused credentials see what a guest sees; the REST root is where a login is answered.
    if (e instanceof RestError) return null;
    throw e;
  }
}

/** Serves a single event, venue or organizer page; false when the address is none. */
export function calendarSingles(opts: CalendarSinglesOptions): (ctx: Koa.Context) => Promise<boolean> {
  const { site, rest, auth } = opts;
  const assets = loadAssets();
  const call = (path: string, query: Record<string, string>, user: AuthUser | null, ctx: Koa.Context) =>
    rest.handle({ method: 'GET', path, query, bodyType: 'none', headers: {}, user, requestId: stateString(ctx, 'requestId') });
  return async (ctx) => {
    const ical = ICAL_PATH.exec(ctx.path);
    if (ical && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.state.route = '/event/*/ical';
      const user = await callerOf(ctx, auth);
      // The event the slug names, as the caller may see its page (its visibility rules), then its export.
      const found = await call(PAGE_ROUTE, { type: 'event', slug: safeDecode(ical[1]) }, user, ctx);
      const id = found.status === 200 && isRecord(found.body) && typeof found.body.id === 'number' ? found.body.id : 0;
      if (!id) return notFound(ctx, site, assets, found.status, found.body);
      writeRest(ctx, site, await call(`/vendor/events/v1/events/${id}/ical`, {}, user, ctx), { loggedIn: !!user, pretty: false });
      return true;
    }
    const t = target(ctx);
    if (!t) return false;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return true;
    }
    ctx.state.route = t.id ? `/?post_type` : `/${t.type}/*`;
    if (!t.slash) {
      ctx.status = 301;
      ctx.redirect(`${ctx.path}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return true;
    }
    const user = await callerOf(ctx, auth);
    const out = await call(PAGE_ROUTE, { type: t.type, ...(t.slug !== undefined ? { slug: t.slug } : { id: String(t.id) }) }, user, ctx);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' https: http: data:; base-uri 'self'; form-action 'self'; frame-ancestors 'self'`,
    );
    ctx.set('Vary', 'Authorization');
    if (out.status === 200 && isRecord(out.body) && typeof out.body.redirect === 'string') {
      ctx.status = 301;
      ctx.set('Cache-Control', user ? 'private, no-store' : PAGE_CACHE);
      ctx.redirect(out.body.redirect);
      return true;
    }
    const page = out.status === 200 && isPage(out.body) ? out.body : null;
    ctx.type = 'text/html; charset=UTF-8';
    if (page) {
      ctx.status = 200;
      ctx.set('Cache-Control', page.public && !user ? PAGE_CACHE : 'private, no-store');
      ctx.body = document(site, assets, page);
      return true;
    }
    return notFound(ctx, site, assets, out.status, out.body);
  };
}
