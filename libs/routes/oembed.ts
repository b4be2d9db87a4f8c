/**
 * oembed/1.0 (reference: WP_oEmbed_Controller::register_routes). The embed route's `format` and
 * `maxwidth` carry no type, as in the reference: any format other than xml reads as json, and maxwidth
 * goes through absint. The proxy declares its types and enum, so they are validated.
 */
import { escUrlRaw } from '../html/esc-url';
import { endpoint } from '../rest/params';
import type { ArgDecl, RouteRegistry } from '../rest/registry';

export const OEMBED_NS = 'oembed/1.0';
/** The interface's default (and the reference's largest) embed width. */
export const DEFAULT_MAX_WIDTH = 600;

/** PHP's (int) cast of a request value: a leading integer of a string, 0 when there is none. */
function phpInt(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const m = /^\s*([+-]?\d+)/.exec(value);
    return m ? Number(m[1]) : 0;
  }
  if (Array.isArray(value)) return value.length ? 1 : 0;
  return 0;
}

/** The reference's absint. */
export const absint = (value: unknown): number => Math.abs(phpInt(value));

/** wp_oembed_ensure_format: json unless xml was asked for. */
export const ensureFormat = (value: unknown): 'json' | 'xml' => (value === 'xml' ? 'xml' : 'json');

/** sanitize_url (esc_url_raw) of a request value; anything but a string is ''. */
export const sanitizeUrl = (value: unknown): string => (typeof value === 'string' ? escUrlRaw(value) : '');

const urlArg = () =>
  ({
    description: 'The URL of the resource for which to fetch oEmbed data.',
    required: true,
    type: 'string',
    format: 'uri',
    sanitize: sanitizeUrl,
  }) satisfies ArgDecl;

/** The embed and proxy endpoints, constants the oEmbed service binds to. */
export const OEMBED_ENDPOINTS = {
  embed: endpoint({
    id: 'oembed.embed',
    service: 'oembed',
    methods: ['GET'],
    args: {
      url: urlArg(),
      format: { default: 'json', sanitize: ensureFormat },
      maxwidth: { default: DEFAULT_MAX_WIDTH, sanitize: absint },
    },
  }),
  proxy: endpoint({
    id: 'oembed.proxy',
    service: 'oembed',
    methods: ['GET'],
    args: {
      url: urlArg(),
      format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'] },
      maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: DEFAULT_MAX_WIDTH, sanitize: absint },
      maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer', sanitize: absint },
      discover: { description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true },
    },
  }),
};

export function registerOembedRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: OEMBED_NS, pattern: `/${OEMBED_NS}/embed`, endpoints: [OEMBED_ENDPOINTS.embed] });
  registry.add({ namespace: OEMBED_NS, pattern: `/${OEMBED_NS}/proxy`, endpoints: [OEMBED_ENDPOINTS.proxy] });
}
