/** cms/v2 site settings (reference: the settings controller over the registered settings). */
import { endpoint } from '../../rest/params';
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { EDITABLE } from '../../rest/registry';
import { SETTINGS } from '../../settings/site-settings';
import { objectSchema } from '../common';

export function settingsSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  // The registry is the same in every edition: the extended edition's settings are left out of what it publishes.
  for (const s of SETTINGS) {
    if (s.edition) continue;
    const { validate: _v, sanitize: _s, hidden: _h, ...schema } = s.schema;
    properties[s.name] = schema;
  }
  return objectSchema('settings', properties);
}

/**
 * The write arguments: each registered setting's schema, by name (their values are as varied as the
 * settings). The extended edition's are accepted in both editions (the free one ignores them) and left
 * out of the published index.
 */
function settingsWriteArgs(): Record<string, ArgDecl> {
  const write: Record<string, ArgDecl> = {};
  for (const s of SETTINGS) write[s.name] = s.edition ? { ...s.schema, hidden: true } : s.schema;
  return write;
}

export const SETTINGS_ENDPOINTS = {
  get: endpoint({ id: 'cms.settings.get', service: 'content', methods: ['GET'], args: {} }),
  update: endpoint({ id: 'cms.settings.update', service: 'content', methods: EDITABLE, args: settingsWriteArgs() }),
};

export function registerSettingsRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: 'cms/v2', pattern: '/cms/v2/settings', endpoints: [SETTINGS_ENDPOINTS.get, SETTINGS_ENDPOINTS.update], schema: settingsSchema });
}
