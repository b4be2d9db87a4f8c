/**
 * Endpoint constants and the parameter types derived from their declarations. A route module declares
 * each endpoint once, as a constant made by `endpoint()`, and lists it in its route; the owning service
 * binds its handler to that constant (`ServiceApp.bind`), and the handler reads `ctx.input`, whose type
 * the compiler derives from the argument declarations: an `integer` argument is a number, an `array` of
 * `string` a string array, an `enum` of literals their union, a `sanitize` callback's result its return
 * type. An argument with a default, a `required` one, or a URL capture is always present; any other may
 * be absent (`undefined`) or a JSON `null` (which no type check rejects, as in the reference).
 *
 * The types hold because the gateway validates and coerces every declared argument before a service sees
 * the request (libs/rest/validate.ts): derive from a declaration only what that validation guarantees.
 * A declaration typed as the wide `ArgDecl` derives `unknown`, so helpers that build declarations return
 * their literal shape (`satisfies ArgDecl`) rather than `ArgDecl`.
 */
import type { ServiceName } from '../config/env';
import { DELETABLE, EDITABLE, type ArgDecl, type EndpointDecl, type JsonType, type Method } from './registry';

export type ArgMap = Readonly<Record<string, ArgDecl>>;

/** The value a validated argument of one JSON type arrives as (libs/rest/validate.ts `coerce`). */
type TypeValue<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'object'
          ? Record<string, unknown>
          : T extends 'array'
            ? unknown[]
            : never;

/** What a declared type (one JSON type or a list of them) arrives as. */
type TypesValue<T> = T extends readonly JsonType[] ? TypeValue<T[number]> : TypeValue<T>;

/** The value a handler receives for one argument declaration, once present. */
export type ValueOf<D> = D extends { sanitize: (...args: never[]) => infer R }
  ? R
  : D extends { type: 'array'; items: infer I }
    ? Array<ValueOf<I>>
    : D extends { type: 'string'; enum: readonly (infer E)[] }
      ? Extract<E, string>
      : D extends { type: infer T }
        ? TypesValue<T>
        : unknown;

/** Whether validation guarantees the argument a value: a default (a null reads as unset), `required`. */
type Always<D> = D extends { required: true } ? true : D extends { default: infer V } ? (undefined extends V ? false : true) : false;

/** A `default: null` is handed on as null (validation skips a null); a `required` argument is never null. */
type DefaultNull<D> = D extends { required: true } ? never : D extends { default: infer V } ? (null extends V ? null : never) : never;

/** The arguments a handler of an endpoint receives, by name; `C` names the URL captures (always present). */
export type ParamsOf<A, C extends string = never> = {
  readonly [K in keyof A]: K extends C ? ValueOf<A[K]> : Always<A[K]> extends true ? ValueOf<A[K]> | DefaultNull<A[K]> : ValueOf<A[K]> | null | undefined;
};

/**
 * An endpoint declaration that keeps its arguments' literal types and names its URL captures: the
 * constant a route lists and a service binds its handler to. `captures` is checked against the route's
 * pattern when the route is added (libs/rest/registry.ts), so the type's claim that they are present holds.
 */
export interface Endpoint<A extends ArgMap = ArgMap, C extends string = string> extends EndpointDecl {
  readonly args: A;
  readonly captures: readonly C[];
}

/** What `endpoint()` takes: an endpoint declaration, its URL captures where it has any. */
export interface EndpointSpec<A extends ArgMap, C extends string> {
  id: string;
  service: ServiceName | 'gateway';
  methods: readonly Method[];
  args: A;
  captures?: readonly C[];
  allowBatch?: boolean;
  upload?: boolean;
}

/** Declares an endpoint as a constant (see the module comment). */
export function endpoint<const A extends ArgMap, const C extends string = never>(spec: EndpointSpec<A, C>): Endpoint<A, C> {
  return { ...spec, methods: [...spec.methods], captures: spec.captures ?? [] };
}

/** The arguments of a resource's five endpoints (see `resourceEndpoints`). */
export interface ResourceArgs<L extends ArgMap, C extends ArgMap, G extends ArgMap, U extends ArgMap, D extends ArgMap> {
  list: L;
  create: C;
  get: G;
  update: U;
  delete: D;
}

/**
 * A resource's five endpoints, ids `{prefix}.list`, `.create`, `.get`, `.update`, `.delete`: list (GET)
 * and create (POST) on the collection; get, update (`updateMethods`) and delete on an item whose URL
 * captures `id`.
 */
export function resourceEndpoints<const L extends ArgMap, const C extends ArgMap, const G extends ArgMap, const U extends ArgMap, const D extends ArgMap>(
  prefix: string,
  service: ServiceName,
  args: ResourceArgs<L, C, G, U, D>,
  updateMethods: readonly Method[] = EDITABLE,
) {
  return {
    list: endpoint({ id: `${prefix}.list`, service, methods: ['GET'], args: args.list }),
    create: endpoint({ id: `${prefix}.create`, service, methods: ['POST'], args: args.create }),
    get: endpoint({ id: `${prefix}.get`, service, methods: ['GET'], args: args.get, captures: ['id'] }),
    update: endpoint({ id: `${prefix}.update`, service, methods: updateMethods, args: args.update, captures: ['id'] }),
    delete: endpoint({ id: `${prefix}.delete`, service, methods: DELETABLE, args: args.delete, captures: ['id'] }),
  };
}

/** The parameters a handler bound to an endpoint constant receives. */
export type InputOf<E> = E extends Endpoint<infer A, infer C> ? ParamsOf<A, C> : never;

type ArgsOf<E> = E extends Endpoint<infer A, string> ? A : never;
type CapturesOf<E> = E extends Endpoint<ArgMap, infer C> ? C : never;

/**
 * One of several endpoints declared alike (ec/v1's events, organizers and venues lists), seen through
 * the arguments they all have, each typed as any of theirs: what a handler bound to whichever of them
 * may read.
 */
export type Shared<E extends Endpoint> = Endpoint<{ readonly [K in keyof ArgsOf<E>]: ArgsOf<E>[K] }, CapturesOf<E>>;

/** Views an endpoint of a family through what the family shares (see Shared). */
export function shared<E extends Endpoint>(ep: E): Shared<E>;
export function shared(ep: Endpoint): Endpoint {
  return ep;
}
