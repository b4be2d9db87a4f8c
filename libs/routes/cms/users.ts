/** cms/v2 users and their application passwords (reference: the users and application-passwords controllers). */
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { collectionParams, contextArg, forceArg, idListArg, offsetArg, orderArg } from '../common';

const NS = 'cms/v2';

/** Writable user fields (create requires username, email and password). */
function userWriteArgs(create: boolean): Record<string, ArgDecl> {
  return {
    username: { description: 'Login name for the user.', type: 'string', ...(create ? { required: true } : {}), minLength: 1, maxLength: 60 },
    name: { description: 'Display name for the user.', type: 'string', maxLength: 250 },
    first_name: { description: 'First name for the user.', type: 'string' },
    last_name: { description: 'Last name for the user.', type: 'string' },
    email: { description: 'The email address for the user.', type: 'string', format: 'email', ...(create ? { required: true } : {}) },
    url: { description: 'URL of the user.', type: 'string', format: 'uri' },
    description: { description: 'Description of the user.', type: 'string' },
    locale: { description: 'Locale for the user.', type: 'string', enum: ['', 'en_US'] },
    nickname: { description: 'The nickname for the user.', type: 'string' },
    slug: { description: 'An alphanumeric identifier for the user.', type: 'string', pattern: '^[a-z0-9_-]+$' },
    roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' } },
    password: { description: 'Password for the user (never included).', type: 'string', minLength: 1, ...(create ? { required: true } : {}) },
    meta: { description: 'Meta fields.', type: 'object', properties: {}, additionalProperties: false },
  };
}

export const USER_ORDERBY = ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'];

export function registerUserRoutes(registry: RouteRegistry): void {
  registry.add({
    namespace: NS,
    pattern: '/cms/v2/users',
    endpoints: [
      {
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
          who: { description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] },
          has_published_posts: { description: 'Limit result set to users who have published posts.', type: ['boolean', 'array'], items: { type: 'string' } },
        },
      },
      { id: 'cms.users.create', service: 'content', methods: ['POST'], args: userWriteArgs(true) },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: '/cms/v2/users/(?P<id>[\\d]+)',
    endpoints: [
      {
        id: 'cms.users.get',
        service: 'content',
        methods: ['GET'],
        args: { id: { description: 'Unique identifier for the user.', type: 'integer' }, context: contextArg('view') },
      },
      {
        id: 'cms.users.update',
        service: 'content',
        methods: EDITABLE,
        args: { id: { description: 'Unique identifier for the user.', type: 'integer' }, ...userWriteArgs(false) },
      },
      {
        id: 'cms.users.delete',
        service: 'content',
        methods: DELETABLE,
        args: {
          id: { description: 'Unique identifier for the user.', type: 'integer' },
          force: forceArg('Required to be true, as users do not support trashing.'),
          reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true },
        },
      },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: '/cms/v2/users/me',
    endpoints: [
      { id: 'cms.users.me.get', service: 'content', methods: ['GET'], args: { context: contextArg('view') } },
      { id: 'cms.users.me.update', service: 'content', methods: EDITABLE, args: userWriteArgs(false) },
      {
        id: 'cms.users.me.delete',
        service: 'content',
        methods: DELETABLE,
        args: {
          force: forceArg('Required to be true, as users do not support trashing.'),
          reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true },
        },
      },
    ],
  });

  const userId: ArgDecl = { description: 'Unique identifier for the user, or "me".', type: 'string' };
  const base = '/cms/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  registry.add({
    namespace: NS,
    pattern: base,
    endpoints: [
      { id: 'cms.app_passwords.list', service: 'content', methods: ['GET'], args: { user_id: userId, context: contextArg('view', ['view', 'embed', 'edit']) } },
      {
        id: 'cms.app_passwords.create',
        service: 'content',
        methods: ['POST'],
        args: {
          user_id: userId,
          app_id: {
            description: 'A UUID provided by the application to uniquely identify it.',
            type: 'string',
            anyOf: [
              { type: 'string', format: 'uuid' },
              { type: 'string', enum: [''] },
            ],
          },
          name: { description: 'The name of the application password.', type: 'string', required: true, minLength: 1, pattern: '.*\\S.*' },
        },
      },
      { id: 'cms.app_passwords.delete_all', service: 'content', methods: DELETABLE, args: { user_id: userId } },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${base}/introspect`,
    endpoints: [{ id: 'cms.app_passwords.introspect', service: 'content', methods: ['GET'], args: { user_id: userId, context: contextArg('view') } }],
  });
  const uuid: ArgDecl = { description: 'The unique identifier for the application password.', type: 'string' };
  registry.add({
    namespace: NS,
    pattern: `${base}/(?P<uuid>[\\w\\-]+)`,
    endpoints: [
      { id: 'cms.app_passwords.get', service: 'content', methods: ['GET'], args: { user_id: userId, uuid, context: contextArg('view') } },
      {
        id: 'cms.app_passwords.update',
        service: 'content',
        methods: EDITABLE,
        args: { user_id: userId, uuid, name: { description: 'The name of the application password.', type: 'string', minLength: 1, pattern: '.*\\S.*' } },
      },
      { id: 'cms.app_passwords.delete', service: 'content', methods: DELETABLE, args: { user_id: userId, uuid } },
    ],
  });
}
