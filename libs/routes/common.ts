/** Argument declarations shared by many routes, in the reference system's wording. */
import type { ArgDecl } from '../rest/registry';

export const contextArg = (def: 'view' | 'embed' | 'edit' = 'view', values: readonly string[] = ['view', 'embed', 'edit']) =>
  ({
    description: 'Scope under which the request is made; determines fields present in response.',
    type: 'string',
    enum: values,
    default: def,
  }) satisfies ArgDecl;

export const pageArg = () => ({ description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 }) satisfies ArgDecl;

type PerPageDecl = { description: string; type: 'integer'; minimum: number; maximum: number };

/** per_page: with its default (10 unless given), or with none when `undefined` is passed (a collection the reference leaves unbounded by default). */
export function perPageArg(def: undefined, max?: number): PerPageDecl;
export function perPageArg(def?: number, max?: number): PerPageDecl & { default: number };
export function perPageArg(def: number | undefined = 10, max = 100): PerPageDecl {
  return {
    description: 'Maximum number of items to be returned in result set.',
    type: 'integer',
    ...(def === undefined ? {} : { default: def }),
    minimum: 1,
    maximum: max,
  } satisfies ArgDecl;
}

export const searchArg = () => ({ description: 'Limit results to those matching a string.', type: 'string' }) satisfies ArgDecl;

/** The arguments every collection starts with (the reference's get_collection_params): context, page, per_page and search. */
export const collectionParams = () => ({
  context: contextArg('view'),
  page: pageArg(),
  per_page: perPageArg(),
  search: searchArg(),
});

export const idListArg = (description: string, def: readonly number[] = []) =>
  ({
    description,
    type: 'array',
    items: { type: 'integer' },
    default: def,
  }) satisfies ArgDecl;

export const offsetArg = () => ({ description: 'Offset the result set by a specific number of items.', type: 'integer' }) satisfies ArgDecl;

export const orderArg = (def: 'asc' | 'desc') =>
  ({
    description: 'Order sort attribute ascending or descending.',
    type: 'string',
    default: def,
    enum: ['asc', 'desc'] as const,
  }) satisfies ArgDecl;

export const idArg = (description = 'Unique identifier for the object.') => ({ description, type: 'integer' }) satisfies ArgDecl;

export const forceArg = (description = 'Whether to bypass Trash and force deletion.') => ({ type: 'boolean', default: false, description }) satisfies ArgDecl;

/** The JSON schema of a record as the reference publishes it (OPTIONS, context=help, OpenAPI). */
/** A record schema: an object type with its properties. */
export type ObjectSchema = { $schema: string; title: string; type: 'object'; properties: Record<string, unknown> };

export function objectSchema(title: string, properties: Record<string, unknown>): ObjectSchema {
  return { $schema: 'http://json-schema.org/draft-04/schema#', title, type: 'object', properties };
}
