/**
 * The outermost middleware: gives each request its id, turns what escaped the rest into the error
 * envelope (never a bare 500), and counts and logs every request under its route label.
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { stateNumber, stateString } from '#libs/http/koa-state';
import { logRequest, logger } from '#libs/observability/logger';
import { observeRequest } from '#libs/observability/metrics';
import { asRestError, retryAfterHeader } from '#libs/rest/errors';

export function requestLog(): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = (ctx.get('X-Request-Id') || randomUUID()).slice(0, 128);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      logger.error({ err: e, requestId }, 'request failed');
      const err = asRestError(e);
      ctx.state.errorCode = err.code;
      ctx.status = err.status;
      for (const [k, v] of Object.entries(retryAfterHeader(err.status, err.toJSON()))) ctx.set(k, v);
      ctx.type = 'application/json; charset=UTF-8';
      ctx.body = JSON.stringify(err.toJSON());
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // A route pattern or a fixed name, never the raw path, so the metrics' series stay bounded.
      const route = stateString(ctx, 'route') ?? 'other';
      observeRequest(ctx.method, route, ctx.status, seconds);
      const code = stateString(ctx, 'errorCode');
      logRequest({
        requestId,
        method: ctx.method,
        path: ctx.path,
        route,
        status: ctx.status,
        ...(code ? { code } : {}),
        ms: Math.round(seconds * 1e4) / 10,
        user: stateNumber(ctx, 'userId') ?? null,
      });
    }
  };
}
