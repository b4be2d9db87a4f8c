/**
 * `_jsonp=cb` answers `/**\/cb(...)` as JavaScript (see writeRest); a callback that is not a
 * word-and-dot name is refused before anything else runs (wp_check_jsonp_callback), with the
 * envelope's bare form.
 */
import type Koa from 'koa';
import type { Site } from '#libs/rest/site';
import { forRest } from './route';
import { writeRefusal } from './write-rest';

export function jsonpCallback(site: Site): Koa.Middleware {
  return forRest(async (ctx, call, next) => {
    const callback = call.input.query._jsonp;
    if (callback !== undefined) {
      if (typeof callback !== 'string' || /[^\w.]/.test(callback)) {
        writeRefusal(ctx, site, call, 400, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
        return;
      }
      ctx.state.jsonp = callback;
    }
    await next();
  });
}
