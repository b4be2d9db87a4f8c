/**
 * cms/v2 terms of each taxonomy: categories, tags and the calendar's event categories (reference: the
 * terms controller, registered once per taxonomy that shows in REST).
 */
import { sanitizeTitle } from '../../posts/slug';
import { endpoint, type ArgMap } from '../../rest/params';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { CMS_TAXONOMIES, type TaxonomyInfo } from '../../terms/taxonomies';
import { collectionParams, contextArg, idListArg, offsetArg, orderArg, objectSchema } from '../common';

const NS = 'cms/v2';

export const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const;

/** Endpoint id prefix of a taxonomy's routes: `cms.terms.category.list`, ... */
export const termEndpoint = (tax: TaxonomyInfo, action: string) => `cms.terms.${tax.name}.${action}`;

const metaDecl = () => ({ description: 'Meta fields.', type: 'object', properties: {} }) satisfies ArgDecl;
const nameArg = () => ({ description: 'HTML title for the term.', type: 'string' }) satisfies ArgDecl;
const requiredNameArg = () => ({ description: 'HTML title for the term.', type: 'string', required: true }) satisfies ArgDecl;

/*
 * Write arguments from the item schema, in its property order (a create requires the name; a
 * hierarchical taxonomy's terms have a parent). One builder per shape keeps the literal types.
 */
const termWriteHead = <N extends ArgDecl>(name: N) =>
  ({
    description: { description: 'HTML description of the term.', type: 'string' },
    name,
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', sanitize: (v: unknown) => sanitizeTitle(String(v)) },
  }) satisfies Record<string, ArgDecl>;
const termParentArg = () => ({ description: 'The parent term ID.', type: 'integer' }) satisfies ArgDecl;

const flatTermWriteArgs = <N extends ArgDecl>(name: N) => ({ ...termWriteHead(name), meta: metaDecl() }) satisfies Record<string, ArgDecl>;
const hierarchicalTermWriteArgs = <N extends ArgDecl>(name: N) =>
  ({ ...termWriteHead(name), parent: termParentArg(), meta: metaDecl() }) satisfies Record<string, ArgDecl>;

const termListHead = () =>
  ({
    ...collectionParams(),
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
  }) satisfies Record<string, ArgDecl>;
const termListMiddle = () =>
  ({
    order: orderArg('asc'),
    orderby: { description: 'Sort collection by term attribute.', type: 'string', default: 'name', enum: TERM_ORDERBY },
    hide_empty: { description: 'Whether to hide terms not assigned to any posts.', type: 'boolean', default: false },
  }) satisfies Record<string, ArgDecl>;
const termListTail = () =>
  ({
    // A default of null: the handler receives null when no post is asked for (the derived type says number; see terms/handlers).
    post: { description: 'Limit result set to terms assigned to a specific post.', type: 'integer', default: null },
    slug: { description: 'Limit result set to terms with one or more specific slugs.', type: 'array', items: { type: 'string' } },
  }) satisfies Record<string, ArgDecl>;

const flatTermCollectionArgs = () => ({ ...termListHead(), offset: offsetArg(), ...termListMiddle(), ...termListTail() }) satisfies Record<string, ArgDecl>;
const hierarchicalTermCollectionArgs = () =>
  ({
    ...termListHead(),
    ...termListMiddle(),
    parent: { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer' },
    ...termListTail(),
  }) satisfies Record<string, ArgDecl>;

/** A taxonomy's five endpoints: list and create on the collection, get, update and delete on an item. */
function taxonomyEndpoints<L extends ArgMap, C extends ArgMap, U extends ArgMap>(tax: TaxonomyInfo, list: L, create: C, update: U) {
  const id = () => ({ description: 'Unique identifier for the term.', type: 'integer' }) satisfies ArgDecl;
  return {
    list: endpoint({ id: termEndpoint(tax, 'list'), service: 'content', methods: ['GET'], args: list, allowBatch: true }),
    create: endpoint({ id: termEndpoint(tax, 'create'), service: 'content', methods: ['POST'], args: create, allowBatch: true }),
    get: endpoint({
      id: termEndpoint(tax, 'get'),
      service: 'content',
      methods: ['GET'],
      args: { id: id(), context: contextArg('view') },
      captures: ['id'],
      allowBatch: true,
    }),
    update: endpoint({
      id: termEndpoint(tax, 'update'),
      service: 'content',
      methods: EDITABLE,
      args: { id: id(), ...update },
      captures: ['id'],
      allowBatch: true,
    }),
    delete: endpoint({
      id: termEndpoint(tax, 'delete'),
      service: 'content',
      methods: DELETABLE,
      args: { id: id(), force: { type: 'boolean', default: false, description: 'Required to be true, as terms do not support trashing.' } },
      captures: ['id'],
      allowBatch: true,
    }),
  };
}

function termEndpointsFor(tax: TaxonomyInfo) {
  return tax.hierarchical
    ? taxonomyEndpoints(tax, hierarchicalTermCollectionArgs(), hierarchicalTermWriteArgs(requiredNameArg()), hierarchicalTermWriteArgs(nameArg()))
    : taxonomyEndpoints(tax, flatTermCollectionArgs(), flatTermWriteArgs(requiredNameArg()), flatTermWriteArgs(nameArg()));
}

/** The endpoints of one taxonomy's terms (flat or hierarchical): the content service binds one handler set to all of them. */
export type TermEndpoints = ReturnType<typeof termEndpointsFor>;

const TERM_ENDPOINTS = new Map(CMS_TAXONOMIES.map((tax) => [tax.name, termEndpointsFor(tax)]));

/** The endpoints of a taxonomy shown in cms/v2. */
export function termEndpoints(tax: TaxonomyInfo): TermEndpoints {
  const eps = TERM_ENDPOINTS.get(tax.name);
  if (!eps) throw new Error(`taxonomy ${tax.name} has no cms/v2 routes`);
  return eps;
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
  const eps = termEndpoints(tax);
  registry.add({ namespace: NS, pattern: base, schema: () => termItemSchema(tax), endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: `${base}/(?P<id>[\\d]+)`, schema: () => termItemSchema(tax), endpoints: [eps.get, eps.update, eps.delete] });
}

export function registerTermRoutes(registry: RouteRegistry): void {
  for (const tax of CMS_TAXONOMIES) registerTaxonomy(registry, tax);
}
