/** Runs a REST request through the REST pipeline (validation, the service, global parameters) and writes its answer. */
import type Koa from 'koa';
import type { RestServer } from '#libs/rest/server';
import type { Site } from '#libs/rest/site';
import { forRest } from './route';
import { writeRest } from './write-rest';

export function dispatchRest(rest: RestServer, site: Site): Koa.Middleware {
  return forRest(async (ctx, call) => {
    const out = await rest.handle(call.input);
    call.out = out;
    ctx.state.route = out.route ?? ctx.state.route;
    writeRest(ctx, site, out, { loggedIn: !!call.input.user, pretty: call.pretty });
  });
}
