/** `GET vendor/events/v1/doc` and `GET ec/v1/docs`: an OpenAPI document, built on the first request and served as is afterwards. */
import type { ArgMap, Endpoint } from '#libs/rest/params';
import type { ServiceApp } from '#libs/rest/service';
import { VENDOR_DOC_ENDPOINT } from '#libs/routes/vendor-events/index';
import type { CalendarDeps } from '../deps';
import { VENDOR_EVENTS_DOC, openApiDocument, type DocProfile } from './openapi';

export function bindOpenApi(app: ServiceApp, deps: CalendarDeps, endpoint: Endpoint<ArgMap, never>, profile: DocProfile): void {
  let doc: Record<string, unknown> | undefined;
  app.bind(endpoint, {
    async handle() {
      doc ??= openApiDocument(deps.registry, deps.site, profile);
      return { body: doc };
    },
  });
}

export function bindDoc(app: ServiceApp, deps: CalendarDeps): void {
  bindOpenApi(app, deps, VENDOR_DOC_ENDPOINT, VENDOR_EVENTS_DOC);
}
