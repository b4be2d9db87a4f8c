import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';

/**
 * The caller's address: behind `hops` trusted proxies (TRUST_PROXY_HOPS), the first of the last `hops`
 * X-Forwarded-For entries (those the trusted proxies added), else the socket's; as Koa reads it with
 * `proxy` and `maxIpsCount`.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const header = hops > 0 ? req.headers['x-forwarded-for'] : undefined;
  const forwarded = Array.isArray(header) ? header.join(',') : header;
  if (forwarded) {
    const ips = forwarded.split(',').slice(-hops);
    const first = ips[0].trim();
    if (first) return first;
  }
  return req.socket.remoteAddress || 'unknown';
}

/** The address of a site page's caller (the gateway's Koa app is made with `proxy` set when TRUST_PROXY_HOPS > 0). */
export function clientIp(ctx: Koa.Context): string {
  return clientAddress(ctx.req, ctx.app.proxy ? ctx.app.maxIpsCount : 0);
}
