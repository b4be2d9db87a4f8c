/** `GET vendor/events/v1/doc`: the OpenAPI document, built on the first request and served as is afterwards. */
import type { ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { openApiDocument } from './openapi';

export function bindDoc(app: ServiceApp, deps: CalendarDeps): void {
  let doc: Record<string, unknown> | undefined;
  app.bind('vendor.doc', {
    async handle() {
      doc ??= openApiDocument(deps.registry, deps.site, 'vendor/events/v1');
      return { body: doc };
    },
  });
}
