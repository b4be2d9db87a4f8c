/** Reads a REST request's body within the size limit; a larger one is answered 413. */
import type Koa from 'koa';
import { readBody } from '#libs/http/read-body';
import { RestError } from '#libs/rest/errors';
import type { Site } from '#libs/rest/site';
import { forRest } from './route';
import { writeRefusal } from './write-rest';

export function requestBody(site: Site, maxBodyBytes: number): Koa.Middleware {
  return forRest(async (ctx, call, next) => {
    try {
      call.raw = await readBody(ctx.req, maxBodyBytes);
    } catch (e) {
      if (e instanceof RestError) return writeRefusal(ctx, site, call, e.status, e.toJSON());
      throw e;
    }
    await next();
  });
}
