/** `GET vendor/events/v1/doc` and `GET ec/v1/docs`: an OpenAPI document, built on the first request and served as is afterwards. */
import type { ArgMap, Endpoint } from '../../../libs/rest/params';
import type { ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { VENDOR_EVENTS_DOC, openApiDocument, type DocProfile } from './openapi';

export function bindOpenApi(app: ServiceApp, deps: CalendarDeps, endpoint: Endpoint<ArgMap, never> | string, profile: DocProfile): void {
  let doc: Record<string, unknown> | undefined;
  const handler = {
    async handle() {
      doc ??= openApiDocument(deps.registry, deps.site, profile);
      return { body: doc };
    },
  };
  if (typeof endpoint === 'string') app.bind(endpoint, handler);
  else app.bind(endpoint, handler);
}

export function bindDoc(app: ServiceApp, deps: CalendarDeps): void {
  bindOpenApi(app, deps, 'vendor.doc', VENDOR_EVENTS_DOC);
}
