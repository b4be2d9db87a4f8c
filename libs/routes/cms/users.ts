/** cms/v2 users and their application passwords (reference: the users and application-passwords controllers). */
import { endpoint } from '../../rest/params';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { APP_PASSWORD_NAME_MAX, USER_LIMITS } from '../../auth/limits';
import { collectionParams, contextArg, forceArg, idListArg, offsetArg, orderArg } from '../common';

const NS = 'cms/v2';

/** Writable user fields (create requires username, email and password: `required` is what they add). */
function userWriteArgs<const Q extends { required?: true }>(required: Q) {
  // `required` is `{ required: true }` on a create and `{}` on an update (which has no key at all).
  return {
    // The username's, slug's and URL's lengths are checked where they are stored, with the reference's
    // own errors (libs/auth/limits.ts); the other bounds are declared here.
    username: Object.assign({ description: 'Login name for the user.', type: 'string' as const }, required, { minLength: 1 }),
    name: { description: 'Display name for the user.', type: 'string', maxLength: USER_LIMITS.name },
    first_name: { description: 'First name for the user.', type: 'string', maxLength: USER_LIMITS.first_name },
    last_name: { description: 'Last name for the user.', type: 'string', maxLength: USER_LIMITS.last_name },
    email: Object.assign({ description: 'The email address for the user.', type: 'string' as const, format: 'email' }, required, {
      maxLength: USER_LIMITS.email,
    }),
    url: { description: 'URL of the user.', type: 'string', format: 'uri' },
    description: { description: 'Description of the user.', type: 'string', maxLength: USER_LIMITS.description },
    locale: { description: 'Locale for the user.', type: 'string', enum: ['', 'en_US'] as const },
    nickname: { description: 'The nickname for the user.', type: 'string', maxLength: USER_LIMITS.nickname },
    slug: { description: 'An alphanumeric identifier for the user.', type: 'string', pattern: '^[a-z0-9_-]+$' },
    roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' } },
    password: Object.assign({ description: 'Password for the user (never included).', type: 'string' as const, minLength: 1 }, required),
    meta: { description: 'Meta fields.', type: 'object', properties: {}, additionalProperties: false },
  } satisfies Record<string, ArgDecl>;
}

export const USER_ORDERBY = ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'] as const;

/** Values of the users list's `search_columns` (services/content/users/search.ts reads them). */
export const SEARCH_COLUMNS = ['email', 'name', 'id', 'username', 'slug'] as const;

/** An application password's name: required on a create (`required` adds it), bounded (APP_PASSWORD_NAME_MAX). */
function appPasswordNameArg<const Q extends { required?: true }>(required: Q) {
  return Object.assign({ description: 'The name of the application password.', type: 'string' as const }, required, {
    minLength: 1,
    maxLength: APP_PASSWORD_NAME_MAX,
    pattern: '.*\\S.*',
  });
}

const userIdArg = () => ({ description: 'Unique identifier for the user.', type: 'integer' }) satisfies ArgDecl;
const reassignArg = () => ({ type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true }) satisfies ArgDecl;
const appUserIdArg = () => ({ description: 'Unique identifier for the user, or "me".', type: 'string' }) satisfies ArgDecl;
const uuidArg = () => ({ description: 'The unique identifier for the application password.', type: 'string' }) satisfies ArgDecl;

export const USER_ENDPOINTS = {
  list: endpoint({
    id: 'cms.users.list',
    service: 'content',
    methods: ['GET'],
    args: {
      ...collectionParams(),
      exclude: idListArg('Ensure result set excludes specific IDs.'),
      include: idListArg('Limit result set to specific IDs.'),
      offset: offsetArg(),
      order: orderArg('asc'),
      orderby: { description: 'Sort collection by user attribute.', type: 'string', default: 'name', enum: USER_ORDERBY },
      slug: { description: 'Limit result set to users with one or more specific slugs.', type: 'array', items: { type: 'string' } },
      roles: { description: 'Limit result set to users matching at least one specific role provided.', type: 'array', items: { type: 'string' } },
      capabilities: {
        description: 'Limit result set to users matching at least one specific capability provided.',
        type: 'array',
        items: { type: 'string' },
      },
      who: { description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] as const },
      has_published_posts: { description: 'Limit result set to users who have published posts.', type: ['boolean', 'array'], items: { type: 'string' } },
      search_columns: {
        default: [],
        description: 'Array of column names to be searched.',
        type: 'array',
        items: { enum: SEARCH_COLUMNS, type: 'string' },
      },
    },
  }),
  create: endpoint({ id: 'cms.users.create', service: 'content', methods: ['POST'], args: userWriteArgs({ required: true }) }),
  get: endpoint({ id: 'cms.users.get', service: 'content', methods: ['GET'], args: { id: userIdArg(), context: contextArg('view') }, captures: ['id'] }),
  update: endpoint({ id: 'cms.users.update', service: 'content', methods: EDITABLE, args: { id: userIdArg(), ...userWriteArgs({}) }, captures: ['id'] }),
  delete: endpoint({
    id: 'cms.users.delete',
    service: 'content',
    methods: DELETABLE,
    args: { id: userIdArg(), force: forceArg('Required to be true, as users do not support trashing.'), reassign: reassignArg() },
    captures: ['id'],
  }),
  me: {
    get: endpoint({ id: 'cms.users.me.get', service: 'content', methods: ['GET'], args: { context: contextArg('view') } }),
    update: endpoint({ id: 'cms.users.me.update', service: 'content', methods: EDITABLE, args: userWriteArgs({}) }),
    delete: endpoint({
      id: 'cms.users.me.delete',
      service: 'content',
      methods: DELETABLE,
      args: { force: forceArg('Required to be true, as users do not support trashing.'), reassign: reassignArg() },
    }),
  },
};

export const APP_PASSWORD_ENDPOINTS = {
  list: endpoint({
    id: 'cms.app_passwords.list',
    service: 'content',
    methods: ['GET'],
    args: { user_id: appUserIdArg(), context: contextArg('view', ['view', 'embed', 'edit']) },
    captures: ['user_id'],
  }),
  create: endpoint({
    id: 'cms.app_passwords.create',
    service: 'content',
    methods: ['POST'],
    args: {
      user_id: appUserIdArg(),
      app_id: {
        description: 'A UUID provided by the application to uniquely identify it.',
        type: 'string',
        anyOf: [
          { type: 'string', format: 'uuid' },
          { type: 'string', enum: [''] },
        ],
      },
      name: appPasswordNameArg({ required: true }),
    },
    captures: ['user_id'],
  }),
  deleteAll: endpoint({ id: 'cms.app_passwords.delete_all', service: 'content', methods: DELETABLE, args: { user_id: appUserIdArg() }, captures: ['user_id'] }),
  introspect: endpoint({
    id: 'cms.app_passwords.introspect',
    service: 'content',
    methods: ['GET'],
    args: { user_id: appUserIdArg(), context: contextArg('view') },
    captures: ['user_id'],
  }),
  get: endpoint({
    id: 'cms.app_passwords.get',
    service: 'content',
    methods: ['GET'],
    args: { user_id: appUserIdArg(), uuid: uuidArg(), context: contextArg('view') },
    captures: ['user_id', 'uuid'],
  }),
  update: endpoint({
    id: 'cms.app_passwords.update',
    service: 'content',
    methods: EDITABLE,
    args: {
      user_id: appUserIdArg(),
      uuid: uuidArg(),
      name: appPasswordNameArg({}),
    },
    captures: ['user_id', 'uuid'],
  }),
  delete: endpoint({
    id: 'cms.app_passwords.delete',
    service: 'content',
    methods: DELETABLE,
    args: { user_id: appUserIdArg(), uuid: uuidArg() },
    captures: ['user_id', 'uuid'],
  }),
};

export function registerUserRoutes(registry: RouteRegistry): void {
  const u = USER_ENDPOINTS;
  registry.add({ namespace: NS, pattern: '/cms/v2/users', endpoints: [u.list, u.create] });
  registry.add({ namespace: NS, pattern: '/cms/v2/users/(?P<id>[\\d]+)', endpoints: [u.get, u.update, u.delete] });
  registry.add({ namespace: NS, pattern: '/cms/v2/users/me', endpoints: [u.me.get, u.me.update, u.me.delete] });

  const a = APP_PASSWORD_ENDPOINTS;
  const base = '/cms/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  registry.add({ namespace: NS, pattern: base, endpoints: [a.list, a.create, a.deleteAll] });
  registry.add({ namespace: NS, pattern: `${base}/introspect`, endpoints: [a.introspect] });
  registry.add({ namespace: NS, pattern: `${base}/(?P<uuid>[\\w\\-]+)`, endpoints: [a.get, a.update, a.delete] });
}
