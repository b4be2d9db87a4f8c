/** cms/v2/users/{user_id}/application-passwords (reference: the application-passwords controller). */
import { can, type Caller } from '#libs/auth/user';
import { chunkPassword } from '#libs/auth/passwords';
import type { AppPasswordDoc, UserDoc } from '#libs/auth/users';
import { RestError, authStatus } from '#libs/rest/errors';
import { rfc3339Gmt } from '#libs/dates/format';
import { restUrl, type Site } from '#libs/rest/site';
import type { AnyParams, HandlerContext, ServiceApp } from '#libs/rest/service';
import { APP_PASSWORD_ENDPOINTS } from '#libs/routes/cms/users';
import type { ContentDeps } from '../deps';

function present(user: UserDoc, ap: AppPasswordDoc, site: Site, password?: string): Record<string, unknown> {
  return {
    uuid: ap.uuid,
    app_id: ap.app_id,
    name: ap.name,
    created: rfc3339Gmt(new Date(ap.created)),
    last_used: ap.last_used ? rfc3339Gmt(new Date(ap.last_used)) : null,
    last_ip: ap.last_ip,
    ...(password !== undefined ? { password: chunkPassword(password) } : {}),
    _links: { self: [{ href: restUrl(site, `/cms/v2/users/${user.id}/application-passwords/${ap.uuid}`) }] },
  };
}

/** edit_user on the owner: yourself, or edit_users (administrators only for administrators). */
function mayManage(caller: Caller, owner: UserDoc): boolean {
  if (!caller) return false;
  if (caller.id === owner.id) return true;
  return can(caller, 'edit_users') && (!owner.roles.includes('administrator') || caller.roles.includes('administrator'));
}

/** What every application-password route captures: the owner, by id or `me`. */
type OwnerInput = AnyParams & { readonly user_id: string };

async function owner(ctx: HandlerContext<OwnerInput>, deps: ContentDeps): Promise<UserDoc> {
  return ctx.once('owner', async () => {
    const raw = ctx.input.user_id;
    if (raw === 'me') {
      if (!ctx.user) throw new RestError('rest_not_logged_in', 'You are not currently logged in.', 401);
      const me = await deps.users.byId(ctx.user.id);
      if (!me) throw new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
      return me;
    }
    const id = Number(raw);
    const u = id > 0 ? await deps.users.byId(id) : null;
    if (!u) throw new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
    return u;
  });
}

function findItem(list: AppPasswordDoc[], uuid: string): AppPasswordDoc {
  const ap = list.find((p) => p.uuid === uuid);
  if (!ap) throw new RestError('rest_application_password_not_found', 'Application password not found.', 404);
  return ap;
}

function guard(code: string, message: string) {
  return (deps: ContentDeps) => async (ctx: HandlerContext<OwnerInput>) => {
    const u = await owner(ctx, deps);
    return mayManage(ctx.user, u) ? (true as const) : new RestError(code, message, authStatus(ctx.user));
  };
}

const canList = guard('rest_cannot_list_application_passwords', 'Sorry, you are not allowed to list application passwords for this user.');
const canCreate = guard('rest_cannot_create_application_passwords', 'Sorry, you are not allowed to create application passwords for this user.');
const canRead = guard('rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.');
const canEdit = guard('rest_cannot_edit_application_password', 'Sorry, you are not allowed to edit this application password.');
const canDelete = guard('rest_cannot_delete_application_password', 'Sorry, you are not allowed to delete this application password.');
const canDeleteAll = guard('rest_cannot_delete_application_passwords', 'Sorry, you are not allowed to delete application passwords for this user.');

export function bindAppPasswords(app: ServiceApp, deps: ContentDeps): void {
  const { site, users } = deps;

  app.bind(APP_PASSWORD_ENDPOINTS.list, {
    permission: canList(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      return { body: (await users.appPasswords(u.id)).map((ap) => present(u, ap, site)) };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.create, {
    permission: canCreate(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      const name = ctx.input.name.trim();
      if (!name) throw new RestError('application_password_empty_name', 'An application name is required to create an application password.', 400);
      if ((await users.appPasswords(u.id)).some((p) => p.name === name)) {
        throw new RestError('application_password_duplicate_name', 'Each application name should be unique.', 409);
      }
      const { record, password } = await users.addAppPassword(u.id, name, ctx.input.app_id ?? '');
      return {
        status: 201,
        body: present(u, record, site, password),
        headers: { Location: restUrl(site, `/cms/v2/users/${u.id}/application-passwords/${record.uuid}`) },
      };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.deleteAll, {
    permission: canDeleteAll(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      const count = (await users.appPasswords(u.id)).length;
      await users.setAppPasswords(u.id, []);
      return { body: { deleted: true, count } };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.introspect, {
    permission: canRead(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      if (ctx.user?.id !== u.id) {
        throw new RestError(
          'rest_cannot_introspect_app_password_for_non_authenticated_user',
          'The authenticated application password can only be introspected for the current user.',
          authStatus(ctx.user),
        );
      }
      const uuid = ctx.user.appPassword;
      const ap = uuid ? (await users.appPasswords(u.id)).find((p) => p.uuid === uuid) : undefined;
      if (!ap) throw new RestError('rest_no_authenticated_app_password', 'Cannot introspect application password.', 404);
      return { body: present(u, ap, site) };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.get, {
    permission: canRead(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      return { body: present(u, findItem(await users.appPasswords(u.id), ctx.input.uuid), site) };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.update, {
    permission: canEdit(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      const all = await users.appPasswords(u.id);
      const ap = findItem(all, ctx.input.uuid);
      let updated = ap;
      if (ctx.input.name != null) {
        const name = ctx.input.name.trim();
        if (all.some((p) => p.name === name && p.uuid !== ap.uuid)) {
          throw new RestError('application_password_duplicate_name', 'Each application name should be unique.', 409);
        }
        updated = { ...ap, name };
        await users.setAppPasswords(
          u.id,
          all.map((p) => (p.uuid === ap.uuid ? updated : p)),
        );
      }
      return { body: present(u, updated, site) };
    },
  });

  app.bind(APP_PASSWORD_ENDPOINTS.delete, {
    permission: canDelete(deps),
    async handle(ctx) {
      const u = await owner(ctx, deps);
      const all = await users.appPasswords(u.id);
      const ap = findItem(all, ctx.input.uuid);
      await users.setAppPasswords(
        u.id,
        all.filter((p) => p.uuid !== ap.uuid),
      );
      return { body: { deleted: true, previous: present(u, ap, site) } };
    },
  });
}
