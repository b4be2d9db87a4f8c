/**
 * The public calendar page (the reference's events front end): `/events/` and the view addresses below
 * it (`/events/list/`, `/events/month/2031-01/`, `/events/day/2031-01-15/`, `/events/today/`, and the
 * query form `?eventDisplay=month&tribe-bar-date=2031-01`). The page is the vendor/views/v2/html
 * answer for its own URL, asked for as a visitor (so only published, public events appear), inside a
 * document with the calendar's stylesheet and view manager, both served from /cms-content/calendar/.
 * The view manager swaps in the next view from vendor/views/v2/html; without it every link is a page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Koa from 'koa';
import { VIEW_NONCE_ACTION, type Nonces } from '#libs/auth/nonces';
import { escapeHtml as esc } from '#libs/html/escape';
import { isRecord } from '#libs/rest/args';
import { stateString } from '#libs/http/koa-state';
import type { RestServer } from '#libs/rest/server';
import { restUrl, type Site } from '#libs/rest/site';
import { retryAfterHeader } from '#libs/rest/errors';
import { notModified } from './uploads';

export const CALENDAR_PATH = '/events';
export const CALENDAR_ASSETS_PATH = '/cms-content/calendar';
const ASSET_FILES: Record<string, string> = {
  'calendar.css': 'text/css; charset=utf-8',
  'view-manager.js': 'text/javascript; charset=utf-8',
  // The single event, venue and organizer pages' own rules (./calendar-single.ts), after calendar.css.
  'single.css': 'text/css; charset=utf-8',
};
/** Versioned asset URLs never change; an unversioned request is kept for an hour. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const UNVERSIONED = 'public, max-age=3600';
/** The page holds a visitor's view nonce (valid 12 to 24 hours): shared caches may keep it briefly. */
export const PAGE_CACHE = 'public, max-age=60';

export interface Asset {
  body: Buffer;
  type: string;
  hash: string;
}

/** The asset folder: beside this module (source, or the compiled build with its copied files), else the source tree. */
function assetsDir(): string {
  const candidates = [join(__dirname, 'calendar-assets'), resolve(__dirname, '../../../services/gateway/calendar-assets')];
  const found = candidates.find((d) => existsSync(join(d, 'calendar.css')));
  if (!found) throw new Error(`calendar assets not found (looked in ${candidates.join(', ')})`);
  return found;
}

export function loadAssets(): Map<string, Asset> {
  const dir = assetsDir();
  const out = new Map<string, Asset>();
  for (const [name, type] of Object.entries(ASSET_FILES)) {
    const body = readFileSync(join(dir, name));
    out.set(name, { body, type, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return out;
}

export interface CalendarPageOptions {
  site: Site;
  rest: RestServer;
  nonces: Nonces;
}

/** What the view says of itself (the view data script of the fragment). */
function viewData(html: string): { title?: string; url?: string; head?: string } {
  const m = /<script data-js="tribe-events-view-data" type="application\/json">(.*?)<\/script>/.exec(html);
  if (!m) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(m[1]);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  return {
    ...(typeof parsed.title === 'string' ? { title: parsed.title } : {}),
    ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
    // The head links the view asks for (its iCalendar feed as an alternate), written by the calendar's shell.
    ...(typeof parsed.head === 'string' && /^(<link [^<>]*>)*$/.test(parsed.head) ? { head: parsed.head } : {}),
  };
}

function document(site: Site, assets: Map<string, Asset>, fragment: string, status: number): string {
  const data = viewData(fragment);
  const suffix = ` – Events – ${site.name}`;
  const title = (data.title ?? 'Events') + suffix;
  const asset = (name: string) => `${CALENDAR_ASSETS_PATH}/${name}?v=${assets.get(name)!.hash}`;
  const description = site.description ? `<meta name="description" content="${esc(`Events at ${site.name}: ${site.description}`)}">` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(title)}</title>${description}<link rel="icon" href="data:,">` +
    (data.url && status === 200 ? `<link rel="canonical" href="${esc(data.url)}">` : '') +
    (data.head ?? `<link rel="alternate" type="text/calendar" href="${esc(site.home)}${CALENDAR_PATH}/?ical=1">`) +
    `<link rel="stylesheet" href="${asset('calendar.css')}">` +
    `<script src="${asset('view-manager.js')}" defer></script>` +
    `</head><body class="calendar-page">` +
    `<a class="calendar-skip-link" href="#calendar-main">Skip to the calendar</a>` +
    `<header class="calendar-site-header"><div class="calendar-container"><a class="calendar-site-name" href="${esc(site.home)}/">${esc(site.name)}</a>` +
    (site.description ? `<p class="calendar-site-description">${esc(site.description)}</p>` : '') +
    `</div></header>` +
    `<main id="calendar-main" class="calendar-container calendar-main" tabindex="-1">` +
    `<h1 class="calendar-page-title">Events</h1>` +
    `<div class="calendar-view" data-calendar-view data-title-suffix="${esc(suffix)}" data-rest-url="${esc(restUrl(site, '/vendor/views/v2/html'))}">${fragment}</div>` +
    `<p class="tribe-common-a11y-visual-hide" role="status" data-calendar-status></p>` +
    `</main>` +
    `<footer class="calendar-site-footer"><div class="calendar-container"><p>${esc(site.name)} · <a href="${esc(site.home)}${CALENDAR_PATH}/list/">Upcoming events</a></p></div></footer>` +
    `</body></html>`
  );
}

function serveAsset(ctx: Koa.Context, assets: Map<string, Asset>): boolean {
  const asset = assets.get(ctx.path.slice(CALENDAR_ASSETS_PATH.length + 1));
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (!asset) {
    ctx.status = 404;
    ctx.type = 'text/plain; charset=UTF-8';
    ctx.body = 'Not Found';
    return true;
  }
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.status = 405;
    ctx.set('Allow', 'GET, HEAD');
    return true;
  }
  const etag = `"${asset.hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', ctx.query.v === asset.hash ? IMMUTABLE : UNVERSIONED);
  if (notModified(ctx, etag)) {
    ctx.status = 304;
    return true;
  }
  ctx.type = asset.type;
  // Koa answers HEAD with the body's headers and no body.
  ctx.body = asset.body;
  return true;
}

/** Serves the calendar page and its assets; false when the path is neither. */
export function calendarPage(opts: CalendarPageOptions): (ctx: Koa.Context) => Promise<boolean> {
  const { site, rest, nonces } = opts;
  const assets = loadAssets();
  const siteOrigin = new URL(site.url).origin;
  return async (ctx) => {
    if (ctx.path.startsWith(`${CALENDAR_ASSETS_PATH}/`)) return serveAsset(ctx, assets);
    // The tag archive the REST answers link an event's tags to (`/tag/{slug}/`): the site's only
    // archive is the calendar, so it shows the calendar filtered by the tag (a temporary redirect: the
    // address stays the tag's).
    const tag = /^\/tag\/([a-z0-9_%-]+)\/?$/i.exec(ctx.path);
    if (tag && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.redirect(`${CALENDAR_PATH}/tag/${tag[1]}/`);
      return true;
    }
    if (ctx.path !== CALENDAR_PATH && !ctx.path.startsWith(`${CALENDAR_PATH}/`)) return false;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return true;
    }
    if (ctx.path === CALENDAR_PATH) {
      ctx.status = 301;
      ctx.redirect(`${CALENDAR_PATH}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return true;
    }
    // The view is asked for as a visitor, whoever is calling: the page shows public events only.
    const u = `${site.home}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`;
    const out = await rest.handle({
      method: 'GET',
      path: '/vendor/views/v2/html',
      query: { u, tvn1: nonces.create(VIEW_NONCE_ACTION, 0) },
      bodyType: 'none',
      headers: {},
      user: null,
      requestId: stateString(ctx, 'requestId'),
    });
    ctx.state.route = `${CALENDAR_PATH}/`;
    // A view of a category, tag, venue or organizer that does not exist answers 404 with its own message.
    const ok = (out.status === 200 || out.status === 404) && !!out.raw;
    const fragment = ok
      ? out.raw!.text
      : `<div class="tribe-events-c-messages"><div class="tribe-events-c-messages__message tribe-events-c-messages__message--error" role="alert"><p>The calendar could not be loaded. Please try again in a moment.</p></div></div>`;
    // The view's own failure status (a 503 with its Retry-After while a store is down), 500 if it answered no HTML.
    ctx.status = ok ? out.status : out.status === 200 ? 500 : out.status;
    for (const [k, v] of Object.entries(retryAfterHeader(out.status, out.body))) ctx.set(k, v);
    ctx.type = 'text/html; charset=UTF-8';
    ctx.set('Cache-Control', ok && out.status === 200 ? PAGE_CACHE : 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data:; connect-src 'self' ${siteOrigin}; base-uri 'self'; form-action 'self'; frame-ancestors 'self'`,
    );
    ctx.set('Link', `<${site.restRoot}>; rel="https://api.w.org/"`);
    ctx.body = document(site, assets, fragment, ctx.status);
    return true;
  };
}
