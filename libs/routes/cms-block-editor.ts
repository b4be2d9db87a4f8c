/**
 * cms-block-editor/v1 (reference: WP_REST_URL_Details_Controller). Only `url-details` is declared:
 * the reference's `export` (a block theme as a zip) and `navigation-fallback` (a navigation menu
 * post) serve block themes and navigation menus, which this service does not have.
 */
import { endpoint } from '../rest/params';
import type { RouteRegistry } from '../rest/registry';
import { sanitizeUrl } from './oembed';
import { objectSchema } from './common';

export const BLOCK_EDITOR_NS = 'cms-block-editor/v1';

function urlDetailsSchema(): Record<string, unknown> {
  const field = (description: string, format?: string) => ({
    description,
    type: 'string',
    ...(format ? { format } : {}),
    context: ['view', 'edit', 'embed'],
    readonly: true,
  });
  return objectSchema('url-details', {
    title: field('The contents of the <title> element from the URL.'),
    icon: field('The favicon image link of the <link rel="icon"> element from the URL.', 'uri'),
    description: field('The content of the <meta name="description"> element from the URL.'),
    image: field('The Open Graph image link of the <meta property="og:image"> or <meta property="og:image:url"> element from the URL.', 'uri'),
  });
}

/** The url-details endpoint, a constant the content service binds to. */
export const URL_DETAILS_ENDPOINT = endpoint({
  id: 'cms-block-editor.url-details',
  service: 'content',
  methods: ['GET'],
  args: {
    url: { required: true, description: 'The URL to process.', type: 'string', format: 'uri', sanitize: sanitizeUrl },
  },
});

export function registerBlockEditorRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: BLOCK_EDITOR_NS, pattern: `/${BLOCK_EDITOR_NS}/url-details`, endpoints: [URL_DETAILS_ENDPOINT], schema: urlDetailsSchema });
}
