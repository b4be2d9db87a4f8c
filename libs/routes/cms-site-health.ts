/**
 * cms-site-health/v1 (reference: WP_REST_Site_Health_Controller). Only checks that can be real for
 * this service are declared: HTTPS and the Authorization header as the reference runs them, and the
 * service's own dependencies (store, queues, disk space) in the same result shape. The reference's
 * checks of core updates, plugin directory access, loopback and page cache test things this
 * service does not have.
 */
import { endpoint } from '../rest/params';
import type { RouteRegistry } from '../rest/registry';
import { objectSchema } from './common';

export const SITE_HEALTH_NS = 'cms-site-health/v1';

/** Each test's route name, in the order the index lists them. */
export const SITE_HEALTH_TESTS = ['https-status', 'authorization-header', 'store', 'queues', 'disk-space'] as const;
export type SiteHealthTest = (typeof SITE_HEALTH_TESTS)[number];

const testEndpoint = (test: SiteHealthTest) => endpoint({ id: `cms-site-health.tests.${test}`, service: 'content', methods: ['GET'], args: {} });

/** Each test's endpoint: constants the content service binds to. */
export const SITE_HEALTH_TEST_ENDPOINTS: Readonly<Record<SiteHealthTest, ReturnType<typeof testEndpoint>>> = {
  'https-status': testEndpoint('https-status'),
  'authorization-header': testEndpoint('authorization-header'),
  store: testEndpoint('store'),
  queues: testEndpoint('queues'),
  'disk-space': testEndpoint('disk-space'),
};
export const DIRECTORY_SIZES_ENDPOINT = endpoint({ id: 'cms-site-health.directory-sizes', service: 'content', methods: ['GET'], args: {} });

/** The reference's test result schema (get_item_schema), renamed. */
export function siteHealthTestSchema(): Record<string, unknown> {
  return objectSchema('cms-site-health-test', {
    test: { type: 'string', description: 'The name of the test being run.', readonly: true },
    label: { type: 'string', description: 'A label describing the test.', readonly: true },
    status: { type: 'string', description: 'The status of the test.', enum: ['good', 'recommended', 'critical'], readonly: true },
    badge: {
      type: 'object',
      description: 'The category this test is grouped in.',
      properties: {
        label: { type: 'string', readonly: true },
        color: { type: 'string', enum: ['blue', 'orange', 'red', 'green', 'purple', 'gray'], readonly: true },
      },
      readonly: true,
    },
    description: {
      type: 'string',
      description: 'A more descriptive explanation of what the test looks for, and why it is important for the user.',
      readonly: true,
    },
    actions: { type: 'string', description: 'HTML containing an action to direct the user to where they can resolve the issue.', readonly: true },
  });
}

export function registerSiteHealthRoutes(registry: RouteRegistry): void {
  for (const test of SITE_HEALTH_TESTS) {
    registry.add({
      namespace: SITE_HEALTH_NS,
      pattern: `/${SITE_HEALTH_NS}/tests/${test}`,
      endpoints: [SITE_HEALTH_TEST_ENDPOINTS[test]],
      schema: siteHealthTestSchema,
    });
  }
  registry.add({
    namespace: SITE_HEALTH_NS,
    pattern: `/${SITE_HEALTH_NS}/directory-sizes`,
    endpoints: [DIRECTORY_SIZES_ENDPOINT],
  });
}
