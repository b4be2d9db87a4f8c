/**
 * cms/v2 settings (reference: the settings controller). Administrators read and change the site
 * settings; a change is stored and applied to the site at once (name, tagline, URL, time zone and
 * front page in the site index, the default category and discussion defaults of new posts), and the
 * other processes pick it up from the store.
 */
import { can } from '#libs/auth/user';
import { ParamError, invalidParams } from '#libs/rest/errors';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import type { SettingDef, SettingValues } from '#libs/settings/site-settings';
import type { ContentDeps } from '../deps';
import { SETTINGS_ENDPOINTS } from '#libs/routes/cms/settings';

/** The settings in the reference's shape: each value cast to its declared type. */
function present(defs: SettingDef[], values: SettingValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of defs) {
    const v = values[s.name];
    if (v === undefined || v === null) out[s.name] = null;
    else if (s.schema.type === 'integer') out[s.name] = Math.trunc(Number(v)) || 0;
    else if (s.schema.type === 'number') out[s.name] = Number(v) || 0;
    else if (s.schema.type === 'boolean') out[s.name] = Boolean(v);
    else out[s.name] = String(v);
  }
  return out;
}

export function bindSettings(app: ServiceApp, deps: ContentDeps): void {
  // manage_options, else rest_forbidden (401 for a guest, 403 for a user).
  const permission = async (ctx: HandlerContext) => can(ctx.user, 'manage_options');

  app.bind(SETTINGS_ENDPOINTS.get, {
    permission,
    async handle() {
      // Another process may have changed them since the last periodic read.
      await deps.settings.refresh();
      return { body: present(deps.settings.defs(), deps.settings.values()) };
    },
  });

  app.bind(SETTINGS_ENDPOINTS.update, {
    permission,
    async handle(ctx) {
      const set: SettingValues = {};
      const reset: string[] = [];
      // The other edition's settings are accepted and ignored.
      for (const s of deps.settings.defs()) {
        if (!ctx.has(s.name)) continue;
        // Each setting's value is as its own schema declares it: the arguments are a record of them (unknown values).
        const v = ctx.input[s.name];
        // A null value deletes the option: the setting goes back to its default.
        if (v === null || v === undefined) reset.push(s.name);
        else set[s.name] = s.name === 'url' ? String(v).replace(/\/+$/, '') : v;
      }
      if (typeof set.default_category === 'number') {
        const term = await deps.terms.ofTaxonomy(set.default_category, 'category');
        if (!term) throw invalidParams([['default_category', new ParamError('rest_invalid_param', 'default_category is not an existing category.')]]);
      }
      await deps.settings.update(set, reset);
      return { body: present(deps.settings.defs(), deps.settings.values()) };
    },
  });
}
