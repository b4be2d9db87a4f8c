/**
 * vendor/views/v2 (reference: Tribe\Events\Views\V2\Rest_Endpoint) and ec/v2/onboarding (reference:
 * TEC\Events\Admin\Onboarding\API), both answered by the calendar service. The view route's nonces are
 * checked as its permission, the wizard's nonce as a parameter check that needs the caller (in the
 * service, before the permission), as the reference does.
 */
import { endpoint } from '../rest/params';
import type { RouteRegistry } from '../rest/registry';

export const VIEWS_NS = 'vendor/views/v2';
export const ONBOARDING_NS = 'ec/v2/onboarding';

/** The rendered calendar view (the calendar service binds its handler to this constant). */
export const VIEWS_HTML_ENDPOINT = endpoint({
  id: 'views.html',
  service: 'calendar',
  methods: ['GET', 'POST'],
  args: {
    u: { description: 'The URL of the view to render; its query carries the view filters.', type: 'string', required: true },
    view: { description: 'The slug of the view to render (list, month or day).', type: 'string' },
    tvn1: { description: 'The view nonce of the current user.', type: 'string' },
    tvn2: { description: 'The view nonce of a visitor who is not logged in.', type: 'string' },
    view_data: { description: 'View filters that override those of the URL.', type: 'object', properties: {}, additionalProperties: true },
    action: { description: 'The action of the fallback request (unused).', type: 'string' },
  },
});

/** The answer of vendor/views/v2/page: what the site's page prints around and in its main element. */
export interface PageAnswer {
  /** The record's id. */
  id: number;
  /** The page's title, plain text. */
  title: string;
  /** The page's own (canonical) address. */
  url: string;
  /** What goes in the document head besides the shared stylesheet (the JSON-LD). */
  head: string;
  /** The content of the main element. */
  html: string;
  /** Whether guests may keep the page in shared caches (false for what only the caller may read). */
  public: boolean;
}

/**
 * A single event, venue or organizer page (the reference's single templates at `/event/{slug}/`,
 * `/venue/{slug}/`, `/organizer/{slug}/` and `/?post_type=...&p={id}`), rendered for the caller as the
 * page's title, canonical address, head and main content. The site's page of that address asks for it;
 * the route is left out of the index.
 */
export const VIEWS_PAGE_ENDPOINT = endpoint({
  id: 'views.page',
  service: 'calendar',
  methods: ['GET'],
  args: {
    type: { description: 'What the page shows.', type: 'string', enum: ['event', 'venue', 'organizer'], required: true },
    slug: { description: 'The slug of the record the page shows.', type: 'string', maxLength: 200 },
    id: { description: 'The id of the record the page shows, when the address names it by id.', type: 'integer', minimum: 1 },
  },
});

/** A step of the onboarding wizard (the calendar service binds its handler to this constant). */
export const ONBOARDING_WIZARD_ENDPOINT = endpoint({
  id: 'onboarding.wizard',
  service: 'calendar',
  methods: ['POST'],
  args: {
    action_nonce: { description: 'The action nonce for the request.', type: 'string', required: true },
  },
});

export function registerViewsRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: VIEWS_NS, pattern: `/${VIEWS_NS}/html`, endpoints: [VIEWS_HTML_ENDPOINT] });
  registry.add({ namespace: VIEWS_NS, pattern: `/${VIEWS_NS}/page`, hidden: true, endpoints: [VIEWS_PAGE_ENDPOINT] });
}

export function registerOnboardingRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: ONBOARDING_NS, pattern: `/${ONBOARDING_NS}/wizard`, endpoints: [ONBOARDING_WIZARD_ENDPOINT] });
}
