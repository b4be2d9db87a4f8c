/**
 * cms/v2 posts, pages and the calendar's events with their revisions and autosaves (reference: the
 * posts, revisions and autosaves controllers, registered for each post type shown in REST). The types
 * share one declaration, parameterised by the kind (post-args.ts: hierarchy, supports, taxonomies); the
 * arguments are declared in post-args.ts, the record schemas in post-schemas.ts, the route table here.
 * A type shown in REST to some callers only (the events: managers) has its routes for them alone.
 */
import { endpoint, type ArgMap } from '../../rest/params';
import { type ArgDecl, type RouteDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { contextArg, idListArg, offsetArg, orderArg, pageArg, perPageArg, searchArg } from '../common';
import { EVENT_TYPE } from '../../calendar/meta';
import {
  KINDS,
  REVISION_ORDERBY,
  eventCollectionArgs,
  eventWriteArgs,
  pageCollectionArgs,
  pageWriteArgs,
  postCollectionArgs,
  postWriteArgs,
  type KindInfo,
  type PostKind,
} from './post-args';
import { itemSchema, postSchemaLinks, revisionSchema } from './post-schemas';

const NS = 'cms/v2';

const postIdArg = () => ({ description: 'Unique identifier for the post.', type: 'integer' }) satisfies ArgDecl;
const parentArg = (what: string) => ({ description: `The ID for the parent of the ${what}.`, type: 'integer' }) satisfies ArgDecl;
const revisionIdArg = () => ({ description: 'Unique identifier for the revision.', type: 'integer' }) satisfies ArgDecl;

/**
 * The endpoints of one type, in the reference's order: the collection and the item, revisions and
 * autosaves. The write arguments are built anew for each endpoint that takes them, as the routes always had.
 */
function kindEndpoints<L extends ArgMap, W extends ArgMap>(kind: PostKind, list: () => L, write: () => W) {
  const id = kind === 'post' ? 'cms.posts' : kind === 'page' ? 'cms.pages' : `cms.${kind}`;
  return {
    list: endpoint({ id: `${id}.list`, service: 'content', methods: ['GET'], args: list(), allowBatch: true }),
    create: endpoint({ id: `${id}.create`, service: 'content', methods: ['POST'], args: write(), allowBatch: true }),
    get: endpoint({
      id: `${id}.get`,
      service: 'content',
      methods: ['GET'],
      args: {
        id: postIdArg(),
        context: contextArg('view'),
        excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
        password: { description: 'The password for the post if it is password protected.', type: 'string' },
      },
      captures: ['id'],
      allowBatch: true,
    }),
    update: endpoint({ id: `${id}.update`, service: 'content', methods: EDITABLE, args: { id: postIdArg(), ...write() }, captures: ['id'], allowBatch: true }),
    delete: endpoint({
      id: `${id}.delete`,
      service: 'content',
      methods: DELETABLE,
      args: { id: postIdArg(), force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
      captures: ['id'],
      allowBatch: true,
    }),
    revisions: {
      list: endpoint({
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
        captures: ['parent'],
      }),
      get: endpoint({
        id: `${id}.revisions.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('revision'), id: revisionIdArg(), context: contextArg('view') },
        captures: ['parent', 'id'],
      }),
      delete: endpoint({
        id: `${id}.revisions.delete`,
        service: 'content',
        methods: DELETABLE,
        args: {
          parent: parentArg('revision'),
          id: revisionIdArg(),
          force: { type: 'boolean', default: false, description: 'Required to be true, as revisions do not support trashing.' },
        },
        captures: ['parent', 'id'],
      }),
    },
    autosaves: {
      // The route captures the post as `id` while the arguments name it `parent` (as the reference declares them).
      list: endpoint({
        id: `${id}.autosaves.list`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('autosave'), context: contextArg('view') },
        captures: ['id'],
      }),
      create: endpoint({
        id: `${id}.autosaves.create`,
        service: 'content',
        methods: ['POST'],
        args: { parent: parentArg('autosave'), ...write() },
        captures: ['id'],
      }),
      get: endpoint({
        id: `${id}.autosaves.get`,
        service: 'content',
        methods: ['GET'],
        args: { parent: parentArg('autosave'), id: { description: 'The ID for the autosave.', type: 'integer' }, context: contextArg('view') },
        captures: ['parent', 'id'],
      }),
    },
  };
}

/** The endpoints of posts, pages and events, by type: the content service binds one handler set to all of them. */
export const POST_ENDPOINTS = {
  post: kindEndpoints('post', postCollectionArgs, postWriteArgs),
  page: kindEndpoints('page', pageCollectionArgs, pageWriteArgs),
  [EVENT_TYPE]: kindEndpoints(EVENT_TYPE, eventCollectionArgs, eventWriteArgs),
};

/** Registers the routes of one type, in the reference's order, for the callers the type is shown to. */
function registerKind(registry: RouteRegistry, k: KindInfo): void {
  const base = `/${NS}/${k.base}`;
  const eps = POST_ENDPOINTS[k.kind];
  const schema = () => itemSchema(k);
  const schemaLinks = (site: Parameters<typeof postSchemaLinks>[1]) => postSchemaLinks(k, site);
  const add = (route: Omit<RouteDecl, 'namespace' | 'shownTo'>) => registry.add({ namespace: NS, ...route, shownTo: k.shownTo });
  add({ pattern: base, schema, schemaLinks, endpoints: [eps.list, eps.create] });
  add({ pattern: `${base}/(?P<id>[\\d]+)`, schema, schemaLinks, endpoints: [eps.get, eps.update, eps.delete] });
  add({ pattern: `${base}/(?P<parent>[\\d]+)/revisions`, schema: () => revisionSchema(k, false), endpoints: [eps.revisions.list] });
  add({
    pattern: `${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, false),
    endpoints: [eps.revisions.get, eps.revisions.delete],
  });
  add({
    pattern: `${base}/(?P<id>[\\d]+)/autosaves`,
    schema: () => revisionSchema(k, true),
    endpoints: [eps.autosaves.list, eps.autosaves.create],
  });
  add({
    pattern: `${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`,
    schema: () => revisionSchema(k, true),
    endpoints: [eps.autosaves.get],
  });
}

export function registerPostRoutes(registry: RouteRegistry): void {
  registerKind(registry, KINDS.post);
  registerKind(registry, KINDS.page);
}

/** The routes of the calendar's events, registered after core's types (as the plugin's type is). */
export function registerEventTypeRoutes(registry: RouteRegistry): void {
  registerKind(registry, KINDS[EVENT_TYPE]);
}
