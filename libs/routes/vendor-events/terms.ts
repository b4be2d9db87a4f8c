/**
 * vendor/events/v1 event categories and tags (reference: Archive_Category/Tag, Single_Category/Tag over
 * the terms controller). The endpoints are constants the calendar service binds to; categories and tags
 * are one family, categories (hierarchical) adding `parent`.
 */
import { resourceEndpoints, type ArgMap } from '../../rest/params';
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { isPositiveInt } from '../../rest/args';
import { BASE, ID, INVALID, NS, nonEmptyString, pageArgs, positive, requiredOn } from './args';
import { termSchema } from './schemas';

export const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const;

const idList = (description: string) =>
  ({
    description,
    type: 'array',
    items: { type: 'integer' },
    validate: (v) => (Array.isArray(v) && v.every(isPositiveInt) ? true : INVALID),
  }) satisfies ArgDecl;

/** `parent` where the taxonomy is hierarchical, nothing otherwise; typed by the flag. */
function parentOn<H extends boolean, D extends ArgDecl>(hierarchical: H, decl: D): H extends true ? { parent: D } : Record<never, never>;
function parentOn(hierarchical: boolean, decl: ArgDecl): object {
  return hierarchical ? { parent: decl } : {};
}

export function termArchiveArgs<H extends boolean>(hierarchical: H) {
  return {
    ...pageArgs(),
    search: { description: 'Limit results to those matching a string.', type: 'string', validate: nonEmptyString },
    exclude: idList('Ensure result set excludes specific IDs.'),
    include: idList('Limit result set to specific IDs.'),
    order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'asc', enum: ['asc', 'desc'] as const },
    orderby: { description: 'Sort collection by term attribute.', type: 'string', default: 'name', enum: TERM_ORDERBY },
    hide_empty: { description: 'Whether to hide terms not assigned to any posts.', type: 'boolean', default: true },
    ...parentOn(hierarchical, { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer', validate: positive }),
    post: { description: 'Limit result set to terms assigned to a specific event.', type: 'integer', validate: positive },
    event: { description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter).', type: 'integer', validate: positive },
    slug: { description: 'Limit result set to terms with a specific slug.', type: 'string', validate: nonEmptyString },
  } satisfies Record<string, ArgDecl>;
}

export function termWriteArgs<H extends boolean, C extends boolean>(hierarchical: H, create: C) {
  return {
    name: { description: 'The term name.', type: 'string', ...requiredOn(create), validate: nonEmptyString },
    description: { description: 'The term description.', type: 'string', validate: nonEmptyString },
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', validate: nonEmptyString },
    ...parentOn(hierarchical, { description: 'The parent term ID.', type: 'integer', validate: positive }),
  } satisfies Record<string, ArgDecl>;
}

/** A taxonomy's endpoints: archive and create on the collection, get, update and delete by id. */
function termEndpoints<L extends ArgMap, C extends ArgMap, U extends ArgMap>(plural: 'categories' | 'tags', list: L, create: C, update: U) {
  const id = { id: { description: 'The term ID.', type: 'integer' } satisfies ArgDecl };
  return resourceEndpoints(`vendor.${plural}`, 'calendar', { list, create, get: id, update: { ...id, ...update }, delete: id });
}

export const VENDOR_TERM_ENDPOINTS = {
  categories: termEndpoints('categories', termArchiveArgs(true), termWriteArgs(true, true), termWriteArgs(true, false)),
  tags: termEndpoints('tags', termArchiveArgs(false), termWriteArgs(false, true), termWriteArgs(false, false)),
};

function registerTerms(registry: RouteRegistry, plural: 'categories' | 'tags'): void {
  const eps = VENDOR_TERM_ENDPOINTS[plural];
  registry.add({ namespace: NS, pattern: `${BASE}/${plural}`, schema: termSchema, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: `${BASE}/${plural}/${ID}`, schema: termSchema, endpoints: [eps.get, eps.update, eps.delete] });
}

export function registerTermRoutes(registry: RouteRegistry): void {
  registerTerms(registry, 'categories');
  registerTerms(registry, 'tags');
}
