/** Argument declarations shared by many routes, in the reference system's wording. */
import type { ArgDecl } from '../rest/registry';

export const contextArg = (def: 'view' | 'embed' | 'edit' = 'view', values: string[] = ['view', 'embed', 'edit']): ArgDecl => ({
  description: 'Scope under which the request is made; determines fields present in response.',
  type: 'string',
  enum: values,
  default: def,
});

export const pageArg = (): ArgDecl => ({ description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 });

export const perPageArg = (def: number | undefined = 10, max = 100): ArgDecl => ({
  description: 'Maximum number of items to be returned in result set.',
  type: 'integer',
  ...(def === undefined ? {} : { default: def }),
  minimum: 1,
  maximum: max,
});

export const searchArg = (): ArgDecl => ({ description: 'Limit results to those matching a string.', type: 'string' });

/** The arguments every collection starts with (the reference's get_collection_params): context, page, per_page and search. */
export const collectionParams = (): Record<string, ArgDecl> => ({
  context: contextArg('view'),
  page: pageArg(),
  per_page: perPageArg(),
  search: searchArg(),
});

export const idListArg = (description: string, def: unknown = []): ArgDecl => ({
  description,
  type: 'array',
  items: { type: 'integer' },
  ...(def === undefined ? {} : { default: def }),
});

export const offsetArg = (): ArgDecl => ({ description: 'Offset the result set by a specific number of items.', type: 'integer' });

export const orderArg = (def: 'asc' | 'desc'): ArgDecl => ({
  description: 'Order sort attribute ascending or descending.',
  type: 'string',
  default: def,
  enum: ['asc', 'desc'],
});

export const idArg = (description = 'Unique identifier for the object.'): ArgDecl => ({ description, type: 'integer' });

export const forceArg = (description = 'Whether to bypass Trash and force deletion.'): ArgDecl => ({ type: 'boolean', default: false, description });

/** The JSON schema of a record as the reference publishes it (OPTIONS, context=help, OpenAPI). */
/** A record schema: an object type with its properties. */
export type ObjectSchema = { $schema: string; title: string; type: 'object'; properties: Record<string, unknown> };

export function objectSchema(title: string, properties: Record<string, unknown>): ObjectSchema {
  return { $schema: 'http://json-schema.org/draft-04/schema#', title, type: 'object', properties };
}
