/**
 * cms-block-editor/v1/url-details (reference: WP_REST_URL_Details_Controller): fetches a page
 * through the one outbound guard (libs/net/outbound) and reads its title, icon, description and
 * Open Graph image from the head. Good answers are kept for an hour, in memory and bounded.
 */
import { createHash } from 'node:crypto';
import { CAPABILITY_TYPES } from '#libs/auth/roles';
import { can } from '#libs/auth/user';
import { stripAllTags } from '#libs/posts/render';
import { RefusedError, checkUrl, guardedGet, outboundPolicy, type FetchPolicy } from '#libs/net/outbound';
import { RestError, authStatus, invalidParams } from '#libs/rest/errors';
import type { ServiceApp } from '#libs/rest/service';
import type { Site } from '#libs/rest/site';
import { URL_DETAILS_ENDPOINT } from '#libs/routes/cms-block-editor';
import { decodeEntities } from '#libs/html/escape';
import { TooDeepError, attributeOf, elementsOf, parseHtmlDocument, textOf, type HtmlDocument } from '#libs/html/parse';

/** The reference's limit_response_size, and its transient's lifetime. */
export const URL_DETAILS_MAX_BYTES = 150 * 1024;
export const URL_DETAILS_TTL_MS = 3600 * 1000;
export const URL_DETAILS_CACHE_ENTRIES = 500;
const TIMEOUT_MS = 5000;
const MAX_REDIRECTS = 5;

export interface UrlDetails {
  title: string;
  icon: string;
  description: string;
  image: string;
}

export function urlDetailsPolicy(allowHosts: readonly string[]): FetchPolicy {
  return outboundPolicy(allowHosts, { timeoutMs: TIMEOUT_MS, maxBytes: URL_DETAILS_MAX_BYTES, maxRedirects: MAX_REDIRECTS });
}

/** prepare_metadata_for_output: entities decoded (again), tags stripped. */
const prepare = (value: string) => stripAllTags(decodeEntities(value));

/** A link of the page made absolute against the site's root, as the reference does; data: URLs stay. */
function absolute(href: string, pageUrl: string): string {
  if (/^data:/i.test(href)) return href;
  try {
    const root = new URL(pageUrl);
    return new URL(href, `${root.protocol}//${root.host}/`).href;
  } catch {
    return href;
  }
}

/** The page parsed; one nested too deeply to read is read as empty. */
function readPage(html: string): HtmlDocument {
  try {
    return parseHtmlDocument(html);
  } catch (e) {
    if (e instanceof TooDeepError) return parseHtmlDocument('');
    throw e;
  }
}

/** find_head_information: the first of each, read from the page's head. */
export function findHeadInformation(html: string, pageUrl: string): UrlDetails {
  let title: string | undefined;
  let icon: string | undefined;
  let description: string | undefined;
  let image: string | undefined;
  const head = [...elementsOf(readPage(html), new Set(['body']))].find((el) => el.tagName === 'head');
  for (const el of head ? elementsOf(head) : []) {
    if (title !== undefined && icon !== undefined && description !== undefined && image !== undefined) break;
    if (el.tagName === 'title' && title === undefined) {
      title = prepare(textOf(el).trim());
    } else if (el.tagName === 'link' && icon === undefined) {
      const rel = attributeOf(el, 'rel')?.trim();
      const href = attributeOf(el, 'href')?.trim();
      if ((rel === 'icon' || rel === 'icon shortcut' || rel === 'shortcut icon') && href) icon = absolute(href, pageUrl);
    } else if (el.tagName === 'meta') {
      const name = attributeOf(el, 'name')?.trim();
      const content = attributeOf(el, 'content');
      const property = attributeOf(el, 'property')?.trim();
      if (description === undefined && (name === 'og:description' || name === 'description') && content) description = prepare(content.trim());
      else if (image === undefined && (property === 'og:image' || property === 'og:image:url') && content?.trim()) image = absolute(content.trim(), pageUrl);
    }
  }
  return { title: title ?? '', icon: icon ?? '', description: description ?? '', image: image ?? '' };
}

/** An hour-long memory of good answers, oldest dropped first beyond the bound. */
export class UrlDetailsCache {
  private readonly entries = new Map<string, { until: number; data: UrlDetails }>();
  constructor(
    private readonly max = URL_DETAILS_CACHE_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  static key(url: string): string {
    return createHash('md5').update(url).digest('hex');
  }

  get(key: string): UrlDetails | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.data;
  }

  set(key: string, data: UrlDetails): void {
    this.entries.delete(key);
    this.entries.set(key, { until: this.now() + URL_DETAILS_TTL_MS, data });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

const notFound = () => new RestError('no_response', 'URL not found. Response returned a non-200 status code for this URL.', 404);

export function bindUrlDetails(app: ServiceApp, deps: { site: Site; policy: FetchPolicy; cache?: UrlDetailsCache }): void {
  const cache = deps.cache ?? new UrlDetailsCache();
  app.bind(URL_DETAILS_ENDPOINT, {
    async permission(ctx) {
      if (can(ctx.user, 'edit_posts') || CAPABILITY_TYPES.some((t) => can(ctx.user, `edit_${t}s`))) return true;
      return new RestError('rest_cannot_view_url_details', 'Sorry, you are not allowed to process remote URLs.', authStatus(ctx.user));
    },
    async handle(ctx) {
      const url = ctx.input.url.replace(/[/\\]+$/, '');
      if (!url) throw new RestError('rest_invalid_url', 'Invalid URL', 404);
      // The reference's validate_callback (wp_http_validate_url): an address the guard refuses is an invalid parameter.
      try {
        checkUrl(url, deps.policy);
      } catch (e) {
        if (e instanceof RefusedError) throw invalidParams([['url', 'Invalid parameter.']]);
        throw e;
      }
      const key = UrlDetailsCache.key(url);
      const cached = cache.get(key);
      if (cached) return { body: cached };
      let page;
      try {
        page = await guardedGet(url, deps.policy, {
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          truncate: true,
          userAgent: `CMS-URLDetails/1.0 (+${deps.site.url})`,
        });
      } catch {
        // Refused redirects, timeouts and unreachable hosts answer as the reference's failed request: no 200.
        throw notFound();
      }
      if (page.status !== 200) throw notFound();
      if (!page.body) throw new RestError('no_content', 'Unable to retrieve body from response at this URL.', 404);
      const data = findHeadInformation(page.body, url);
      cache.set(key, data);
      return { body: data };
    },
  });
}
