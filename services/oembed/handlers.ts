/**
 * oembed/1.0 embed and proxy (reference: WP_oEmbed_Controller get_item, get_proxy_item and
 * get_proxy_item_permissions_check). Both answer JSON, or XML for `format=xml`.
 */
import { can } from '#libs/auth/user';
import { logger } from '#libs/observability/logger';
import { onSite } from '#libs/posts/permalink';
import { JobFailedError, QueueTimeoutError } from '#libs/queue/types';
import { RestError, errors } from '#libs/rest/errors';
import type { Reply, ServiceApp } from '#libs/rest/service';
import { OEMBED_ENDPOINTS as EPS } from '#libs/routes/oembed';
import { cacheKey, type LookupParams } from './cache';
import type { FetchResult } from './fetch-job';
import { localEmbed, type OembedData } from './embed';
import type { OembedDeps } from './index';
import { REQUEST_TIMEOUT_MS } from './provider';
import { xmlBody } from './xml';

declare module '../../libs/queue/types' {
  interface JobPayloads {
    /** One proxy lookup of another site (fetch-job.ts), which checks the data again: it arrives as parsed JSON. */
    'oembed.fetch': { data: LookupParams; result: FetchResult };
  }
}

export const notFound = () => new RestError('oembed_invalid_url', 'Not Found', 404);

/** Attempts of a fetch job, and how long the proxy waits for it: two requests per attempt, plus time in the queue. */
const FETCH_ATTEMPTS = 2;
const FETCH_WAIT_MS = FETCH_ATTEMPTS * 2 * REQUEST_TIMEOUT_MS + 10_000;

function reply(data: OembedData, format: 'json' | 'xml'): Reply {
  return format === 'xml' ? { body: data, raw: xmlBody(data) } : { body: data };
}

export function bindOembed(app: ServiceApp, deps: OembedDeps): void {
  app.bind(EPS.embed, {
    async handle(ctx) {
      const data = await localEmbed(deps, ctx.input.url, ctx.input.maxwidth);
      if (!data) throw notFound();
      return reply(data, ctx.input.format);
    },
  });

  app.bind(EPS.proxy, {
    async permission(ctx) {
      return can(ctx.user, 'edit_posts') ? true : errors.forbidden(ctx.user, 'Sorry, you are not allowed to make proxied oEmbed requests.');
    },
    async handle(ctx) {
      const p = ctx.input;
      const lookup: LookupParams = {
        url: p.url,
        maxwidth: p.maxwidth,
        ...(p.maxheight != null ? { maxheight: p.maxheight } : {}),
        discover: p.discover,
      };
      const cached = await deps.cache.get(cacheKey(lookup));
      if (cached) return reply(cached, p.format);
      // An address of this site is answered from its own records, never fetched.
      if (onSite(deps.site, lookup.url)) {
        const local = await localEmbed(deps, lookup.url, lookup.maxwidth);
        if (!local) throw notFound();
        return reply(local, p.format);
      }
      let result: FetchResult;
      try {
        result = await deps.queue().run('oembed.fetch', lookup, { attempts: FETCH_ATTEMPTS, timeoutMs: FETCH_WAIT_MS });
      } catch (e) {
        // A lookup that failed for good is the reference's "not found"; a queue that cannot take or finish the job is unavailable.
        if (e instanceof JobFailedError) throw notFound();
        if (!(e instanceof QueueTimeoutError)) logger.error({ err: e, requestId: ctx.req.requestId }, 'oEmbed lookup could not be queued');
        throw errors.unavailable('The oEmbed lookup');
      }
      if (!result?.data) throw notFound();
      return reply(result.data, p.format);
    },
  });
}
