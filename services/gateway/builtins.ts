/** What the gateway answers itself: the site index, namespace indexes, the batch executor and cms-abilities/v1. */
import { asRestError } from '#libs/rest/errors';
import { namespaceIndex, siteIndex } from '#libs/rest/index-doc';
import { logger } from '#libs/observability/logger';
import type { BatchJob } from '#libs/rest/batch';
import type { BatchLedger } from '#libs/rest/batch-ledger';
import type { RestServer } from '#libs/rest/server';
import type { JobQueue } from '#libs/queue/types';
import { BATCH_ENDPOINT, SITE_INDEX_ENDPOINT } from '#libs/routes/site';
import { registerAbilities } from './abilities/handlers';
import { answerBatch } from './batch';

export function registerBuiltins(server: RestServer, queue: JobQueue, batchTimeoutMs: number, ledger: BatchLedger): void {
  registerAbilities(server);

  // The index's `context` is declared without a type (as in the reference): it arrives as sent.
  server.builtin(SITE_INDEX_ENDPOINT, async ({ params, input }) => ({
    status: 200,
    headers: {},
    body: siteIndex(server.registry, server.site, String(params.context ?? 'view'), input.user),
  }));

  // Each namespace's index endpoint is declared by the registry itself (RouteRegistry.namespace), one per namespace.
  server.namespaceIndex(async ({ params, route, input }) => ({
    status: 200,
    headers: {},
    body: namespaceIndex(server.registry, server.site, route.namespace, String(params.context ?? 'view'), input.user),
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
      return await answerBatch({ queue, ledger, timeoutMs: batchTimeoutMs }, job, input.headers['idempotency-key']);
    } catch (e) {
      const err = asRestError(e);
      if (err.status >= 500) logger.error({ err: e }, 'batch failed');
      return { status: err.status, headers: {}, body: err.toJSON() };
    }
  });
}
