/** The site's own pages outside the REST root: their metrics label, the home page, and the label dropped where no page answered. */
import type Koa from 'koa';
import { escapeHtml } from '../../../libs/html/escape';
import type { Site } from '../../../libs/rest/site';

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

/** The site home (`/`, `/index.php`): the site's name and a link to the REST root. */
export function homePage(site: Site): (ctx: Koa.Context) => Promise<boolean> {
  return async (ctx) => {
    if (!isHome(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    ctx.set('Link', `<${site.restRoot}>; rel="https://api.w.org/"`);
    ctx.type = 'text/html; charset=UTF-8';
    ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(site.name)}</title><link rel="https://api.w.org/" href="${escapeHtml(site.restRoot)}"></head><body><h1>${escapeHtml(site.name)}</h1><p>${escapeHtml(site.description)}</p><p>REST API: <a href="${escapeHtml(site.restRoot)}">${escapeHtml(site.restRoot)}</a></p></body></html>`;
    return true;
  };
}
