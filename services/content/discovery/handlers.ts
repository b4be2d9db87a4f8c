/**
 * cms/v2 types, statuses and taxonomies: what a client discovers about the content model (reference:
 * the post types, post statuses and taxonomies controllers). The records come from the registered
 * objects; which ones a caller sees follows the reference's read rules.
 */
import { can, type Caller } from '#libs/auth/user';
import {
  STATUSES,
  TAXONOMIES,
  canEditAnyType,
  canTaxonomy,
  postTypeCaps,
  postTypeObject,
  restPostTypes,
  statusObject,
  taxonomiesOf,
  taxonomyObject,
  type StatusObject,
} from '#libs/posts/registered';
import { RestError, authStatus } from '#libs/rest/errors';
import type { ServiceApp } from '#libs/rest/service';
import type { ContentDeps } from '../deps';
import { contextOf } from '../context';
import { presentStatus, presentTaxonomy, presentType } from './present';
import { DISCOVERY_ENDPOINTS } from '#libs/routes/cms/discovery';

/** check_read_permission of the statuses controller: public ones for all, the others for editors of some type. */
function canReadStatus(user: Caller, s: StatusObject): boolean {
  if (s.public) return true;
  return (!s.internal || s.name === 'trash') && canEditAnyType(user);
}

export function bindDiscovery(app: ServiceApp, deps: ContentDeps): void {
  const { site } = deps;

  app.bind(DISCOVERY_ENDPOINTS.types.list, {
    async permission(ctx) {
      if (contextOf(ctx.input.context) === 'edit' && !canEditAnyType(ctx.user)) {
        return new RestError('rest_cannot_view', 'Sorry, you are not allowed to edit posts in this post type.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const context = contextOf(ctx.input.context);
      const out: Record<string, unknown> = {};
      for (const t of restPostTypes(ctx.user)) {
        if (context === 'edit' && !can(ctx.user, postTypeCaps(t).edit_posts)) continue;
        out[t.name] = presentType(site, t, context);
      }
      return { body: out };
    },
  });

  app.bind(DISCOVERY_ENDPOINTS.types.get, {
    async handle(ctx) {
      const t = postTypeObject(ctx.input.type);
      if (!t) throw new RestError('rest_type_invalid', 'Invalid post type.', 404);
      if (!t.showInRest(ctx.user)) throw new RestError('rest_cannot_read_type', 'Cannot view post type.', authStatus(ctx.user));
      const context = contextOf(ctx.input.context);
      if (context === 'edit' && !can(ctx.user, postTypeCaps(t).edit_posts)) {
        throw new RestError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authStatus(ctx.user));
      }
      return { body: presentType(site, t, context) };
    },
  });

  app.bind(DISCOVERY_ENDPOINTS.statuses.list, {
    async permission(ctx) {
      if (contextOf(ctx.input.context) === 'edit' && !canEditAnyType(ctx.user)) {
        return new RestError('rest_cannot_view', 'Sorry, you are not allowed to manage post statuses.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const context = contextOf(ctx.input.context);
      const out: Record<string, unknown> = {};
      // The non-internal statuses, then trash, as the reference lists them.
      for (const s of [...STATUSES.filter((x) => !x.internal), statusObject('trash')!]) {
        if (canReadStatus(ctx.user, s)) out[s.name] = presentStatus(site, s, context);
      }
      return { body: out };
    },
  });

  app.bind(DISCOVERY_ENDPOINTS.statuses.get, {
    async permission(ctx) {
      const s = statusObject(ctx.input.status);
      if (!s) return new RestError('rest_status_invalid', 'Invalid status.', 404);
      if (!canReadStatus(ctx.user, s)) return new RestError('rest_cannot_read_status', 'Cannot view status.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      return { body: presentStatus(site, statusObject(ctx.input.status)!, contextOf(ctx.input.context)) };
    },
  });

  /** Taxonomies of the `type` filter (any registered for it, even a type not shown in REST), or all. */
  const taxonomiesFor = (type: string | null | undefined) => (type ? taxonomiesOf(type) : TAXONOMIES);

  app.bind(DISCOVERY_ENDPOINTS.taxonomies.list, {
    async permission(ctx) {
      if (contextOf(ctx.input.context) === 'edit' && !taxonomiesFor(ctx.input.type).some((t) => t.showInRest && canTaxonomy(ctx.user, t.caps.assign_terms))) {
        return new RestError('rest_cannot_view', 'Sorry, you are not allowed to manage terms in this taxonomy.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const context = contextOf(ctx.input.context);
      const out: Record<string, unknown> = {};
      for (const t of taxonomiesFor(ctx.input.type)) {
        if (!t.showInRest || (context === 'edit' && !canTaxonomy(ctx.user, t.caps.assign_terms))) continue;
        out[t.name] = presentTaxonomy(site, t, context);
      }
      return { body: out };
    },
  });

  app.bind(DISCOVERY_ENDPOINTS.taxonomies.get, {
    async permission(ctx) {
      const t = taxonomyObject(ctx.input.taxonomy);
      if (!t) return true;
      if (!t.showInRest) return false;
      if (contextOf(ctx.input.context) === 'edit' && !canTaxonomy(ctx.user, t.caps.assign_terms)) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to manage terms in this taxonomy.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const t = taxonomyObject(ctx.input.taxonomy);
      if (!t) throw new RestError('rest_taxonomy_invalid', 'Invalid taxonomy.', 404);
      return { body: presentTaxonomy(site, t, contextOf(ctx.input.context)) };
    },
  });
}
