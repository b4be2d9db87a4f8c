/** What the gateway answers itself: the site index, namespace indexes, the batch executor and cms-abilities/v1. */
import { RestError, unavailableFor } from '../../libs/rest/errors';
import { namespaceIndex, siteIndex } from '../../libs/rest/index-doc';
import type { BatchJob } from '../../libs/rest/batch';
import type { RestServer } from '../../libs/rest/server';
import type { JobQueue } from '../../libs/queue/types';
import { QueueTimeoutError } from '../../libs/queue/types';
import { logger } from '../../libs/observability/logger';
import { registerAbilities } from './abilities/handlers';

export function registerBuiltins(server: RestServer, queue: JobQueue, batchTimeoutMs: number): void {
  registerAbilities(server);

  server.builtin('index.site', async ({ params }) => ({
    status: 200,
    headers: {},
    body: siteIndex(server.registry, server.site, String(params.context ?? 'view')),
  }));

  server.builtin('index.namespace', async ({ params, route }) => ({
    status: 200,
    headers: {},
    body: namespaceIndex(server.registry, server.site, route.namespace, String(params.context ?? 'view')),
  }));

  server.builtin('batch.v1', async ({ params, input }) => {
    const job: BatchJob = {
      validation: params.validation === 'require-all-validate' ? 'require-all-validate' : 'normal',
      requests: params.requests as BatchJob['requests'],
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
