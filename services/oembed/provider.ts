/**
 * Asking another site for its oEmbed data (reference: WP_oEmbed::discover, fetch and data2html):
 * discovery reads the page's `<link rel="alternate" type="application/json+oembed">`, the provider is
 * asked with the frame limits, and the answer's html is made again from its type: a photo or a link is
 * written from its fields, rich and video markup goes through the single-iframe sanitiser.
 */
import type { OembedData } from './embed';
import { escapeHtml } from '#libs/html/escape';
import { isRecord } from '#libs/rest/args';
import { TooDeepError, attributeOf, elementsOf, parseHtmlDocument, type HtmlDocument } from '#libs/html/parse';
import { guardedGet, outboundPolicy, RefusedError, type FetchPolicy } from '#libs/net/outbound';
import { httpUrl, sanitizeEmbedHtml } from './sanitize';
import type { LookupParams } from './cache';

/** How much of a page discovery reads, and of an answer the provider may send (the reference's 150 KB). */
export const MAX_RESPONSE_BYTES = 150 * 1024;
export const REQUEST_TIMEOUT_MS = 5000;
export const MAX_REDIRECTS = 3;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const MAX_FIELDS = 64;

/** A failure worth another attempt (the provider answered 5xx); everything else is final. */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export function fetchPolicy(allowHosts: readonly string[]): FetchPolicy {
  return outboundPolicy(allowHosts, { timeoutMs: REQUEST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES, maxRedirects: MAX_REDIRECTS });
}

function checkStatus(status: number, what: string): void {
  if (status >= 500) throw new ProviderUnavailableError(`${what} answered ${status}`);
  if (status < 200 || status >= 300) throw new RefusedError(`${what} answered ${status}`);
}

/** The JSON oEmbed endpoint a page announces, or null. */
export async function discoverEndpoint(pageUrl: string, policy: FetchPolicy): Promise<string | null> {
  const page = await guardedGet(pageUrl, policy, {
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
    truncate: true,
    userAgent: 'EventsCalendarContentService/oEmbed',
  });
  checkStatus(page.status, 'the page');
  let doc: HtmlDocument;
  try {
    doc = parseHtmlDocument(page.body);
  } catch (e) {
    // A page nested too deeply to read announces nothing.
    if (e instanceof TooDeepError) return null;
    throw e;
  }
  for (const link of elementsOf(doc)) {
    if (link.tagName !== 'link') continue;
    const rel = (attributeOf(link, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attributeOf(link, 'href');
    if (!rel.includes('alternate') || (attributeOf(link, 'type') ?? '').trim().toLowerCase() !== 'application/json+oembed' || !href) continue;
    try {
      return new URL(href.trim(), page.url).href;
    } catch {
      continue;
    }
  }
  return null;
}

/** The provider's answer to the lookup: its JSON object, or RefusedError when it has none. */
export async function fetchFromProvider(endpoint: string, p: LookupParams, policy: FetchPolicy): Promise<Record<string, unknown>> {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    throw new RefusedError('the provider endpoint is not a URL');
  }
  u.searchParams.set('maxwidth', String(p.maxwidth));
  if (p.maxheight !== undefined) u.searchParams.set('maxheight', String(p.maxheight));
  u.searchParams.set('url', p.url);
  u.searchParams.set('dnt', '1');
  u.searchParams.set('format', 'json');
  const res = await guardedGet(u.href, policy, { accept: 'application/json', truncate: false, userAgent: 'EventsCalendarContentService/oEmbed' });
  checkStatus(res.status, 'the provider');
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    throw new RefusedError('the provider answered with something other than JSON');
  }
  if (!isRecord(parsed)) throw new RefusedError('the provider answered with something other than an object');
  return parsed;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): string | null => (typeof v === 'number' || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) ? String(v) : null);

/** The html of an answer, made again from its type (data2html), untrusted markup sanitised. */
export function answerHtml(data: Record<string, unknown>, url: string): string | false {
  const title = str(data.title);
  switch (data.type) {
    case 'photo': {
      const given = str(data.url);
      const src = given && httpUrl(given);
      const width = num(data.width);
      const height = num(data.height);
      const href = httpUrl(url);
      if (!src || !width || !height || !href) return false;
      return `<a href="${escapeHtml(href)}"><img src="${escapeHtml(src)}" alt="${escapeHtml(title ?? '')}" width="${width}" height="${height}" /></a>`;
    }
    case 'video':
    case 'rich': {
      const html = str(data.html);
      return html ? sanitizeEmbedHtml(html) : false;
    }
    case 'link': {
      const href = httpUrl(url);
      return title && href ? `<a href="${escapeHtml(href)}">${escapeHtml(title)}</a>` : false;
    }
    default:
      return false;
  }
}

/** What the proxy answers: the provider's scalar fields, with html made again. */
export function proxyAnswer(data: Record<string, unknown>, url: string): OembedData {
  const out: OembedData = {};
  let kept = 0;
  for (const [k, v] of Object.entries(data)) {
    if (k === 'html' || !FIELD_NAME.test(k) || kept >= MAX_FIELDS) continue;
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) {
      out[k] = v;
      kept++;
    }
  }
  out.html = answerHtml(data, url);
  return out;
}
