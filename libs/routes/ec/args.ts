/**
 * Argument declarations of ec/v1 (the reference's tec/v1): the entity write fields of events,
 * organizers and venues, their list parameters, and the constraints the interface declares (types,
 * enums, minimum and maximum, formats, patterns, unique items). Each argument is of one of the
 * reference's parameter types (params.ts), whose own check runs first; the gateway validates them all
 * before the calendar service sees a request.
 */
import { eventFilterArgs } from '../../calendar/event-filters';
import { EVENT_ORDER } from '../../calendar/event-field-orders';
import { EVENT_FIELDS, type EcArgSpec, type EventFieldRow } from '../../calendar/event-fields';
import { ORGANIZER_FIELDS, VENUE_FIELDS, ecName, fieldEntries, type FieldTable, type LinkedFields } from '../../calendar/fields';
import type { ArgDecl } from '../../rest/registry';
import { type Check, arrayCheck, dateTimeCheck, emailCheck, idListCheck, positiveIntegerCheck, statusListCheck, tecParam, textCheck, uriCheck } from './params';

export const NS = 'ec/v1';
export const BASE = `/${NS}`;
export const ID = '(?P<id>\\d+)';

/** Statuses an entity is written with and a list filters on. */
export const STATUSES = ['publish', 'pending', 'draft', 'future', 'private'];
export const FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'];
export const EVENT_ORDERBY = ['date', 'event_date', 'title', 'menu_order', 'modified'];

/** `Y-m-d H:i:s`, as event dates are written. */
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
/** RFC 3339, as post dates are written. */
export const RFC3339_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}(?::\\d{2})?)?$';

/** Text: a string, or one of its enum values (typed as a string, or as the declaration `extra` completes). */
function text(description: string): { description: string; type: 'string'; precheck: Check };
function text<const E extends Partial<ArgDecl>>(description: string, extra: E): { description: string; type: 'string' } & E & { precheck: Check };
function text(description: string, extra?: Partial<ArgDecl>) {
  return tecParam(Object.assign({ description, type: 'string' as const }, extra), textCheck(extra?.enum));
}
const uri = (name: string, description: string) => tecParam({ description, type: 'string', format: 'uri' }, uriCheck(name));
const email = (name: string, description: string) => tecParam({ description, type: 'string', format: 'email' }, emailCheck(name));
/** Positive_Integer; the schema's bounds still apply once the type check passed. */
const positive = <D extends ArgDecl>(name: string, decl: D) => tecParam(decl, positiveIntegerCheck(name));
/** Array_Of_Type of Positive_Integer (items checked under the reference's placeholder name). */
const idList = (description: string) =>
  tecParam({ description, type: 'array', items: { type: 'integer' }, uniqueItems: true }, arrayCheck(positiveIntegerCheck('example')));
/** Date_Time: strtotime decides, not the RFC 3339 format; a declared pattern is checked first. */
const dateTime = <D extends ArgDecl>(name: string, decl: D) => tecParam(decl, dateTimeCheck(name, decl.pattern), ['format', 'pattern']);

/** The fields every entity is written with (the reference's TEC_Post_Entity_Request_Body). */
export function entityWriteArgs(stickyDefault: boolean | undefined) {
  return {
    date: dateTime('date', {
      description: "The date the entity was published, in the site's timezone. In RFC3339 format.",
      type: 'string',
      format: 'date-time',
      pattern: RFC3339_PATTERN,
    }),
    date_gmt: dateTime('date_gmt', {
      description: 'The date the entity was published, as GMT. In RFC3339 format.',
      type: 'string',
      format: 'date-time',
      pattern: RFC3339_PATTERN,
    }),
    slug: text('An alphanumeric identifier for the entity unique to its type.'),
    status: text('A named status for the entity.', { enum: STATUSES, default: 'publish' }),
    title: text('The title for the entity.'),
    content: text('The content for the entity.'),
    excerpt: text('The excerpt for the entity.'),
    author: positive('author', { description: 'The ID for the author of the entity.', type: 'integer' }),
    featured_media: positive('featured_media', { description: 'The ID of the featured media for the entity.', type: 'integer' }),
    comment_status: text('Whether or not comments are open on the entity.', { enum: ['open', 'closed'], default: 'open' }),
    ping_status: text('Whether or not the entity can be pinged.', { enum: ['open', 'closed'], default: 'open' }),
    format: text('The format for the entity.', { enum: FORMATS, default: 'standard' }),
    sticky: {
      description: 'Whether or not the entity should be treated as sticky.',
      type: 'boolean',
      ...(stickyDefault === undefined ? {} : { default: stickyDefault }),
    },
    template: text('The theme file to use to display the entity.'),
    tags: idList('The terms assigned to the entity in the post_tag taxonomy.'),
  } satisfies Record<string, ArgDecl>;
}

/** What each check of the event table's ec/v1 arguments (libs/calendar/event-fields.ts) makes of the table's keywords, under the argument's name. */
const EC_CHECKS = {
  text: (_name: string, spec: EcArgSpec) => text(spec.description),
  eventDate: (name: string, spec: EcArgSpec) => dateTime(name, { description: spec.description, type: 'string', pattern: DATE_PATTERN }),
  positive: (name: string, spec: EcArgSpec) =>
    positive(name, { description: spec.description, type: 'integer', ...(spec.minimum === undefined ? {} : { minimum: spec.minimum }) }),
  idList: (_name: string, spec: EcArgSpec) => idList(spec.description),
} satisfies Record<NonNullable<EcArgSpec['check']>, (name: string, spec: EcArgSpec) => ArgDecl>;

type Fields = typeof EVENT_FIELDS;
type EcSpec<K extends keyof Fields> = Fields[K] extends { ecArg: infer S extends EcArgSpec } ? S : never;
/** A field's ec/v1 declaration: what its check makes, or a plain one of the table's keywords. */
type EcDecl<S extends EcArgSpec> = S['check'] extends keyof typeof EC_CHECKS
  ? ReturnType<(typeof EC_CHECKS)[S['check']]>
  : { description: string; type: S['type'] };
type EcEventArgs = { [K in keyof Fields as Fields[K] extends { ecArg: EcArgSpec } ? Fields[K]['ec'] & string : never]: EcDecl<EcSpec<K>> };

/** The event's own write arguments (libs/calendar/event-fields.ts), in ec/v1's order. */
function eventFieldArgs(): EcEventArgs {
  const args: Record<string, ArgDecl> = {};
  for (const field of EVENT_ORDER.ecArgs) {
    const row: EventFieldRow = EVENT_FIELDS[field];
    if (!row.ecArg || !row.ec) continue;
    const spec = row.ecArg;
    args[row.ec] = spec.check ? EC_CHECKS[spec.check](row.ec, spec) : { description: spec.description, type: spec.type };
  }
  // Boundary: one declaration for each name EcEventArgs lists, of the kind it names.
  return args as EcEventArgs;
}

export function eventWriteArgs() {
  return { ...entityWriteArgs(undefined), ...eventFieldArgs() };
}

/** The ec/v1 write arguments of a kind's fields: a string under the field's ec/v1 name, for each field ec/v1 has. */
type FieldArgs<T extends FieldTable> = {
  [K in keyof T as T[K] extends { ec: { name: infer N extends string } } ? N : T[K] extends { ec: object } ? K : never]: ReturnType<typeof uri>;
};

/** A kind's fields (libs/calendar/fields.ts) that ec/v1 writes, under their ec/v1 names and in its order; each a string of its format. */
function fieldArgs<T extends FieldTable>(table: LinkedFields<T>): FieldArgs<T> {
  const fields = new Map(fieldEntries(table));
  const args: Record<string, ArgDecl> = {};
  for (const name of table.ecOrder) {
    const field = fields.get(name);
    if (!field?.ec) continue;
    const as = ecName(name, field);
    const { description, format } = field.ec;
    args[as] = field.type === 'url' ? uri(as, description) : field.type === 'email' ? email(as, description) : text(description, format ? { format } : {});
  }
  // Boundary: one string declaration for each name FieldArgs lists.
  return args as FieldArgs<T>;
}

export function organizerWriteArgs() {
  return { ...entityWriteArgs(false), ...fieldArgs(ORGANIZER_FIELDS) };
}

export function venueWriteArgs() {
  return { ...entityWriteArgs(false), ...fieldArgs(VENUE_FIELDS) };
}

export const pageArg = () => positive('page', { description: 'The collection page number.', type: 'integer', default: 1, minimum: 1 });
export const perPageArg = () =>
  positive('per_page', { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 });

/** Array_Of_Type of Text with the entity statuses, checked by the endpoint's own status validator. */
export const statusListArg = (what: string) =>
  tecParam(
    {
      description: `Limit result set to ${what} with specific status.`,
      type: 'array',
      items: { type: 'string', enum: STATUSES },
      uniqueItems: true,
      default: ['publish'],
    },
    statusListCheck(STATUSES),
  );

const dateFilter = (name: string, description: string) => dateTime(name, { description, type: 'string', format: 'date-time' });
/** The linked-record filters: the event validator's id lists (existence is checked by the service). */
const linkedIds = (description: string) => tecParam({ description, type: 'array', items: { type: 'integer' }, uniqueItems: true }, idListCheck);

export function eventListArgs() {
  return {
    page: pageArg(),
    per_page: perPageArg(),
    start_date: dateFilter('start_date', 'Limit events to those starting after the specified date.'),
    end_date: dateFilter('end_date', 'Limit events to those ending before the specified date.'),
    search: text('Limit results to those matching a string.'),
    categories: idList('Limit result set to events assigned specific categories.'),
    tags: idList('Limit result set to events assigned specific tags.'),
    venue: linkedIds('Limit result set to events assigned to specific venues.'),
    organizer: linkedIds('Limit result set to events assigned to specific organizers.'),
    // The simple filters (libs/calendar/event-filters.ts), in the table's order.
    ...eventFilterArgs('ec'),
    status: statusListArg('events'),
    post_parent: positive('post_parent', { description: 'Limit result set to events with specific post parent.', type: 'integer', minimum: 1 }),
    starts_before: dateFilter('starts_before', 'Limit result set to events starting before the specified date.'),
    starts_after: dateFilter('starts_after', 'Limit result set to events starting after the specified date.'),
    ends_before: dateFilter('ends_before', 'Limit result set to events ending before the specified date.'),
    ends_after: dateFilter('ends_after', 'Limit result set to events ending after the specified date.'),
    ticketed: { description: 'Limit result set to events with tickets.', type: 'boolean' },
    orderby: text('Sort collection by event attribute.', { default: 'event_date', enum: EVENT_ORDERBY }),
    order: text('Order sort attribute ascending or descending.', { default: 'ASC', enum: ['ASC', 'DESC'] }),
  } satisfies Record<string, ArgDecl>;
}

export function linkedListArgs(plural: 'organizers' | 'venues') {
  return {
    page: pageArg(),
    per_page: perPageArg(),
    search: text('Limit results to those matching a string.'),
    event: positive('event', { description: `Limit result set to ${plural} assigned to a specific event.`, type: 'integer', minimum: 1 }),
    has_events: { description: `Limit result set to ${plural} that have events.`, type: 'boolean' },
    only_with_upcoming: { description: `Limit result set to ${plural} that have upcoming events.`, type: 'boolean' },
    status: statusListArg(plural),
  } satisfies Record<string, ArgDecl>;
}

export const idArg = (what: string) => positive('id', { description: `Unique identifier for the ${what}.`, type: 'integer' });

/** The password of a protected entity: unlocks its fields on a single read (not published in the index). */
export const passwordArg = () => ({ description: 'The password of a password-protected entity.', type: 'string', hidden: true }) satisfies ArgDecl;

export const forceArg = () => ({ description: 'Whether to bypass Trash and force deletion.', type: 'boolean', default: false }) satisfies ArgDecl;
