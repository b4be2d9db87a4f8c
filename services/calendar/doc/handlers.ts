/** `GET vendor/events/v1/doc` and `GET ec/v1/docs`: an OpenAPI document, built on the first request and served as is afterwards. */
import type { ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { VENDOR_EVENTS_DOC, openApiDocument, type DocProfile } from './openapi';

export function bindOpenApi(app: ServiceApp, deps: CalendarDeps, endpointId: string, profile: DocProfile): void {
  let doc: Record<string, unknown> | undefined;
  app.bind(endpointId, {
    async handle() {
      doc ??= openApiDocument(deps.registry, deps.site, profile);
      return { body: doc };
    },
  });
}

export function bindDoc(app: ServiceApp, deps: CalendarDeps): void {
  bindOpenApi(app, deps, 'vendor.doc', VENDOR_EVENTS_DOC);
}
