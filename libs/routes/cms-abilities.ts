/**
 * cms-abilities/v1 (reference: WP_REST_Abilities_V1_Categories_Controller, _List_Controller and
 * _Run_Controller). The gateway answers these routes itself: running an ability sends requests
 * through the same pipeline as a client's (services/gateway/abilities), which works the same in one
 * process and in a cluster. The run route is declared before the single-ability route, as the
 * reference registers it, so that `.../run` is never read as part of an ability name.
 */
import { endpoint } from '../rest/params';
import type { ArgDecl, RouteRegistry } from '../rest/registry';
import { ALL_METHODS } from '../rest/registry';
import { contextArg, pageArg, perPageArg, objectSchema } from './common';

export const ABILITIES_NS = 'cms-abilities/v1';

/** The reference's sanitize_key: lower case, only a-z, 0-9, `_` and `-`. */
export const sanitizeKey = (value: unknown): string =>
  String(value ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '');

const nameArg = () => ({ description: 'Unique identifier for the ability.', type: 'string', pattern: '^[a-zA-Z0-9\\-\\/]+$' }) satisfies ArgDecl;

const annotationFilter = (description: string) => ({ description, type: ['boolean', 'null'] }) satisfies ArgDecl;

function abilitySchema(): Record<string, unknown> {
  const annotation = (description: string) => ({ description, type: ['boolean', 'null'] });
  return objectSchema('ability', {
    name: { description: 'Unique identifier for the ability.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    label: { description: 'Display label for the ability.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    description: { description: 'Description of the ability.', type: 'string', context: ['view', 'edit'], readonly: true },
    category: { description: 'Ability category this ability belongs to.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    input_schema: { description: 'JSON Schema for the ability input.', type: 'object', context: ['view', 'edit'], readonly: true },
    output_schema: { description: 'JSON Schema for the ability output.', type: 'object', context: ['view', 'edit'], readonly: true },
    meta: {
      description: 'Meta information about the ability.',
      type: 'object',
      properties: {
        annotations: {
          description: 'Behavioral annotations for the ability.',
          type: 'object',
          properties: {
            readonly: annotation('Whether the ability does not modify its environment.'),
            destructive: annotation('Whether the ability may perform destructive updates to its environment.'),
            idempotent: annotation('Whether repeated calls with the same arguments have no additional effect.'),
          },
          additionalProperties: true,
        },
      },
      context: ['view', 'edit'],
      readonly: true,
    },
  });
}

function categorySchema(): Record<string, unknown> {
  return objectSchema('ability-category', {
    slug: { description: 'Unique identifier for the ability category.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    label: { description: 'Display label for the category.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    description: { description: 'Description of the category.', type: 'string', context: ['view', 'edit'], readonly: true },
    meta: { description: 'Meta information about the category.', type: 'object', context: ['view', 'edit'], readonly: true },
  });
}

function runSchema(): Record<string, unknown> {
  return objectSchema('ability-execution', {
    result: {
      description: 'The result of the ability execution.',
      type: ['integer', 'number', 'boolean', 'string', 'array', 'object', 'null'],
      context: ['view', 'edit'],
      readonly: true,
    },
  });
}

const collection = () => ({ context: contextArg(), page: pageArg(), per_page: perPageArg(50, 100) });

/** The routes' endpoints, constants the gateway answers (services/gateway/abilities); those on a slug or name rely on its capture. */
export const ABILITY_ENDPOINTS = {
  categories: endpoint({ id: 'abilities.categories', service: 'gateway', methods: ['GET'], args: collection() }),
  category: endpoint({
    id: 'abilities.category',
    service: 'gateway',
    methods: ['GET'],
    captures: ['slug'],
    args: { slug: { description: 'Unique identifier for the ability category.', type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' } },
  }),
  run: endpoint({
    id: 'abilities.run',
    service: 'gateway',
    methods: ALL_METHODS,
    captures: ['name'],
    args: {
      name: nameArg(),
      input: {
        description: 'Input parameters for the ability execution.',
        type: ['integer', 'number', 'boolean', 'string', 'array', 'object', 'null'],
        default: null,
      },
    },
  }),
  list: endpoint({
    id: 'abilities.list',
    service: 'gateway',
    methods: ['GET'],
    args: {
      ...collection(),
      category: { description: 'Limit results to abilities in specific ability category.', type: 'string', sanitize: sanitizeKey },
      namespace: { description: 'Limit results to abilities in a specific namespace.', type: 'string', sanitize: sanitizeKey },
      meta: {
        description: 'Limit results to abilities matching all of the given meta fields.',
        type: 'object',
        properties: {
          annotations: {
            description: 'Limit results to abilities matching the given behavioral annotations.',
            type: 'object',
            properties: {
              readonly: annotationFilter('Whether the ability does not modify its environment.'),
              destructive: annotationFilter('Whether the ability may perform destructive updates to its environment.'),
              idempotent: annotationFilter('Whether repeated calls with the same arguments have no additional effect.'),
            },
            additionalProperties: true,
          },
        },
        additionalProperties: true,
      },
    },
  }),
  single: endpoint({ id: 'abilities.single', service: 'gateway', methods: ['GET'], captures: ['name'], args: { name: nameArg() } }),
};

export function registerAbilitiesRoutes(registry: RouteRegistry): void {
  const eps = ABILITY_ENDPOINTS;
  registry.add({ namespace: ABILITIES_NS, pattern: `/${ABILITIES_NS}/categories`, endpoints: [eps.categories], schema: categorySchema });
  registry.add({
    namespace: ABILITIES_NS,
    // The reference's route is `(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)`; the nested group breaks route-tree
    // clients such as wpapi, so the route takes any slug characters and the argument's pattern has the rule.
    pattern: `/${ABILITIES_NS}/categories/(?P<slug>[a-z0-9-]+)`,
    endpoints: [eps.category],
    schema: categorySchema,
  });
  registry.add({ namespace: ABILITIES_NS, pattern: `/${ABILITIES_NS}/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run`, endpoints: [eps.run], schema: runSchema });
  registry.add({ namespace: ABILITIES_NS, pattern: `/${ABILITIES_NS}/abilities`, endpoints: [eps.list], schema: abilitySchema });
  registry.add({ namespace: ABILITIES_NS, pattern: `/${ABILITIES_NS}/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+)`, endpoints: [eps.single], schema: abilitySchema });
}
