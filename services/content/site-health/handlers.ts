/**
 * cms-site-health/v1 handlers (reference: WP_REST_Site_Health_Controller): every route needs the
 * `view_site_health_checks` capability (administrators), otherwise rest_forbidden, 401 for a guest
 * and 403 for a signed-in user.
 */
import { can } from '#libs/auth/user';
import { RestError } from '#libs/rest/errors';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { DIRECTORY_SIZES_ENDPOINT, SITE_HEALTH_TESTS, SITE_HEALTH_TEST_ENDPOINTS, type SiteHealthTest } from '#libs/routes/cms-site-health';
import { authorizationHeader, diskCheck, directorySizes, httpsStatus, queuesCheck, storeCheck, type HealthDeps, type HealthResult } from './checks';

const permission = async (ctx: HandlerContext) => can(ctx.user, 'view_site_health_checks');

export function bindSiteHealth(app: ServiceApp, deps: HealthDeps): void {
  const tests: Record<SiteHealthTest, (ctx: HandlerContext) => Promise<HealthResult> | HealthResult> = {
    'https-status': () => httpsStatus(deps.site),
    'authorization-header': (ctx) => authorizationHeader(ctx.user),
    store: () => storeCheck(deps),
    queues: () => queuesCheck(deps),
    'disk-space': () => diskCheck(deps),
  };
  for (const test of SITE_HEALTH_TESTS) {
    const run = tests[test];
    app.bind(SITE_HEALTH_TEST_ENDPOINTS[test], { permission, handle: async (ctx) => ({ body: await run(ctx) }) });
  }
  app.bind(DIRECTORY_SIZES_ENDPOINT, {
    permission,
    async handle() {
      const sizes = await directorySizes(deps);
      if (!sizes) throw new RestError('not_available', 'Directory sizes could not be returned.', 500);
      return { body: sizes };
    },
  });
}
