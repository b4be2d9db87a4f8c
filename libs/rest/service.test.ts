import type { AuthUser } from '../auth/user';
import { endpoint } from './params';
import { RouteRegistry } from './registry';
import { ServiceApp, type ServiceRequest } from './service';

const E = {
  get: endpoint({ id: 'a.get', service: 'content', methods: ['GET'], args: { id: { type: 'integer' } }, captures: ['id'] }),
  update: endpoint({ id: 'a.update', service: 'content', methods: ['POST', 'PUT', 'PATCH'], args: { id: { type: 'integer' } }, captures: ['id'] }),
  delete: endpoint({ id: 'a.delete', service: 'content', methods: ['DELETE'], args: { id: { type: 'integer' } }, captures: ['id'] }),
};

const user = (id: number, caps: string[]): AuthUser => ({ id, login: `u${id}`, roles: [], caps });
const request = (id: number, u: AuthUser | null): ServiceRequest => ({
  endpoint: E.get.id,
  method: 'GET',
  path: `/a/v1/things/${id}`,
  params: { id },
  queryKeys: [],
  bodyKeys: [],
  query: {},
  user: u,
  requestId: 'r',
});

/** Records by id: the state the update check declares is the record's status and whether the caller wrote it. */
const records: Record<number, { status: string; author: number }> = { 1: { status: 'publish', author: 5 }, 2: { status: 'draft', author: 5 } };

function setup() {
  const registry = new RouteRegistry();
  registry.add({ namespace: 'a/v1', pattern: '/a/v1/things/(?P<id>[\\d]+)', endpoints: [E.get, E.update, E.delete] });
  const app = new ServiceApp('content', registry);
  const checks = { update: 0, delete: 0 };
  app.bind(E.get, { handle: async () => ({ body: null }) });
  app.bind(E.update, {
    permission: async (ctx) => {
      checks.update++;
      const rec = records[Number(ctx.params.id)];
      if (!ctx.user) return false;
      return rec.author === ctx.user.id ? ctx.user.caps.includes('edit_own') : rec.status === 'draft' && ctx.user.caps.includes('edit_others');
    },
    allowState: async (ctx) => {
      const rec = records[Number(ctx.params.id)];
      return `${rec.status}:${rec.author === ctx.user?.id}`;
    },
    handle: async () => ({ body: null }),
  });
  // No declared state: its check runs for every request's Allow.
  app.bind(E.delete, {
    permission: async (ctx) => (checks.delete++, ctx.user?.caps.includes('delete') ?? false),
    handle: async () => ({ body: null }),
  });
  return { app: app.verify(), checks };
}

describe("ServiceApp's Allow table", () => {
  it('answers as the checks do, running a declared one once per capability set and state', async () => {
    const { app, checks } = setup();
    const editor = user(7, ['edit_others', 'delete']);
    const sameCaps = user(8, ['edit_others', 'delete']);
    const author = user(5, ['edit_own']);
    const allow = async (id: number, u: AuthUser | null) => (await app.dispatch(request(id, u))).allow;

    expect(await allow(1, editor)).toEqual(['GET', 'DELETE']);
    expect(await allow(2, editor)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(await allow(1, author)).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    expect(await allow(2, null)).toEqual(['GET']);
    expect(checks).toEqual({ update: 4, delete: 4 });

    // The same capabilities and states again (another caller with the same capability set): from the table.
    expect(await allow(1, sameCaps)).toEqual(['GET', 'DELETE']);
    expect(await allow(2, editor)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(await allow(1, user(5, ['edit_own']))).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    expect(await allow(2, null)).toEqual(['GET']);
    expect(checks).toEqual({ update: 4, delete: 8 });
  });
});
