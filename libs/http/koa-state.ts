/**
 * Typed reads of what the middleware keeps in Koa's untyped `ctx.state` (the request id, the metrics
 * route label, an error code, the caller's id): each read checks the value's type.
 */
import type Koa from 'koa';

export function stateString(ctx: Koa.Context, key: string): string | undefined {
  const v: unknown = ctx.state[key];
  return typeof v === 'string' ? v : undefined;
}

export function stateNumber(ctx: Koa.Context, key: string): number | undefined {
  const v: unknown = ctx.state[key];
  return typeof v === 'number' ? v : undefined;
}
