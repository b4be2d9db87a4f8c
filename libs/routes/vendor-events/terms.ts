/** vendor/events/v1 event categories and tags (reference: Archive_Category/Tag, Single_Category/Tag over the terms controller). */
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { BASE, ID, INVALID, NS, isPositiveInt, nonEmptyString, pageArgs, positive } from './args';
import { termSchema } from './schemas';

export const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'];

const idList = (description: string): ArgDecl => ({
  description,
  type: 'array',
  items: { type: 'integer' },
  validate: (v) => (Array.isArray(v) && v.every(isPositiveInt) ? true : INVALID),
});

export function termArchiveArgs(hierarchical: boolean): Record<string, ArgDecl> {
  return {
    ...pageArgs(),
    search: { description: 'Limit results to those matching a string.', type: 'string', validate: nonEmptyString },
    exclude: idList('Ensure result set excludes specific IDs.'),
    include: idList('Limit result set to specific IDs.'),
    order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'asc', enum: ['asc', 'desc'] },
    orderby: { description: 'Sort collection by term attribute.', type: 'string', default: 'name', enum: TERM_ORDERBY },
    hide_empty: { description: 'Whether to hide terms not assigned to any posts.', type: 'boolean', default: true },
    ...(hierarchical ? { parent: { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer', validate: positive } } : {}),
    post: { description: 'Limit result set to terms assigned to a specific event.', type: 'integer', validate: positive },
    event: { description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter).', type: 'integer', validate: positive },
    slug: { description: 'Limit result set to terms with a specific slug.', type: 'string', validate: nonEmptyString },
  };
}

export function termWriteArgs(hierarchical: boolean, create: boolean): Record<string, ArgDecl> {
  return {
    name: { description: 'The term name.', type: 'string', ...(create ? { required: true } : {}), validate: nonEmptyString },
    description: { description: 'The term description.', type: 'string', validate: nonEmptyString },
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', validate: nonEmptyString },
    ...(hierarchical ? { parent: { description: 'The parent term ID.', type: 'integer', validate: positive } } : {}),
  };
}

function registerTerms(registry: RouteRegistry, plural: 'categories' | 'tags'): void {
  const hierarchical = plural === 'categories';
  const id: ArgDecl = { description: 'The term ID.', type: 'integer' };
  registry.add({
    namespace: NS,
    pattern: `${BASE}/${plural}`,
    schema: termSchema,
    endpoints: [
      { id: `vendor.${plural}.list`, service: 'calendar', methods: ['GET'], args: termArchiveArgs(hierarchical) },
      { id: `vendor.${plural}.create`, service: 'calendar', methods: ['POST'], args: termWriteArgs(hierarchical, true) },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/${plural}/${ID}`,
    schema: termSchema,
    endpoints: [
      { id: `vendor.${plural}.get`, service: 'calendar', methods: ['GET'], args: { id } },
      { id: `vendor.${plural}.update`, service: 'calendar', methods: EDITABLE, args: { id, ...termWriteArgs(hierarchical, false) } },
      { id: `vendor.${plural}.delete`, service: 'calendar', methods: DELETABLE, args: { id } },
    ],
  });
}

export function registerTermRoutes(registry: RouteRegistry): void {
  registerTerms(registry, 'categories');
  registerTerms(registry, 'tags');
}
