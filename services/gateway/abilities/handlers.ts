/**
 * cms-abilities/v1, answered by the gateway (reference: WP_REST_Abilities_V1_Categories_Controller,
 * _List_Controller and _Run_Controller). Reading the catalog needs the `read` capability (any
 * signed-in user); running an ability checks, in the reference's order, that it exists, the HTTP
 * method its annotations call for, its input against its input schema, and its own permission, then
 * runs it and checks its output.
 */
import { can } from '#libs/auth/user';
import { RestError, authStatus, errors } from '#libs/rest/errors';
import { pageSlice, pagingHeaders } from '#libs/rest/paging';
import type { ArgSchema } from '#libs/rest/registry';
import type { InputOf, Shared } from '#libs/rest/params';
import type { BuiltinArgs, RestInput, RestOutput, RestServer } from '#libs/rest/server';
import { restUrl } from '#libs/rest/site';
import { validateArg } from '#libs/rest/validate';
import { ABILITIES_NS, ABILITY_ENDPOINTS as EPS } from '#libs/routes/cms-abilities';
import { ABILITIES, CATEGORIES, type Ability, type AbilityCategory, type Annotations, type RunContext } from './catalog';

const reply = (body: unknown, headers: Record<string, string> = {}, status = 200): RestOutput => ({ status, headers, body });
const failure = (err: RestError): RestOutput => reply(err.toJSON(), {}, err.status);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The context the request asks for; routes that do not declare it read it as the reference does, defaulting to view. */
function contextOf(params: Readonly<Record<string, unknown>>, input: RestInput): string {
  const c = params.context ?? input.query.context;
  return c === 'embed' || c === 'edit' ? c : 'view';
}

function presentCategory(server: RestServer, c: AbilityCategory, context: string): Record<string, unknown> {
  const data: Record<string, unknown> = { slug: c.slug, label: c.label };
  if (context !== 'embed') Object.assign(data, { description: c.description, meta: c.meta });
  data._links = {
    self: [{ href: restUrl(server.site, `/${ABILITIES_NS}/categories/${c.slug}`) }],
    collection: [{ href: restUrl(server.site, `/${ABILITIES_NS}/categories`) }],
    abilities: [{ href: restUrl(server.site, `/${ABILITIES_NS}/abilities`, { category: c.slug }) }],
  };
  return data;
}

function presentAbility(server: RestServer, a: Ability, context: string): Record<string, unknown> {
  const data: Record<string, unknown> = { name: a.name, label: a.label };
  if (context !== 'embed') data.description = a.description;
  data.category = a.category;
  if (context !== 'embed') Object.assign(data, { input_schema: a.input_schema ?? {}, output_schema: a.output_schema ?? {}, meta: a.meta });
  data._links = {
    self: [{ href: restUrl(server.site, `/${ABILITIES_NS}/abilities/${a.name}`) }],
    collection: [{ href: restUrl(server.site, `/${ABILITIES_NS}/abilities`) }],
    'wp:action-run': [{ href: restUrl(server.site, `/${ABILITIES_NS}/abilities/${a.name}/run`) }],
  };
  return data;
}

/** A page of a list as the reference's collections answer it (no error past the last page). */
function page<T>(
  items: T[],
  params: InputOf<Shared<typeof EPS.categories | typeof EPS.list>>,
  input: RestInput,
  server: RestServer,
  path: string,
  present: (item: T) => unknown,
): RestOutput {
  const pageNo = params.page;
  const perPage = params.per_page;
  const headers = pagingHeaders(server.site, path, input.query, pageNo, perPage, items.length);
  const body = pageSlice(items, pageNo, perPage).map(present);
  return reply(body, headers);
}

const readable = (input: RestInput): RestError | null => (can(input.user, 'read') ? null : errors.forbidden(input.user));

const findAbility = (name: string): Ability | undefined => ABILITIES.find((a) => a.name === name && a.meta.show_in_rest);

/** The method the reference expects for an ability's annotations. */
export function expectedMethod(a: Annotations): { method: string; message: string } {
  if (a.readonly) return { method: 'GET', message: 'Read-only abilities require GET method.' };
  if (a.destructive && a.idempotent) return { method: 'DELETE', message: 'Abilities that perform destructive actions require DELETE method.' };
  return { method: 'POST', message: 'Abilities that perform updates require POST method.' };
}

/** Input from the query's `input` for GET and DELETE, from the JSON body's `input` otherwise. */
function rawInput(input: RestInput): unknown {
  if (input.method === 'GET' || input.method === 'HEAD' || input.method === 'DELETE') return input.query.input ?? null;
  return input.bodyType === 'json' && isObj(input.body) ? (input.body.input ?? null) : null;
}

/** normalize_input and validate_input: the schema's default for no input, then coercion and the schema's checks. */
export function checkInput(ability: Ability, value: unknown): { value: unknown } | RestError {
  const schema: ArgSchema | undefined = ability.input_schema;
  if (!schema) {
    if (value === null) return { value };
    return new RestError(
      'ability_missing_input_schema',
      `Ability "${ability.name}" does not define an input schema required to validate the provided input.`,
      400,
    );
  }
  const input = value === null && schema.default !== undefined ? structuredClone(schema.default) : value;
  const r = validateArg('input', input, schema, {});
  if ('error' in r) {
    const reason = typeof r.error === 'string' ? r.error : r.error.message;
    return new RestError('ability_invalid_input', `Ability "${ability.name}" has invalid input. Reason: ${reason}`, 400);
  }
  return { value: r.value };
}

export function checkOutput(ability: Ability, output: unknown): RestError | null {
  if (!ability.output_schema) return null;
  const r = validateArg('output', output, ability.output_schema, {});
  if (!('error' in r)) return null;
  const reason = typeof r.error === 'string' ? r.error : r.error.message;
  return new RestError('ability_invalid_output', `Ability "${ability.name}" has invalid output. Reason: ${reason}`, 500);
}

/** Whether an ability's meta has every value the `meta` filter asks for. */
function metaMatches(actual: unknown, wanted: unknown): boolean {
  if (!isObj(wanted)) return actual === wanted;
  if (!isObj(actual)) return false;
  return Object.entries(wanted).every(([k, v]) => metaMatches(actual[k], v));
}

export function registerAbilities(server: RestServer): void {
  const categories = async ({ input, params }: BuiltinArgs<InputOf<typeof EPS.categories>>) => {
    const denied = readable(input);
    if (denied) return failure(denied);
    const context = contextOf(params, input);
    return page(CATEGORIES, params, input, server, `/${ABILITIES_NS}/categories`, (c) => presentCategory(server, c, context));
  };

  const category = async ({ input, params }: BuiltinArgs<InputOf<typeof EPS.category>>) => {
    const denied = readable(input);
    if (denied) return failure(denied);
    const found = CATEGORIES.find((c) => c.slug === params.slug);
    if (!found) return failure(new RestError('rest_ability_category_not_found', 'Ability category not found.', 404));
    return reply(presentCategory(server, found, contextOf(params, input)));
  };

  const list = async ({ input, params }: BuiltinArgs<InputOf<typeof EPS.list>>) => {
    const denied = readable(input);
    if (denied) return failure(denied);
    let found = ABILITIES.filter((a) => a.meta.show_in_rest);
    if (params.category) found = found.filter((a) => a.category === params.category);
    if (params.namespace) found = found.filter((a) => a.name.split('/')[0] === params.namespace);
    if (params.meta) {
      // show_in_rest is forced on: a caller cannot list hidden abilities through the filter.
      const wanted = { ...params.meta, show_in_rest: true };
      found = found.filter((a) => metaMatches(a.meta, wanted));
    }
    const context = contextOf(params, input);
    return page(found, params, input, server, `/${ABILITIES_NS}/abilities`, (a) => presentAbility(server, a, context));
  };

  const single = async ({ input, params }: BuiltinArgs<InputOf<typeof EPS.single>>) => {
    const denied = readable(input);
    if (denied) return failure(denied);
    const found = findAbility(params.name);
    if (!found) return failure(new RestError('rest_ability_not_found', 'Ability not found.', 404));
    return reply(presentAbility(server, found, contextOf(params, input)));
  };

  const run = async ({ input, params }: BuiltinArgs<InputOf<typeof EPS.run>>) => {
    const ability = findAbility(params.name);
    if (!ability) return failure(new RestError('rest_ability_not_found', 'Ability not found.', 404));
    const method = input.method === 'HEAD' ? 'GET' : input.method;
    const expected = expectedMethod(ability.meta.annotations);
    if (method !== expected.method) return failure(new RestError('rest_ability_invalid_method', expected.message, 405));
    const checked = checkInput(ability, rawInput(input));
    if (checked instanceof RestError) return failure(checked);
    const ctx: RunContext = { server, user: input.user, requestId: input.requestId ?? 'ability' };
    const allowed = await ability.permission(ctx, checked.value);
    if (allowed instanceof RestError) return failure(new RestError(allowed.code, allowed.message, authStatus(input.user), allowed.data));
    if (!allowed) return failure(new RestError('rest_ability_cannot_execute', 'Sorry, you are not allowed to execute this ability.', authStatus(input.user)));
    let output: unknown;
    try {
      output = await ability.execute(ctx, checked.value);
    } catch (e) {
      if (e instanceof RestError) return failure(e);
      throw e;
    }
    const bad = checkOutput(ability, output);
    if (bad) return failure(bad);
    return reply(output);
  };

  server.builtin(EPS.categories, categories);
  server.builtin(EPS.category, category);
  server.builtin(EPS.list, list);
  server.builtin(EPS.single, single);
  server.builtin(EPS.run, run);
}
