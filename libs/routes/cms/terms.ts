/**
 * cms/v2 terms of each taxonomy: categories, tags and the calendar's event categories (reference: the
 * terms controller, registered once per taxonomy that shows in REST).
 */
import { sanitizeTitle } from '../../posts/slug';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { CMS_TAXONOMIES, type TaxonomyInfo } from '../../terms/taxonomies';
import { collectionParams, contextArg, idListArg, offsetArg, orderArg, objectSchema } from '../common';

const NS = 'cms/v2';

export const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'];

/** Endpoint id prefix of a taxonomy's routes: `cms.terms.category.list`, ... */
export const termEndpoint = (tax: TaxonomyInfo, action: string) => `cms.terms.${tax.name}.${action}`;

const metaDecl = (): ArgDecl => ({ description: 'Meta fields.', type: 'object', properties: {} });

/** Write arguments from the item schema, in its property order. */
export function termWriteArgs(tax: TaxonomyInfo, create: boolean): Record<string, ArgDecl> {
  const args: Record<string, ArgDecl> = {
    description: { description: 'HTML description of the term.', type: 'string' },
    name: { description: 'HTML title for the term.', type: 'string', ...(create ? { required: true } : {}) },
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', sanitize: (v) => sanitizeTitle(String(v)) },
  };
  if (tax.hierarchical) args.parent = { description: 'The parent term ID.', type: 'integer' };
  args.meta = metaDecl();
  return args;
}

export function termCollectionArgs(tax: TaxonomyInfo): Record<string, ArgDecl> {
  const args: Record<string, ArgDecl> = {
    ...collectionParams(),
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
  };
  if (!tax.hierarchical) args.offset = offsetArg();
  args.order = orderArg('asc');
  args.orderby = { description: 'Sort collection by term attribute.', type: 'string', default: 'name', enum: TERM_ORDERBY };
  args.hide_empty = { description: 'Whether to hide terms not assigned to any posts.', type: 'boolean', default: false };
  if (tax.hierarchical) args.parent = { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer' };
  args.post = { description: 'Limit result set to terms assigned to a specific post.', type: 'integer', default: null };
  args.slug = { description: 'Limit result set to terms with one or more specific slugs.', type: 'array', items: { type: 'string' } };
  return args;
}

/** The record schema of a term (OPTIONS and context=help). */
export function termItemSchema(tax: TaxonomyInfo): Record<string, unknown> {
  const all = ['view', 'embed', 'edit'];
  const props: Record<string, unknown> = {
    id: { description: 'Unique identifier for the term.', type: 'integer', context: all, readonly: true },
    count: { description: 'Number of published posts for the term.', type: 'integer', context: ['view', 'edit'], readonly: true },
    description: { description: 'HTML description of the term.', type: 'string', context: ['view', 'edit'] },
    link: { description: 'URL of the term.', type: 'string', format: 'uri', context: all, readonly: true },
    name: { description: 'HTML title for the term.', type: 'string', context: all, required: true },
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', context: all },
    taxonomy: { description: 'Type attribution for the term.', type: 'string', enum: [tax.name], context: all, readonly: true },
  };
  if (tax.hierarchical) props.parent = { description: 'The parent term ID.', type: 'integer', context: ['view', 'edit'] };
  props.meta = { description: 'Meta fields.', type: 'object', context: ['view', 'edit'], properties: {} };
  return objectSchema(tax.title, props);
}

function registerTaxonomy(registry: RouteRegistry, tax: TaxonomyInfo): void {
  const base = `/${NS}/${tax.base}`;
  const id: ArgDecl = { description: 'Unique identifier for the term.', type: 'integer' };
  registry.add({
    namespace: NS,
    pattern: base,
    schema: () => termItemSchema(tax),
    endpoints: [
      { id: termEndpoint(tax, 'list'), service: 'content', methods: ['GET'], args: termCollectionArgs(tax), allowBatch: true },
      { id: termEndpoint(tax, 'create'), service: 'content', methods: ['POST'], args: termWriteArgs(tax, true), allowBatch: true },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<id>[\\d]+)`,
    schema: () => termItemSchema(tax),
    endpoints: [
      { id: termEndpoint(tax, 'get'), service: 'content', methods: ['GET'], args: { id, context: contextArg('view') }, allowBatch: true },
      { id: termEndpoint(tax, 'update'), service: 'content', methods: EDITABLE, args: { id, ...termWriteArgs(tax, false) }, allowBatch: true },
      {
        id: termEndpoint(tax, 'delete'),
        service: 'content',
        methods: DELETABLE,
        args: { id, force: { type: 'boolean', default: false, description: 'Required to be true, as terms do not support trashing.' } },
        allowBatch: true,
      },
    ],
  });
}

export function registerTermRoutes(registry: RouteRegistry): void {
  for (const tax of CMS_TAXONOMIES) registerTaxonomy(registry, tax);
}
