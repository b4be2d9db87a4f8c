/**
 * Endpoints the gateway answers itself (the site index, the batch executor, cms-abilities/v1), bound
 * through their endpoint constants as services bind theirs (ServiceApp.bind): the handler's `params`
 * are typed from the constant's declarations. RestServer.builtin takes an endpoint id and hands on the
 * validated arguments untyped; this is the gateway's counterpart of HandlerContext.input.
 */
import type { ArgMap, Endpoint, ParamsOf } from '../../libs/rest/params';
import type { CompiledRoute } from '../../libs/rest/registry';
import type { BuiltinHandler, RestOutput, RestServer } from '../../libs/rest/server';

/** What a builtin bound to an endpoint constant receives: its arguments typed, the other parameters of the request as they came. */
export type TypedBuiltinArgs<P> = Omit<Parameters<BuiltinHandler>[0], 'params'> & { params: Readonly<Record<string, unknown>> & P };

/**
 * Whether the arguments were validated against this endpoint's declarations: the route the request
 * matched lists this very constant, and RestServer validated the arguments against the endpoint it
 * dispatches to (libs/rest/server.ts `validate`) before calling its builtin.
 */
function validatedFor<A extends ArgMap, C extends string>(
  ep: Endpoint<A, C>,
  route: CompiledRoute,
  _params: Record<string, unknown>,
): _params is Record<string, unknown> & ParamsOf<A, C> {
  return route.endpoints.includes(ep);
}

/** Answers an endpoint constant's requests in the gateway; a constant that is not the one its route lists fails at start-up. */
export function builtinFor<A extends ArgMap, C extends string>(
  server: RestServer,
  ep: Endpoint<A, C>,
  handler: (args: TypedBuiltinArgs<ParamsOf<A, C>>) => Promise<RestOutput>,
): RestServer {
  const found = server.registry.endpoint(ep.id);
  if (!found) throw new Error(`gateway: no endpoint ${ep.id} in the route registry`);
  if (found.endpoint !== ep) throw new Error(`gateway: endpoint ${ep.id} is not the constant the route declares`);
  if (ep.service !== 'gateway') throw new Error(`gateway: endpoint ${ep.id} belongs to ${ep.service}`);
  return server.builtin(ep.id, async (args) => {
    const { params } = args;
    // Builtins are found by endpoint id, which names one endpoint of one route: this always holds.
    if (!validatedFor(ep, args.route, params)) throw new Error(`gateway: ${ep.id} answered for a route that does not declare it`);
    return handler({ ...args, params });
  });
}
