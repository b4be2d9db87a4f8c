/**
 * The HTTP host of a service process in cluster mode (and of a worker's health endpoints): a signed
 * dispatch endpoint in front of one ServiceApp, plus /healthz, /readyz and /metrics.
 */
import Koa from 'koa';
import { decodeUpload, DISPATCH_PATH, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from '#libs/rest/remote';
import type { ServiceApp, ServiceRequest } from '#libs/rest/service';
import { asRestError, errors } from '#libs/rest/errors';
import { logger } from '#libs/observability/logger';
import { observeRequest } from '#libs/observability/metrics';
import { opsEndpoints } from '#libs/http/ops';
import { stateString } from '#libs/http/koa-state';
import { readBody } from '#libs/http/read-body';

export interface HostOptions {
  service?: ServiceApp;
  secret?: string;
  maxBodyBytes: number;
  ready: () => Promise<void>;
}

export function createServiceHost(opts: HostOptions): Koa {
  const app = new Koa();
  app.use(opsEndpoints(opts.ready));
  app.use(async (ctx) => {
    const started = process.hrtime.bigint();
    try {
      if (ctx.path !== DISPATCH_PATH || ctx.method !== 'POST' || !opts.service || !opts.secret) {
        ctx.status = 404;
        ctx.body = errors.noRoute().toJSON();
        return;
      }
      // The envelope around a request body adds a little; allow for it.
      const raw = (await readBody(ctx.req, opts.maxBodyBytes * 2 + 65536)).toString('utf8');
      if (!verifySignature(opts.secret, ctx.get(TIMESTAMP_HEADER), ctx.get(SIGNATURE_HEADER), raw)) {
        ctx.status = 401;
        ctx.body = { code: 'rest_service_signature', message: 'The request was not signed by the gateway.', data: { status: 401 } };
        return;
      }
      // Signed by the gateway (checked above): the request it encoded, with the upload's bytes in base64.
      const wire: Omit<ServiceRequest, 'upload'> & { upload?: Parameters<typeof decodeUpload>[0] } = JSON.parse(raw);
      const { upload, ...rest } = wire;
      const req: ServiceRequest = upload ? { ...rest, upload: decodeUpload(upload) } : rest;
      const res = await opts.service.dispatch(req);
      ctx.state.route = req.endpoint;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(res);
    } catch (e) {
      const err = asRestError(e);
      if (err.status >= 500) logger.error({ err: e }, 'service host failed');
      ctx.status = err.status;
      ctx.body = err.toJSON();
    } finally {
      // The endpoint id once the request is read; a fixed name before that (never the raw path, which
      // would make a series per path asked for).
      const route = stateString(ctx, 'route') ?? (ctx.path === DISPATCH_PATH ? DISPATCH_PATH : 'other');
      observeRequest(ctx.method, route, ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
    }
  });
  return app;
}
