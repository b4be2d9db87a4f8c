/**
 * The whole route registry of the service, in the order the site index lists it: the built-in routes,
 * then each namespace in the interface's order. Every process builds the same registry.
 */
import { RouteRegistry, type Edition } from '../rest/registry';
import { registerAggregatorRoutes } from './aggregator/import';
import { registerSourceRoutes } from './aggregator/sources';
import { registerAbilitiesRoutes } from './cms-abilities';
import { registerBlockEditorRoutes } from './cms-block-editor';
import { registerSiteHealthRoutes } from './cms-site-health';
import { registerOnboardingRoutes, registerViewsRoutes } from './calendar-views';
import { registerCommentRoutes } from './cms/comments';
import { registerMediaRoutes } from './cms/media';
import { registerEventTypeRoutes, registerPostRoutes } from './cms/posts';
import { registerTermRoutes } from './cms/terms';
import { registerUserRoutes } from './cms/users';
import { registerDiscoveryRoutes } from './cms/discovery';
import { registerSearchRoutes } from './cms/search';
import { registerSettingsRoutes } from './cms/settings';
import { registerEcRoutes } from './ec';
import { registerOembedRoutes } from './oembed';
import { registerSiteRoutes } from './site';
import { registerVendorEventsRoutes } from './vendor-events';

/** Namespaces in the order the site index lists them. */
export const NAMESPACE_ORDER = [
  'oembed/1.0',
  'vendor/event-aggregator/v1',
  'vendor/events/v1',
  'vendor/views/v2',
  'ec/v2/onboarding',
  'ec/v1',
  'cms/v2',
  'cms-site-health/v1',
  'cms-block-editor/v1',
  'cms-abilities/v1',
];

/** Each namespace's route declarations; a namespace without routes yet is listed but has no root. */
const NAMESPACE_ROUTES: Record<string, Array<(r: RouteRegistry) => void>> = {
  'oembed/1.0': [registerOembedRoutes],
  'vendor/event-aggregator/v1': [registerAggregatorRoutes, registerSourceRoutes],
  'vendor/events/v1': [registerVendorEventsRoutes],
  'vendor/views/v2': [registerViewsRoutes],
  'ec/v2/onboarding': [registerOnboardingRoutes],
  'ec/v1': [registerEcRoutes],
  // cms/v2 in the reference's registration order: post types' routes (posts, pages, media, then the calendar's
  // events, shown to managers in both editions as the free calendar registers them), types, statuses,
  // taxonomies, terms of each taxonomy, users, comments, search, settings.
  'cms/v2': [
    registerPostRoutes,
    registerMediaRoutes,
    registerEventTypeRoutes,
    registerDiscoveryRoutes,
    registerTermRoutes,
    registerUserRoutes,
    registerCommentRoutes,
    registerSearchRoutes,
    registerSettingsRoutes,
  ],
  'cms-site-health/v1': [registerSiteHealthRoutes],
  'cms-block-editor/v1': [registerBlockEditorRoutes],
  'cms-abilities/v1': [registerAbilitiesRoutes],
};

const cached = new Map<Edition, RouteRegistry>();

export function buildRegistry(edition: Edition = 'free'): RouteRegistry {
  const registry = new RouteRegistry(edition);
  registerSiteRoutes(registry);
  for (const ns of NAMESPACE_ORDER) {
    const modules = NAMESPACE_ROUTES[ns];
    if (modules?.length) for (const register of modules) register(registry);
    else if (ns.startsWith('cms-')) registry.namespace(ns);
  }
  return registry;
}

/** The process-wide registry of an edition (built once). */
export function registry(edition: Edition = 'free'): RouteRegistry {
  let built = cached.get(edition);
  if (!built) cached.set(edition, (built = buildRegistry(edition)));
  return built;
}
