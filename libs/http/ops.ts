/** `/healthz` (alive), `/readyz` (dependencies reachable, else 503) and `/metrics`, for every process. */
import type Koa from 'koa';
import { metricsText } from '../observability/metrics';
import { errorMessage } from '../observability/error-fields';

export function opsEndpoints(ready: () => Promise<void>): Koa.Middleware {
  return async (ctx, next) => {
    // Each path is its own metrics and log label.
    if (ctx.path === '/healthz' || ctx.path === '/readyz' || ctx.path === '/metrics') ctx.state.route = ctx.path;
    switch (ctx.path) {
      case '/healthz':
        ctx.body = { status: 'ok' };
        return;
      case '/readyz':
        try {
          await ready();
          ctx.body = { status: 'ready' };
        } catch (e) {
          ctx.status = 503;
          ctx.body = { status: 'unavailable', reason: errorMessage(e) };
        }
        return;
      case '/metrics': {
        const m = await metricsText();
        ctx.type = m.contentType;
        ctx.body = m.body;
        return;
      }
    }
    await next();
  };
}
