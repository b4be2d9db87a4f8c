/**
 * Every request's id, log line and metrics, and the error envelope for what escaped the rest (never a
 * bare 500). The REST front (../rest-front) and the site pages' Koa middleware below both end a request
 * through `requestDone`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { headerOf } from '#libs/http/headers';
import { stateNumber, stateString } from '#libs/http/koa-state';
import { logRequest, logger } from '#libs/observability/logger';
import { observeRequest } from '#libs/observability/metrics';
import { asRestError, retryAfterHeader, type RestError } from '#libs/rest/errors';

/** The request's id: the caller's X-Request-Id (at most 128 characters), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  return (headerOf(req.headers, 'x-request-id') || randomUUID()).slice(0, 128);
}

/** How a request ended, for its log line and metrics. */
export interface Ended {
  requestId: string;
  method: string;
  path: string;
  /** A route pattern or a fixed name, never the raw path, so the metrics' series stay bounded; undefined: `other`. */
  route: string | undefined;
  status: number;
  code: string | undefined;
  userId: number | undefined;
  /** process.hrtime.bigint() when the request arrived. */
  started: bigint;
}

/** Counts and logs a finished request under its route label. */
export function requestDone(e: Ended): void {
  const seconds = Number(process.hrtime.bigint() - e.started) / 1e9;
  const route = e.route ?? 'other';
  observeRequest(e.method, route, e.status, seconds);
  logRequest({
    requestId: e.requestId,
    method: e.method,
    path: e.path,
    route,
    status: e.status,
    ...(e.code ? { code: e.code } : {}),
    ms: Math.round(seconds * 1e4) / 10,
    user: e.userId ?? null,
  });
}

/** What escaped a request's handling, logged, as the REST error envelope and its headers (Retry-After). */
export function failure(e: unknown, requestId: string): { err: RestError; headers: Record<string, string>; body: string } {
  logger.error({ err: e, requestId }, 'request failed');
  const err = asRestError(e);
  const json = err.toJSON();
  return { err, headers: retryAfterHeader(err.status, json), body: JSON.stringify(json) };
}

/** The site pages' outermost middleware: the request's id, the error envelope, the log line and metrics. */
export function requestLog(): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(ctx.req);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      const { err, headers, body } = failure(e, requestId);
      ctx.state.errorCode = err.code;
      ctx.status = err.status;
      for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
      ctx.type = 'application/json; charset=UTF-8';
      ctx.body = body;
    } finally {
      requestDone({
        requestId,
        method: ctx.method,
        path: ctx.path,
        route: stateString(ctx, 'route'),
        status: ctx.status,
        code: stateString(ctx, 'errorCode'),
        userId: stateNumber(ctx, 'userId'),
        started,
      });
    }
  };
}
