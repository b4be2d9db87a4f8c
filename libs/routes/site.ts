/** Routes the gateway answers itself: the site index and the batch executor. */
import { endpoint } from '../rest/params';
import type { RouteRegistry } from '../rest/registry';

export const MAX_BATCH = 25;

/** The site index (`GET /`); its `context` carries no type, as in the reference. */
export const SITE_INDEX_ENDPOINT = endpoint({ id: 'index.site', service: 'gateway', methods: ['GET'], args: { context: { default: 'view' } } });

/** The batch executor (`POST /batch/v1`). */
export const BATCH_ENDPOINT = endpoint({
  id: 'batch.v1',
  service: 'gateway',
  methods: ['POST'],
  args: {
    validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
    requests: {
      required: true,
      type: 'array',
      maxItems: MAX_BATCH,
      items: {
        type: 'object',
        properties: {
          method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
          path: { type: 'string', required: true },
          body: { type: 'object', properties: {}, additionalProperties: true },
          headers: {
            type: 'object',
            properties: {},
            additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
          },
        },
      },
    },
  },
});

export function registerSiteRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: '', pattern: '/', endpoints: [SITE_INDEX_ENDPOINT] });
  registry.add({ namespace: '', pattern: '/batch/v1', endpoints: [BATCH_ENDPOINT] });
}
