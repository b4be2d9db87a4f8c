/**
 * Site facts every process shares: its URLs, name and time zone, derived from the configuration and
 * then kept up to date from the stored site settings (libs/settings/site-settings.ts).
 */
import { DateTime } from 'luxon';
import type { Config } from '../config/env';

export const REST_PREFIX = '/index.php/cms-json';
export const ADMIN_PATH = '/cms-admin';

export interface Site {
  name: string;
  description: string;
  /** Base URL without a trailing slash. */
  url: string;
  home: string;
  timezone: string;
  /** REST root with a trailing slash: `${url}/index.php/cms-json/`. */
  restRoot: string;
  authorizeUrl: string;
  /** Front page settings, shown in the site index. */
  showOnFront?: 'posts' | 'page';
  pageOnFront?: number;
  pageForPosts?: number;
  /** Bumped whenever the site settings change, so caches built from the site know they are stale. */
  revision?: number;
}

export function siteFrom(config: Pick<Config, 'SITE_URL' | 'SITE_NAME' | 'SITE_DESCRIPTION' | 'SITE_TIMEZONE'>): Site {
  const url = config.SITE_URL.replace(/\/+$/, '');
  return {
    name: config.SITE_NAME,
    description: config.SITE_DESCRIPTION,
    url,
    home: url,
    timezone: config.SITE_TIMEZONE,
    restRoot: `${url}${REST_PREFIX}/`,
    authorizeUrl: `${url}${ADMIN_PATH}/authorize-application.php`,
  };
}

/** The site's current UTC offset in hours, as the reference prints gmt_offset (a number, e.g. 2 or -4.5). */
export function gmtOffset(site: Site, at: Date = new Date()): number {
  return DateTime.fromJSDate(at, { zone: site.timezone }).offset / 60;
}

/** Absolute URL of a REST path (`/cms/v2/posts`) with an optional query. */
export function restUrl(site: Site, path: string, query?: Record<string, unknown> | URLSearchParams | string): string {
  const base = site.restRoot + path.replace(/^\/+/, '');
  if (query === undefined) return base;
  const qs = typeof query === 'string' ? query : query instanceof URLSearchParams ? query.toString() : encodeQuery(query);
  return qs ? `${base}?${qs}` : base;
}

/** Encodes a parsed query back to a string the way PHP's http_build_query does (a[0]=x for lists). */
export function encodeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((v, i) => add(`${key}[${i}]`, v));
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`);
  };
  for (const [k, v] of Object.entries(query)) add(k, v);
  return parts.join('&');
}
