/**
 * The abilities this service offers (the reference's Abilities API, WordPress 6.9+): the calendar's
 * own operations, each carried out by sending a request through the REST pipeline as the caller,
 * so the routes' permission checks, validation and errors apply unchanged; and core's
 * `core/get-site-info`. Schemas are in the reference's dialect and checked by the same validator as
 * route arguments.
 */
import { can, type AuthUser } from '#libs/auth/user';
import { EVENT_ORDER } from '#libs/calendar/event-field-orders';
import { EVENT_FIELDS, type EventFieldRow } from '#libs/calendar/event-fields';
import { RestError, type ErrorBody } from '#libs/rest/errors';
import { Args, isRecord } from '#libs/rest/args';
import type { ArgSchema, Method } from '#libs/rest/registry';
import type { RestServer } from '#libs/rest/server';

export interface AbilityCategory {
  slug: string;
  label: string;
  description: string;
  meta: Record<string, unknown>;
}

export interface Annotations {
  readonly: boolean | null;
  destructive: boolean | null;
  idempotent: boolean | null;
}

/** What an ability runs with: the caller and the pipeline its requests go through. */
export interface RunContext {
  server: RestServer;
  user: AuthUser | null;
  requestId: string;
}

export interface Ability {
  name: string;
  label: string;
  description: string;
  category: string;
  input_schema?: ArgSchema;
  output_schema?: ArgSchema;
  meta: { annotations: Annotations; show_in_rest: boolean };
  /** true when the caller may run it with this input; false or the error otherwise. */
  permission(ctx: RunContext, input: unknown): Promise<boolean | RestError>;
  execute(ctx: RunContext, input: unknown): Promise<unknown>;
}

export const CATEGORIES: AbilityCategory[] = [
  { slug: 'site', label: 'Site', description: 'Abilities that retrieve or modify site information and settings.', meta: {} },
  { slug: 'events-calendar', label: 'Events calendar', description: 'Find, read and create events, venues, organizers and event categories.', meta: {} },
];

const READ: Annotations = { readonly: true, destructive: false, idempotent: true };
const CREATE: Annotations = { readonly: false, destructive: false, idempotent: false };

const V1 = '/vendor/events/v1';

/** One request through the pipeline as the caller; an error answer becomes the ability's error. */
async function call(ctx: RunContext, method: Method, path: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const read = method === 'GET';
  const out = await ctx.server.dispatch({
    method,
    path,
    query: read ? args : {},
    body: read ? undefined : args,
    bodyType: read ? 'none' : 'json',
    headers: {},
    user: ctx.user,
    requestId: ctx.requestId,
  });
  if (out.status >= 400) throw RestError.fromBody(errorBodyOf(out.body), out.status);
  return out.body;
}

/** The error envelope of an error answer (the pipeline always writes one), read field by field. */
function errorBodyOf(body: unknown): ErrorBody {
  const b = isRecord(body) ? body : {};
  const data = isRecord(b.data) && typeof b.data.status === 'number' ? { ...b.data, status: b.data.status } : null;
  return {
    code: String(b.code),
    message: String(b.message),
    data,
    ...(Array.isArray(b.additional_data) ? { additional_data: b.additional_data } : {}),
  };
}

/** Whether the caller may use a method of a route, asked the way OPTIONS asks (the route's own permission checks). */
function routeAllows(method: Method, path: string) {
  return async (ctx: RunContext): Promise<boolean> => {
    const out = await ctx.server.dispatch({ method: 'OPTIONS', path, query: {}, bodyType: 'none', headers: {}, user: ctx.user, requestId: ctx.requestId });
    return String(out.headers.Allow ?? '')
      .split(',')
      .map((m) => m.trim())
      .includes(method);
  };
}

const obj = (input: unknown): Record<string, unknown> => (isRecord(input) ? input : {});

const str = (description: string, extra: ArgSchema = {}): ArgSchema => ({ type: 'string', description, ...extra });
const ids = (description: string): ArgSchema => ({ type: 'array', description, items: { type: 'integer', minimum: 1 } });
const paging = (max: number): Record<string, ArgSchema> => ({
  page: { type: 'integer', description: 'Page of the results.', minimum: 1, default: 1 },
  per_page: { type: 'integer', description: 'Results per page.', minimum: 1, maximum: max, default: 10 },
});

/** The create-event input: the field table's ability properties (libs/calendar/event-fields.ts), under the fields' vendor/events/v1 names. */
function eventAbilityInput(): Record<string, ArgSchema> {
  const out: Record<string, ArgSchema> = {};
  for (const field of EVENT_ORDER.ability) {
    const row: EventFieldRow = EVENT_FIELDS[field];
    if (row.ability && row.v1) out[row.v1] = { ...row.ability };
  }
  return out;
}

/** The inputs a create needs: the fields whose v1 argument a create requires. */
const eventAbilityRequired = (): string[] =>
  EVENT_ORDER.ability.flatMap((field) => {
    const row: EventFieldRow = EVENT_FIELDS[field];
    return row.ability && row.v1 && row.v1Arg?.create === 'required' ? [row.v1] : [];
  });

/** A list answer of the v1 archives: the records under their key, and the totals. */
const listOutput = (key: string, what: string): ArgSchema => ({
  type: 'object',
  properties: {
    [key]: { type: 'array', description: what, items: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: true } },
    total: { type: 'integer', description: 'How many match in all.' },
    total_pages: { type: 'integer', description: 'How many pages there are.' },
  },
  required: [key, 'total', 'total_pages'],
});

const record = (what: string): ArgSchema => ({
  type: 'object',
  description: what,
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id'],
  additionalProperties: true,
});

/** The v1 archive answers carry their records and totals; only those are the ability's output. */
function listOf(key: string, answer: unknown) {
  const body = isRecord(answer) ? answer : {};
  return { [key]: body[key] ?? [], total: Number(body.total ?? 0), total_pages: Number(body.total_pages ?? 0) };
}

function listAbility(name: string, label: string, description: string, key: string, path: string, filters: Record<string, ArgSchema>): Ability {
  return {
    name,
    label,
    description,
    category: 'events-calendar',
    input_schema: { type: 'object', properties: { ...filters, ...paging(50) }, additionalProperties: false, default: {} },
    output_schema: listOutput(key, label),
    meta: { annotations: READ, show_in_rest: true },
    permission: routeAllows('GET', path),
    async execute(ctx, input) {
      return listOf(key, await call(ctx, 'GET', path, obj(input)));
    },
  };
}

export const ABILITIES: Ability[] = [
  {
    name: 'core/get-site-info',
    label: 'Get Site Information',
    description: "Returns the site's name, tagline, addresses, time zone and character set; only the requested fields when `fields` is given.",
    category: 'site',
    input_schema: {
      type: 'object',
      properties: {
        fields: {
          type: 'array',
          description: 'The fields to return; all when empty.',
          items: { type: 'string', enum: ['name', 'description', 'url', 'home', 'timezone', 'charset', 'language'] },
        },
      },
      additionalProperties: false,
      default: {},
    },
    output_schema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The site title.' },
        description: { type: 'string', description: 'The site tagline.' },
        url: { type: 'string', description: 'The site address.' },
        home: { type: 'string', description: 'The home page address.' },
        timezone: { type: 'string', description: 'The site time zone.' },
        charset: { type: 'string', description: 'The character set of answers.' },
        language: { type: 'string', description: 'The site language.' },
      },
      additionalProperties: false,
    },
    meta: { annotations: READ, show_in_rest: true },
    // As the reference: site settings are for those who may manage options.
    async permission(ctx) {
      return can(ctx.user, 'manage_options');
    },
    async execute(ctx, input) {
      const site = ctx.server.site;
      const all: Record<string, string> = {
        name: site.name,
        description: site.description,
        url: site.url,
        home: site.home,
        timezone: site.timezone,
        charset: 'UTF-8',
        language: 'en-US',
      };
      const fields = new Args(obj(input)).strs('fields');
      return fields.length ? Object.fromEntries(fields.map((f) => [f, all[f]])) : all;
    },
  },
  listAbility(
    'events-calendar/find-events',
    'Find events',
    'Finds events by text and date range, as the event archive does (by default, events from yesterday on).',
    'events',
    `${V1}/events`,
    {
      search: str('Text in the event title or description.', { minLength: 1 }),
      start_date: str('Events that start on or after this date (any date the archive reads, e.g. 2026-05-01 or "next monday").'),
      end_date: str('Events that end on or before this date.'),
      categories: ids('Only events in one of these event category IDs.'),
      venue: ids('Only events at one of these venue IDs.'),
      organizer: ids('Only events by one of these organizer IDs.'),
    },
  ),
  {
    name: 'events-calendar/get-event',
    label: 'Get an event',
    description: 'Returns one event by its ID, with its venue, organizers and categories.',
    category: 'events-calendar',
    input_schema: {
      type: 'object',
      properties: { id: { type: 'integer', description: 'The event ID.', minimum: 1 }, password: str('The event password, for a protected event.') },
      required: ['id'],
      additionalProperties: false,
    },
    output_schema: record('The event.'),
    meta: { annotations: READ, show_in_rest: true },
    permission: routeAllows('GET', `${V1}/events`),
    async execute(ctx, input) {
      const { id, password } = obj(input);
      return call(ctx, 'GET', `${V1}/events/${Number(id)}`, password === undefined ? {} : { password });
    },
  },
  {
    name: 'events-calendar/create-event',
    label: 'Create an event',
    description: 'Creates an event with the given title, dates and details; its venue, organizers and categories are given by ID.',
    category: 'events-calendar',
    input_schema: {
      type: 'object',
      properties: eventAbilityInput(),
      required: eventAbilityRequired(),
      additionalProperties: false,
    },
    output_schema: record('The event as created.'),
    meta: { annotations: CREATE, show_in_rest: true },
    permission: routeAllows('POST', `${V1}/events`),
    async execute(ctx, input) {
      return call(ctx, 'POST', `${V1}/events`, obj(input));
    },
  },
  listAbility('events-calendar/list-venues', 'List venues', 'Lists venues, optionally those matching a text.', 'venues', `${V1}/venues`, {
    search: str('Text in the venue name, description or address.', { minLength: 1 }),
  }),
  listAbility('events-calendar/list-organizers', 'List organizers', 'Lists organizers, optionally those matching a text.', 'organizers', `${V1}/organizers`, {
    search: str('Text in the organizer name or description.', { minLength: 1 }),
  }),
  listAbility(
    'events-calendar/list-categories',
    'List event categories',
    'Lists event categories, optionally those matching a text.',
    'categories',
    `${V1}/categories`,
    {
      search: str('Text in the category name.', { minLength: 1 }),
      hide_empty: { type: 'boolean', description: "Whether to leave out categories without events (the archive's default)." },
    },
  ),
  {
    name: 'events-calendar/create-venue',
    label: 'Create a venue',
    description: 'Creates a venue with the given name and address.',
    category: 'events-calendar',
    input_schema: {
      type: 'object',
      properties: {
        venue: str('The venue name.', { minLength: 1 }),
        description: str('The venue description (HTML).'),
        status: str('The post status.', { enum: ['publish', 'draft', 'pending', 'private'] }),
        address: str('The street address.'),
        city: str('The city.'),
        country: str('The country.'),
        state: str('The state.'),
        province: str('The province.'),
        zip: str('The postal code.'),
        phone: str('The phone number.'),
        website: str('The venue website address.', { format: 'uri' }),
      },
      required: ['venue'],
      additionalProperties: false,
    },
    output_schema: record('The venue as created.'),
    meta: { annotations: CREATE, show_in_rest: true },
    permission: routeAllows('POST', `${V1}/venues`),
    async execute(ctx, input) {
      return call(ctx, 'POST', `${V1}/venues`, obj(input));
    },
  },
];
