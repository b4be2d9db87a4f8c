/**
 * cms/v2 posts and pages with their revisions and autosaves (reference: the posts, revisions and
 * autosaves controllers). Both types share one declaration, parameterised by what a page has that a
 * post has not (parent, menu_order) and the reverse (format, sticky, categories, tags): the arguments
 * are declared in post-args.ts, the record schemas in post-schemas.ts, the route table here.
 */
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { contextArg, idListArg, offsetArg, orderArg, pageArg, perPageArg, searchArg } from '../common';
import { KINDS, REVISION_ORDERBY, collectionArgs, writeArgs, type KindInfo } from './post-args';
import { itemSchema, postSchemaLinks, revisionSchema } from './post-schemas';

const NS = 'cms/v2';

const postIdArg = (): ArgDecl => ({ description: 'Unique identifier for the post.', type: 'integer' });
const parentArg = (what: string): ArgDecl => ({ description: `The ID for the parent of the ${what}.`, type: 'integer' });

/** Registers the routes of one type, in the reference's order. */
function registerKind(registry: RouteRegistry, k: KindInfo): void {
  const base = `/${NS}/${k.base}`;
  const id = k.kind === 'post' ? 'cms.posts' : 'cms.pages';
  registry.add({
    namespace: NS,
    pattern: base,
    schema: () => itemSchema(k),
    schemaLinks: (site) => postSchemaLinks(k, site),
    endpoints: [
      { id: `${id}.list`, service: 'content', methods: ['GET'], args: collectionArgs(k), allowBatch: true },
      { id: `${id}.create`, service: 'content', methods: ['POST'], args: writeArgs(k), allowBatch: true },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<id>[\\d]+)`,
    schema: () => itemSchema(k),
    schemaLinks: (site) => postSchemaLinks(k, site),
    endpoints: [
      {
        id: `${id}.get`,
        service: 'content',
        methods: ['GET'],
        args: {
          id: postIdArg(),
          context: contextArg('view'),
          excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
          password: { description: 'The password for the post if it is password protected.', type: 'string' },
        },
        allowBatch: true,
      },
      { id: `${id}.update`, service: 'content', methods: EDITABLE, args: { id: postIdArg(), ...writeArgs(k) }, allowBatch: true },
      {
        id: `${id}.delete`,
        service: 'content',
        methods: DELETABLE,
        args: { id: postIdArg(), force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
        allowBatch: true,
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/revisions`,
    schema: () => revisionSchema(k, false),
    endpoints: [
      {
        id: `${id}.revisions.list`,
        service: 'content',
        methods: ['GET'],
        args: {
          parent: parentArg('revision'),
          context: contextArg('view'),
          page: pageArg(),
          per_page: perPageArg(undefined),
          search: searchArg(),
          exclude: idListArg('Ensure result set excludes specific IDs.'),
          include: idListArg('Limit result set to specific IDs.'),
          offset: offsetArg(),
          order: orderArg('desc'),
          orderby: { description: 'Sort collection by object attribute.', type: 'string', default: 'date', enum: REVISION_ORDERBY },
        },
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, false),
    endpoints: [
      {
        id: `${id}.revisions.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('revision'), id: { description: 'Unique identifier for the revision.', type: 'integer' }, context: contextArg('view') },
      },
      {
        id: `${id}.revisions.delete`,
        service: 'content',
        methods: DELETABLE,
        args: {
          parent: parentArg('revision'),
          id: { description: 'Unique identifier for the revision.', type: 'integer' },
          force: { type: 'boolean', default: false, description: 'Required to be true, as revisions do not support trashing.' },
        },
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<id>[\\d]+)/autosaves`,
    schema: () => revisionSchema(k, true),
    endpoints: [
      { id: `${id}.autosaves.list`, service: 'content', methods: ['GET'], args: { parent: parentArg('autosave'), context: contextArg('view') } },
      { id: `${id}.autosaves.create`, service: 'content', methods: ['POST'], args: { parent: parentArg('autosave'), ...writeArgs(k) } },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, true),
    endpoints: [
      {
        id: `${id}.autosaves.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('autosave'), id: { description: 'The ID for the autosave.', type: 'integer' }, context: contextArg('view') },
      },
    ],
  });
}

export function registerPostRoutes(registry: RouteRegistry): void {
  registerKind(registry, KINDS.post);
  registerKind(registry, KINDS.page);
}
