/** The site's own pages outside the REST root: their metrics label, the home page, and the label dropped where no page answered. */
import type Koa from 'koa';
import { escapeHtml } from '#libs/html/escape';
import type { Site } from '#libs/rest/site';

const isHome = (path: string): boolean => path === '/' || path === '/index.php';

/**
 * The metrics and log label of a path outside the REST root that the site answers: a fixed name per
 * area (`/cms-content/uploads/*`, `/cms-admin/*`, `home`), never the path itself, so the number of
 * series stays bounded.
 */
function sitePathLabel(path: string): string {
  if (isHome(path)) return 'home';
  const parts = path.split('/').filter(Boolean);
  return `/${parts.slice(0, parts[0] === 'cms-content' ? 2 : 1).join('/')}/*`;
}

/** Labels a site request by its area; a path no page answers is labelled `other` (see unanswered). */
export const labelSitePath: Koa.Middleware = (ctx, next) => {
  ctx.state.route = sitePathLabel(ctx.path);
  return next();
};

/** The last of the site's pages: nothing answered, so the request is not labelled by an area. */
export const unanswered: Koa.Middleware = (ctx, next) => {
  ctx.state.route = undefined;
  return next();
};

/** The site home (`/`, `/index.php`): the site's name, links to the calendar and the REST root, in the calendar's style. */
export function homePage(site: Site): (ctx: Koa.Context) => Promise<boolean> {
  return async (ctx) => {
    if (!isHome(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    ctx.set('Link', `<${site.restRoot}>; rel="https://api.w.org/"`);
    ctx.type = 'text/html; charset=UTF-8';
    const name = escapeHtml(site.name);
    const events = escapeHtml(`${site.home}/events/`);
    ctx.body =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${name}</title>` +
      `<link rel="https://api.w.org/" href="${escapeHtml(site.restRoot)}"><link rel="alternate" type="text/calendar" href="${events}?ical=1">` +
      `<link rel="stylesheet" href="/cms-content/calendar/calendar.css"></head><body class="calendar-page">` +
      `<header class="calendar-site-header"><div class="calendar-container"><a class="calendar-site-name" href="${escapeHtml(site.home)}/">${name}</a></div></header>` +
      `<main class="calendar-container calendar-main"><h1 class="calendar-page-title">${name}</h1>${site.description ? `<p>${escapeHtml(site.description)}</p>` : ''}` +
      `<ul><li><a href="${events}">Events calendar</a></li><li>REST API: <a href="${escapeHtml(site.restRoot)}">${escapeHtml(site.restRoot)}</a></li></ul></main></body></html>`;
    return true;
  };
}
