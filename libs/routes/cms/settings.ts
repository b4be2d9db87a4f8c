/** cms/v2 site settings (reference: the settings controller over the registered settings). */
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { EDITABLE } from '../../rest/registry';
import { SETTINGS } from '../../settings/site-settings';
import { objectSchema } from '../common';

export function settingsSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    const { validate: _v, sanitize: _s, hidden: _h, ...schema } = s.schema;
    properties[s.name] = schema;
  }
  return objectSchema('settings', properties);
}

export function registerSettingsRoutes(registry: RouteRegistry): void {
  const write: Record<string, ArgDecl> = {};
  for (const s of SETTINGS) write[s.name] = s.schema;
  registry.add({
    namespace: 'cms/v2',
    pattern: '/cms/v2/settings',
    endpoints: [
      { id: 'cms.settings.get', service: 'content', methods: ['GET'], args: {} },
      { id: 'cms.settings.update', service: 'content', methods: EDITABLE, args: write },
    ],
    schema: settingsSchema,
  });
}
