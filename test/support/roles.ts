/**
 * One user per role of the reference (subscriber to administrator), each with an application password,
 * for permission tests; `as(role)` sends a request authenticated as that user, `as('guest')` anonymously.
 */
import type { ApiResponse, RequestOptions, TestApp } from './app';

export const ROLES = ['subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
export type RoleName = (typeof ROLES)[number];
export type Who = RoleName | 'guest';

export interface RoleUsers {
  ids: Record<RoleName, number>;
  as<T = any>(who: Who, method: string, path: string, opts?: Omit<RequestOptions, 'auth'>): Promise<ApiResponse<T>>;
}

export async function createRoleUsers(app: Pick<TestApp, 'admin' | 'request'>, prefix = 'r'): Promise<RoleUsers> {
  const ids = {} as Record<RoleName, number>;
  const creds = {} as Record<RoleName, [string, string]>;
  for (const role of ROLES) {
    const login = `${prefix}-${role}`;
    const user = await app.admin('POST', '/cms/v2/users', {
      body: { username: login, email: `${login}@example.com`, password: 'pw-123456', roles: [role], name: `The ${role}` },
    });
    if (user.status !== 201) throw new Error(`creating ${role}: ${user.status} ${JSON.stringify(user.body)}`);
    const ap = await app.admin('POST', `/cms/v2/users/${user.body.id}/application-passwords`, { body: { name: 'tests' } });
    ids[role] = user.body.id;
    creds[role] = [login, ap.body.password];
  }
  return {
    ids,
    as: (who, method, path, opts = {}) => app.request(method, path, { ...opts, auth: who === 'guest' ? null : creds[who] }),
  };
}
