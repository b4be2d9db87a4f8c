/** cms/v2/users: list, create, get, update, delete, and the `me` aliases (reference: the users controller). */
import { can, type Caller } from '#libs/auth/user';
import { ROLE_CAPS, isRole } from '#libs/auth/roles';
import { hashAccountPassword } from '#libs/auth/passwords';
import { savedProfile } from '#libs/auth/profile-fields';
import type { UserDoc } from '#libs/auth/users';
import { RestError, authStatus } from '#libs/rest/errors';
import { listSkip, pagingHeaders } from '#libs/rest/paging';
import { restUrl } from '#libs/rest/site';
import type { AnyParams, HandlerContext, ServiceApp } from '#libs/rest/service';
import { shared, type InputOf, type Shared } from '#libs/rest/params';
import { USER_ENDPOINTS } from '#libs/routes/cms/users';
import type { Filter, SortSpec } from '#libs/store/types';
import { DuplicateKeyError } from '#libs/store/types';
import type { ContentDeps } from '../deps';
import { contextOf } from '../context';
import { presentUser } from './present';
import { userSearchFilter } from './search';

/** Post types whose published records make their authors public (the reference's has_published_posts). */
const PUBLIC_AUTHOR_TYPES = ['post', 'page', 'vendor_events', 'vendor_venue', 'vendor_organizer'];

const invalidId = () => new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
const notLoggedIn = () => new RestError('rest_not_logged_in', 'You are not currently logged in.', 401);

function canEditUser(user: Caller, target: UserDoc): boolean {
  if (!user) return false;
  if (user.id === target.id) return true;
  if (!can(user, 'edit_users')) return false;
  // Only administrators edit administrators.
  return !target.roles.includes('administrator') || user.roles.includes('administrator');
}

/** What a create and the two updates write. */
type WriteInput = InputOf<Shared<typeof USER_ENDPOINTS.create | typeof USER_ENDPOINTS.update | typeof USER_ENDPOINTS.me.update>>;

/** The user an item route names: the caller on `users/me`, else the `id` the route captured (always there). */
async function loadTarget(ctx: HandlerContext<AnyParams & { readonly id?: number }>, deps: ContentDeps, me: boolean): Promise<UserDoc> {
  return ctx.once('target', async () => {
    if (me) {
      if (!ctx.user) throw notLoggedIn();
      const u = await deps.users.byId(ctx.user.id);
      if (!u) throw invalidId();
      return u;
    }
    const id = ctx.input.id ?? 0;
    const u = id > 0 ? await deps.users.byId(id) : null;
    if (!u) throw invalidId();
    return u;
  });
}

async function publishedAuthorIds(deps: ContentDeps): Promise<number[]> {
  const ids = await deps.posts.distinct('author', { status: 'publish', type: { $in: PUBLIC_AUTHOR_TYPES } });
  return ids.map(Number);
}

function validateRoles(roles: string[]): string[] {
  for (const r of roles) if (!isRole(r)) throw new RestError('rest_user_invalid_role', 'Role is invalid.', 400);
  return roles;
}

const LOGIN = /^[A-Za-z0-9 _.\-@]+$/;

/** Field changes from the request, shared by create and update. */
function changesFrom(ctx: HandlerContext<WriteInput>): Partial<UserDoc> & { password?: string } {
  const p = ctx.input;
  const out: Partial<UserDoc> & { password?: string } = {};
  const copy = ['name', 'first_name', 'last_name', 'url', 'description', 'nickname', 'slug'] as const satisfies ReadonlyArray<keyof UserDoc>;
  for (const field of copy) {
    const v = p[field];
    if (v != null) out[field] = v;
  }
  // Profile fields are stored as the reference's pre_user_* filters leave them.
  Object.assign(out, savedProfile(out));
  if (p.locale != null) out.locale = p.locale || 'en_US';
  if (p.email != null) out.email = p.email.toLowerCase();
  if (p.password != null) out.password = p.password;
  return out;
}

const invalidSlug = () => new RestError('rest_user_invalid_slug', 'Invalid slug.', 400);

/** The reference's answer to a write a unique index refused (another user took the login, e-mail or slug meanwhile). */
function duplicateError(e: DuplicateKeyError): RestError {
  if (e.keys.includes('email')) return new RestError('existing_user_email', 'Sorry, that email address is already used!', 400);
  if (e.keys.includes('slug')) return invalidSlug();
  return new RestError('existing_user_login', 'Sorry, that username already exists!', 400);
}

async function ensureUnique(deps: ContentDeps, changes: { login?: string; email?: string }, selfId?: number): Promise<void> {
  if (changes.login) {
    const other = await deps.users.byLogin(changes.login);
    if (other && other.id !== selfId) throw new RestError('existing_user_login', 'Sorry, that username already exists!', 400);
  }
  if (changes.email) {
    const other = await deps.users.byEmail(changes.email);
    if (other && other.id !== selfId) throw new RestError('existing_user_email', 'Sorry, that email address is already used!', 400);
  }
}

export function bindUsers(app: ServiceApp, deps: ContentDeps): void {
  const { site } = deps;

  app.bind(USER_ENDPOINTS.list, {
    async permission(ctx) {
      const p = ctx.input;
      if (p.context === 'edit' && !can(ctx.user, 'list_users')) {
        return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to list users.', authStatus(ctx.user));
      }
      if ((p.orderby === 'email' || p.orderby === 'registered_date') && !can(ctx.user, 'list_users')) {
        return new RestError('rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.', authStatus(ctx.user));
      }
      if (p.who === 'authors' && !can(ctx.user, 'edit_posts')) {
        return new RestError('rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.', authStatus(ctx.user));
      }
      // Permission checks also decide Allow for the route's other endpoints (ServiceApp.allowedMethods), with
      // this request's arguments: a create's `capabilities` is undeclared, so the types are tested.
      if ((Array.isArray(p.roles) && p.roles.length) || (Array.isArray(p.capabilities) && p.capabilities.length)) {
        if (!can(ctx.user, 'list_users'))
          return new RestError('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.', authStatus(ctx.user));
      }
      return true;
    },
    async handle(ctx) {
      const p = ctx.input;
      const and: Filter[] = [];
      const include = p.include ?? [];
      const exclude = p.exclude ?? [];
      const slugs = p.slug ?? [];
      if (include.length) and.push({ id: { $in: include } });
      if (exclude.length) and.push({ id: { $nin: exclude } });
      if (slugs.length) and.push({ slug: { $in: slugs } });
      if (p.roles?.length) and.push({ roles: { $in: p.roles } });
      if (p.who === 'authors') and.push({ roles: { $in: ['administrator', 'editor', 'author', 'contributor'] } });
      const search = p.search ? userSearchFilter(p.search, p.search_columns ?? [], can(ctx.user, 'list_users')) : null;
      if (search) and.push(search);
      const capabilities = p.capabilities ?? [];
      if (capabilities.length) {
        const roles = Object.entries(ROLE_CAPS)
          .filter(([, caps]) => capabilities.some((c) => caps.has(c)))
          .map(([r]) => r);
        and.push({ roles: { $in: roles } });
      }
      const restrict = !can(ctx.user, 'list_users') || p.has_published_posts === true || Array.isArray(p.has_published_posts);
      if (restrict) and.push({ id: { $in: await publishedAuthorIds(deps) } });

      const dir = p.order === 'desc' ? -1 : 1;
      const orderby = p.orderby;
      const sortField: Record<string, string> = {
        id: 'id',
        name: 'name',
        registered_date: 'registered',
        slug: 'slug',
        email: 'email',
        url: 'url',
        include: 'id',
        include_slugs: 'slug',
      };
      const sort: SortSpec = [
        [sortField[orderby] ?? 'name', dir],
        ['id', dir],
      ];
      const filter: Filter = and.length ? { $and: and } : {};
      const perPage = p.per_page;
      const page = p.page;
      const skip = listSkip(p.offset, page, perPage);
      const [items, total] = await Promise.all([deps.users.find(filter, { sort, skip, limit: perPage }), deps.users.count(filter)]);
      if (orderby === 'include' && include.length) items.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
      if (orderby === 'include_slugs' && p.slug) items.sort((a, b) => slugs.indexOf(a.slug) - slugs.indexOf(b.slug));
      const context = contextOf(ctx.input.context);
      return {
        body: items.map((u) => presentUser(u, site, context)),
        headers: pagingHeaders(site, '/cms/v2/users', ctx.req.query, page, perPage, total),
      };
    },
  });

  app.bind(USER_ENDPOINTS.create, {
    async permission(ctx) {
      if (!can(ctx.user, 'create_users'))
        return new RestError('rest_cannot_create_user', 'Sorry, you are not allowed to create new users.', authStatus(ctx.user));
      return true;
    },
    async handle(ctx) {
      // `id` is no argument of a create: any the request carries is refused.
      if (ctx.params.id !== undefined) throw new RestError('rest_user_exists', 'Cannot create existing user.', 400);
      const p = ctx.input;
      const login = p.username.trim();
      if (!LOGIN.test(login)) {
        throw new RestError('rest_user_invalid_username', 'This username is invalid because it uses illegal characters. Please enter a valid username.', 400);
      }
      const roles = p.roles !== undefined ? validateRoles(p.roles ?? []) : ['subscriber'];
      if (roles.includes('administrator') && !ctx.user?.roles.includes('administrator')) {
        throw new RestError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403);
      }
      const changes = changesFrom(ctx);
      await ensureUnique(deps, { login, email: changes.email });
      try {
        const doc = await deps.users.create({ ...changes, login, email: changes.email!, password: changes.password!, roles });
        return {
          status: 201,
          body: presentUser(doc, site, 'edit'),
          headers: { Location: restUrl(site, `/cms/v2/users/${doc.id}`) },
        };
      } catch (e) {
        throw e instanceof DuplicateKeyError ? duplicateError(e) : e;
      }
    },
  });

  for (const [me, eps] of [
    [false, USER_ENDPOINTS],
    [true, USER_ENDPOINTS.me],
  ] as const) {
    app.bind(shared(eps.get), {
      async permission(ctx) {
        // `users/me` is public in the reference; its handler answers a guest with rest_not_logged_in.
        if (me) return true;
        const target = await loadTarget(ctx, deps, me);
        if (ctx.user?.id === target.id) return true;
        if (ctx.input.context === 'edit' && !can(ctx.user, 'list_users')) {
          return new RestError('rest_forbidden_context', 'Sorry, you are not allowed to list users.', authStatus(ctx.user));
        }
        if (!can(ctx.user, 'list_users') && !(await publishedAuthorIds(deps)).includes(target.id)) {
          return new RestError('rest_user_cannot_view', 'Sorry, you are not allowed to list users.', authStatus(ctx.user));
        }
        return true;
      },
      async handle(ctx) {
        const target = await loadTarget(ctx, deps, me);
        return { body: presentUser(target, site, contextOf(ctx.input.context)) };
      },
    });

    app.bind(shared(eps.update), {
      async permission(ctx) {
        const target = await loadTarget(ctx, deps, me);
        if (!canEditUser(ctx.user, target)) return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this user.', authStatus(ctx.user));
        if (ctx.input.roles !== undefined && !can(ctx.user, 'promote_users')) {
          return new RestError('rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', authStatus(ctx.user));
        }
        return true;
      },
      async handle(ctx) {
        const target = await loadTarget(ctx, deps, me);
        const p = ctx.input;
        if (p.username != null && p.username !== target.login) throw new RestError('rest_user_invalid_argument', "Username isn't editable.", 400);
        // Another user's slug is refused, never suffixed (the users controller's update_item).
        if (p.slug != null && p.slug !== target.slug && (await deps.users.slugTaken(p.slug, target.login))) throw invalidSlug();
        const changes = changesFrom(ctx);
        const set: Record<string, unknown> = { ...changes };
        delete set.password;
        if (p.roles !== undefined) {
          const roles = validateRoles(p.roles ?? []);
          if (ctx.user?.id === target.id && !roles.includes('administrator') && target.roles.includes('administrator')) {
            throw new RestError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403);
          }
          set.roles = roles;
        }
        await ensureUnique(deps, { email: changes.email }, target.id);
        if (changes.password) {
          set.pass_hash = await hashAccountPassword(changes.password);
        }
        try {
          if (Object.keys(set).length) await deps.users.setAccount(target.id, set);
        } catch (e) {
          throw e instanceof DuplicateKeyError ? duplicateError(e) : e;
        }
        const fresh = (await deps.users.byId(target.id))!;
        return { body: presentUser(fresh, site, 'edit') };
      },
    });

    app.bind(shared(eps.delete), {
      async permission(ctx) {
        await loadTarget(ctx, deps, me);
        if (!can(ctx.user, 'delete_users')) {
          return new RestError('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', authStatus(ctx.user));
        }
        return true;
      },
      async handle(ctx) {
        const target = await loadTarget(ctx, deps, me);
        if (!ctx.input.force) {
          throw new RestError('rest_trash_not_supported', "Users do not support trashing. Set 'force' to true to delete.", 501);
        }
        const reassign = ctx.input.reassign;
        if (reassign) {
          if (reassign === target.id || !(await deps.users.byId(reassign))) {
            throw new RestError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
          }
        }
        const previous = presentUser(target, site, 'edit');
        if (reassign) await deps.posts.reassignAuthor(target.id, reassign);
        else await deps.posts.deleteByAuthor(target.id);
        await deps.users.remove(target.id);
        return { body: { deleted: true, previous } };
      },
    });
  }
}
