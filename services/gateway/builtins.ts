/** What the gateway answers itself: the site index, namespace indexes, the batch executor and cms-abilities/v1. */
import { RestError, unavailableFor } from '../../libs/rest/errors';
import { namespaceIndex, siteIndex } from '../../libs/rest/index-doc';
import type { BatchJob } from '../../libs/rest/batch';
import type { RestServer } from '../../libs/rest/server';
import type { JobQueue } from '../../libs/queue/types';
import { QueueTimeoutError } from '../../libs/queue/types';
import { logger } from '../../libs/observability/logger';
import { BATCH_ENDPOINT, SITE_INDEX_ENDPOINT } from '../../libs/routes/site';
import { registerAbilities } from './abilities/handlers';

export function registerBuiltins(server: RestServer, queue: JobQueue, batchTimeoutMs: number): void {
  registerAbilities(server);

  // The index's `context` is declared without a type (as in the reference): it arrives as sent.
  server.builtin(SITE_INDEX_ENDPOINT, async ({ params }) => ({
    status: 200,
    headers: {},
    body: siteIndex(server.registry, server.site, String(params.context ?? 'view')),
  }));

  // Each namespace's index endpoint is declared by the registry itself (RouteRegistry.namespace), one per namespace.
  server.namespaceIndex(async ({ params, route }) => ({
    status: 200,
    headers: {},
    body: namespaceIndex(server.registry, server.site, route.namespace, String(params.context ?? 'view')),
  }));

  server.builtin(BATCH_ENDPOINT, async ({ params, input }) => {
    // The requests were validated against the items' declared properties (path a string, method one of
    // the enum, body and headers objects), but a declaration's type derives objects as records, not
    // property by property: they are read as the batch executor takes them.
    const sent: Readonly<Record<string, unknown>> = params;
    const job: BatchJob = {
      validation: params.validation,
      requests: sent.requests as BatchJob['requests'],
      user: input.user,
      requestId: input.requestId ?? 'batch',
    };
    try {
      const result = await queue.run('batch.run', job, { timeoutMs: batchTimeoutMs });
      return { status: 207, headers: {}, body: result };
    } catch (e) {
      if (e instanceof QueueTimeoutError) {
        return {
          status: 504,
          headers: {},
          body: new RestError('rest_batch_timeout', 'The batch did not finish in time; its requests may still complete.', 504).toJSON(),
        };
      }
      const down = unavailableFor(e);
      if (down) {
        logger.warn({ err: e }, 'batch not queued');
        return { status: down.status, headers: {}, body: down.toJSON() };
      }
      logger.error({ err: e }, 'batch failed');
      return { status: 500, headers: {}, body: new RestError('rest_batch_failed', 'The batch could not be run.', 500).toJSON() };
    }
  });
}
