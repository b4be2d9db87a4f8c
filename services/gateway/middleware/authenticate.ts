/** Authenticates a REST caller (application passwords over HTTP Basic); a refused or throttled login is answered here. */
import type Koa from 'koa';
import type { Authenticator } from '#libs/auth/authenticate';
import { RestError } from '#libs/rest/errors';
import type { Site } from '#libs/rest/site';
import { clientIp } from '../client-ip';
import { forRest } from './route';
import { writeRefusal } from './write-rest';

export function authenticate(site: Site, auth: Authenticator): Koa.Middleware {
  return forRest(async (ctx, call, next) => {
    try {
      call.input.user = await auth.authenticate(ctx.get('Authorization') || undefined, clientIp(ctx));
      ctx.state.userId = call.input.user?.id;
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      // A throttled login's Retry-After comes from its data.retry_after, as for every error.
      return writeRefusal(ctx, site, call, e.status, e.toJSON());
    }
    await next();
  });
}
