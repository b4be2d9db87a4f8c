import type Koa from 'koa';

/** The caller's address: Koa's (which reads X-Forwarded-For only through TRUST_PROXY_HOPS proxies), else the socket's. */
export function clientIp(ctx: Koa.Context): string {
  return ctx.request.ip || ctx.req.socket.remoteAddress || 'unknown';
}
