/** cms/v2 post types, post statuses and taxonomies (reference: the post types, post statuses and taxonomies controllers). */
import { endpoint } from '../../rest/params';
import type { ArgSchema, RouteRegistry } from '../../rest/registry';
import { contextArg, objectSchema } from '../common';

const NS = 'cms/v2';

const ro = (description: string, type: ArgSchema['type'], context: string[], extra: Partial<ArgSchema> = {}): ArgSchema => ({
  description,
  type,
  context,
  readonly: true,
  ...extra,
});
const ALL = ['view', 'edit', 'embed'];

export function typeSchema(): Record<string, unknown> {
  return objectSchema('type', {
    capabilities: ro('All capabilities used by the post type.', 'object', ['edit']),
    description: ro('A human-readable description of the post type.', 'string', ['view', 'edit']),
    hierarchical: ro('Whether or not the post type should have children.', 'boolean', ['view', 'edit']),
    viewable: ro('Whether or not the post type can be viewed.', 'boolean', ['edit']),
    labels: ro('Human-readable labels for the post type for various contexts.', 'object', ['edit']),
    name: ro('The title for the post type.', 'string', ALL),
    slug: ro('An alphanumeric identifier for the post type.', 'string', ALL),
    supports: ro('All features, supported by the post type.', 'object', ['edit']),
    has_archive: ro(
      'If the value is a string, the value will be used as the archive slug. If the value is false the post type has no archive.',
      ['string', 'boolean'],
      ['view', 'edit'],
    ),
    taxonomies: ro('Taxonomies associated with post type.', 'array', ['view', 'edit'], { items: { type: 'string' } }),
    rest_base: ro('REST base route for the post type.', 'string', ALL),
    rest_namespace: ro("REST route's namespace for the post type.", 'string', ALL),
    visibility: ro('The visibility settings for the post type.', 'object', ['edit'], {
      properties: {
        show_ui: { description: 'Whether to generate a default UI for managing this post type.', type: 'boolean' },
        show_in_nav_menus: { description: 'Whether to make the post type available for selection in navigation menus.', type: 'boolean' },
      },
    }),
    icon: ro('The icon for the post type.', ['string', 'null'], ALL),
    template: ro('The block template associated with the post type.', ['array'], ALL),
    template_lock: ro('The template_lock associated with the post type, or false if none.', ['string', 'boolean'], ALL, {
      enum: ['all', 'insert', 'contentOnly', false],
    }),
  });
}

export function statusSchema(): Record<string, unknown> {
  return objectSchema('status', {
    name: ro('The title for the status.', 'string', ['embed', 'view', 'edit']),
    private: ro('Whether posts with this status should be private.', 'boolean', ['edit']),
    protected: ro('Whether posts with this status should be protected.', 'boolean', ['edit']),
    public: ro('Whether posts of this status should be shown in the front end of the site.', 'boolean', ['view', 'edit']),
    queryable: ro('Whether posts with this status should be publicly-queryable.', 'boolean', ['view', 'edit']),
    show_in_list: ro('Whether to include posts in the edit listing for their post type.', 'boolean', ['edit']),
    slug: ro('An alphanumeric identifier for the status.', 'string', ['embed', 'view', 'edit']),
    date_floating: ro('Whether posts of this status may have floating published dates.', 'boolean', ['view', 'edit']),
  });
}

export function taxonomySchema(): Record<string, unknown> {
  return objectSchema('taxonomy', {
    capabilities: ro('All capabilities used by the taxonomy.', 'object', ['edit']),
    description: ro('A human-readable description of the taxonomy.', 'string', ['view', 'edit']),
    hierarchical: ro('Whether or not the taxonomy should have children.', 'boolean', ['view', 'edit']),
    labels: ro('Human-readable labels for the taxonomy for various contexts.', 'object', ['edit']),
    name: ro('The title for the taxonomy.', 'string', ALL),
    slug: ro('An alphanumeric identifier for the taxonomy.', 'string', ALL),
    show_cloud: ro('Whether or not the term cloud should be displayed.', 'boolean', ['edit']),
    types: ro('Types associated with the taxonomy.', 'array', ['view', 'edit'], { items: { type: 'string' } }),
    rest_base: ro('REST base route for the taxonomy.', 'string', ALL),
    rest_namespace: ro('REST namespace route for the taxonomy.', 'string', ALL),
    visibility: ro('The visibility settings for the taxonomy.', 'object', ['edit'], {
      properties: {
        public: { description: 'Whether a taxonomy is intended for use publicly either via the admin interface or by front-end users.', type: 'boolean' },
        publicly_queryable: { description: 'Whether the taxonomy is publicly queryable.', type: 'boolean' },
        show_ui: { description: 'Whether to generate a default UI for managing this taxonomy.', type: 'boolean' },
        show_admin_column: { description: 'Whether to allow automatic creation of taxonomy columns on associated post-types table.', type: 'boolean' },
        show_in_nav_menus: { description: 'Whether to make the taxonomy available for selection in navigation menus.', type: 'boolean' },
        show_in_quick_edit: { description: 'Whether to show the taxonomy in the quick/bulk edit panel.', type: 'boolean' },
      },
    }),
  });
}

export const DISCOVERY_ENDPOINTS = {
  types: {
    list: endpoint({ id: 'cms.types.list', service: 'content', methods: ['GET'], args: { context: contextArg('view') } }),
    get: endpoint({
      id: 'cms.types.get',
      service: 'content',
      methods: ['GET'],
      args: { type: { description: 'An alphanumeric identifier for the post type.', type: 'string' }, context: contextArg('view') },
      captures: ['type'],
    }),
  },
  statuses: {
    list: endpoint({ id: 'cms.statuses.list', service: 'content', methods: ['GET'], args: { context: contextArg('view') } }),
    get: endpoint({
      id: 'cms.statuses.get',
      service: 'content',
      methods: ['GET'],
      args: { status: { description: 'An alphanumeric identifier for the status.', type: 'string' }, context: contextArg('view') },
      captures: ['status'],
    }),
  },
  taxonomies: {
    list: endpoint({
      id: 'cms.taxonomies.list',
      service: 'content',
      methods: ['GET'],
      args: { context: contextArg('view'), type: { description: 'Limit results to taxonomies associated with a specific post type.', type: 'string' } },
    }),
    get: endpoint({
      id: 'cms.taxonomies.get',
      service: 'content',
      methods: ['GET'],
      args: { taxonomy: { description: 'An alphanumeric identifier for the taxonomy.', type: 'string' }, context: contextArg('view') },
      captures: ['taxonomy'],
    }),
  },
};

export function registerDiscoveryRoutes(registry: RouteRegistry): void {
  const eps = DISCOVERY_ENDPOINTS;
  registry.add({ namespace: NS, pattern: '/cms/v2/types', endpoints: [eps.types.list], schema: typeSchema });
  registry.add({ namespace: NS, pattern: '/cms/v2/types/(?P<type>[\\w-]+)', endpoints: [eps.types.get], schema: typeSchema });
  registry.add({ namespace: NS, pattern: '/cms/v2/statuses', endpoints: [eps.statuses.list], schema: statusSchema });
  registry.add({ namespace: NS, pattern: '/cms/v2/statuses/(?P<status>[\\w-]+)', endpoints: [eps.statuses.get], schema: statusSchema });
  registry.add({ namespace: NS, pattern: '/cms/v2/taxonomies', endpoints: [eps.taxonomies.list], schema: taxonomySchema });
  registry.add({ namespace: NS, pattern: '/cms/v2/taxonomies/(?P<taxonomy>[\\w-]+)', endpoints: [eps.taxonomies.get], schema: taxonomySchema });
}
