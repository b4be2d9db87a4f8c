/**
 * The ec/v1 record schemas (event, organizer, venue and their parts) and request-body schemas, written
 * once: OPTIONS shows the records inline with each route, and `GET ec/v1/docs` publishes all of them as
 * components that refer to each other. The request bodies are built from the routes' own argument
 * declarations, so the document never disagrees with what the gateway validates.
 */
import { eventRecordProperties } from '../../calendar/event-field-orders';
import { ORGANIZER_FIELDS, VENUE_FIELDS, ecName, fieldEntries, type FieldType, type LinkedFields } from '../../calendar/fields';
import { publishArg } from '../../rest/index-doc';
import { isRecord } from '../../rest/args';
import type { ArgDecl } from '../../rest/registry';
import { RFC3339_PATTERN, STATUSES, entityWriteArgs, eventWriteArgs, organizerWriteArgs, venueWriteArgs } from './args';

type Schema = Record<string, unknown>;
/** How a schema names another: inline (OPTIONS) or as a `$ref` to a component (OpenAPI). */
type Ref = (name: EcComponent) => Schema;

export type EcComponent =
  | 'DateTime'
  | 'Date_Details'
  | 'TEC_Post_Entity'
  | 'Event'
  | 'Organizer'
  | 'Venue'
  | 'TEC_Post_Entity_Request_Body'
  | 'Event_Request_Body'
  | 'Organizer_Request_Body'
  | 'Venue_Request_Body';

const s = (type: string | string[], description: string, extra: Schema = {}): Schema => ({ type, description, ...extra });
const str = (description: string, extra: Schema = {}) => s('string', description, extra);
const int = (description: string) => s('integer', description);
const bool = (description: string, nullable = false) => s('boolean', description, nullable ? { nullable: true } : {});
const rendered = (description: string, withProtected: boolean): Schema =>
  s('object', description, {
    properties: {
      rendered: str(`${description}, transformed for display`),
      ...(withProtected ? { protected: bool('Whether it is protected with a password') } : {}),
    },
  });
const rfc3339 = (description: string) => str(`${description} In RFC3339 format.`, { format: 'date-time', pattern: RFC3339_PATTERN });
const ids = (description: string) => s('array', description, { items: { type: 'integer' } });

const FORMAT: Partial<Record<FieldType, string>> = { url: 'uri', email: 'email' };

/**
 * The record schema of a kind's fields (libs/calendar/fields.ts) in ec/v1's order, under their ec/v1
 * names; `computed` describes the fields the presenter computes that the order names.
 */
function fieldProperties(table: LinkedFields, computed: Schema = {}): Schema {
  const fields = new Map(fieldEntries(table));
  const out: Schema = {};
  for (const name of table.ecOrder) {
    const field = fields.get(name);
    if (!field) out[name] = computed[name];
    else if (field.ec) {
      const format = field.ec.format ?? FORMAT[field.type];
      out[ecName(name, field)] = str(field.ec.description.replace(/\.$/, ''), format ? { format } : {});
    }
  }
  return out;
}

/** The event's computed properties (the others are the field table's, libs/calendar/event-fields.ts). */
const EVENT_COMPUTED: Record<string, (ref: Ref) => Schema> = {
  dates: (ref) => ref('Date_Details'),
  multiday: () => s(['boolean', 'integer'], 'False, or the number of days a multi-day event spans'),
  is_past: () => bool('Whether the event is in the past'),
  is_now: () => bool('Whether the event is happening now'),
  starts_this_week: () => bool('Whether the event starts this week', true),
  ends_this_week: () => bool('Whether the event ends this week', true),
  this_week_duration: () => s('integer', 'The number of days of this week the event takes', { nullable: true }),
  happens_this_week: () => bool('Whether the event happens this week', true),
  displays_on: () => s('array', 'The days of this week the event displays on', { items: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } }),
  organizer_names: () => s('array', 'The names of the organizers of the event', { items: { type: 'string' } }),
  organizers: (ref) => s('array', 'The organizers of the event', { items: ref('Organizer') }),
  venues: (ref) => s('array', 'The venues of the event', { items: ref('Venue') }),
  schedule_details: () => str('When the event happens, in HTML'),
  short_schedule_details: () => str('When the event happens, in short, in HTML'),
};

/** The own fields of each entity type, after the common ones. */
const OWN: Record<'Event' | 'Organizer' | 'Venue', (ref: Ref) => Schema> = {
  Event: (ref) => eventRecordProperties('ec', (name) => EVENT_COMPUTED[name](ref)),
  Organizer: () => fieldProperties(ORGANIZER_FIELDS),
  Venue: () => fieldProperties(VENUE_FIELDS, { directions_link: str('A link to directions to the venue', { format: 'uri' }) }),
};

const COMMON = (): Schema => ({
  id: int('Unique identifier for the entity.'),
  date: rfc3339("The date the entity was published, in the site's timezone."),
  date_gmt: rfc3339('The date the entity was published, as GMT.'),
  guid: s('object', 'The globally unique identifier for the entity.', {
    properties: { rendered: str('The globally unique identifier for the entity.', { format: 'uri' }) },
  }),
  modified: rfc3339("The date the entity was last modified, in the site's timezone."),
  modified_gmt: rfc3339('The date the entity was last modified, as GMT.'),
  slug: str('An alphanumeric identifier for the entity unique to its type.'),
  status: str('A named status for the entity.', { enum: STATUSES }),
  type: str('Type of the entity.'),
  link: str('URL to the entity.', { format: 'uri' }),
  title: rendered('The title of the entity', false),
  content: rendered('The content of the entity', true),
  excerpt: rendered('The excerpt of the entity', true),
  author: int('The ID for the author of the entity.'),
  featured_media: int('The ID of the featured media for the entity.'),
  template: str('The theme file to use to display the entity.'),
  tags: ids('The terms assigned to the entity in the post_tag taxonomy.'),
  class_list: s('array', 'The CSS classes of the entity.', { items: { type: 'string' } }),
});

/** The published form of a set of write arguments: an object schema of their declared keywords. */
function bodyOf(args: Record<string, ArgDecl>, skip: Record<string, ArgDecl> = {}): Schema {
  const properties: Schema = {};
  for (const [name, decl] of Object.entries(args)) {
    if (name in skip) continue;
    const published = publishArg(decl);
    delete published.required;
    properties[name] = published;
  }
  return { type: 'object', properties };
}

const entity =
  (name: 'Event' | 'Organizer' | 'Venue', description: string) =>
  (ref: Ref): Schema => ({
    allOf: [ref('TEC_Post_Entity'), { type: 'object', title: name, description, properties: OWN[name](ref) }],
  });

const requestBody =
  (name: string, args: () => Record<string, ArgDecl>) =>
  (ref: Ref): Schema => ({
    allOf: [
      ref('TEC_Post_Entity_Request_Body'),
      { title: `${name} Request Body`, description: `The request body for the ${name.toLowerCase()} endpoint`, ...bodyOf(args(), entityWriteArgs(undefined)) },
    ],
  });

const BUILDERS: Record<EcComponent, (ref: Ref) => Schema> = {
  DateTime: () => ({
    type: 'object',
    description: 'A date and time with its time zone',
    properties: {
      date: str('The date and time, `Y-m-d H:i:s.u`'),
      timezone_type: s('integer', 'How the time zone is named: 1 an offset, 3 a zone identifier', { enum: [1, 3] }),
      timezone: str('The time zone'),
    },
  }),
  Date_Details: (ref) => ({
    type: 'object',
    description: 'The start and end of an event in its own, UTC, the site and the display time zones',
    properties: Object.fromEntries(
      ['start', 'start_utc', 'start_site', 'start_display', 'end', 'end_utc', 'end_site', 'end_display'].map((k) => [k, ref('DateTime')]),
    ),
  }),
  TEC_Post_Entity: () => ({
    type: 'object',
    title: 'TEC Post Entity',
    description: 'A calendar post object as returned by the REST API',
    properties: COMMON(),
  }),
  Event: entity('Event', 'An event'),
  Organizer: entity('Organizer', 'An organizer'),
  Venue: entity('Venue', 'A venue'),
  TEC_Post_Entity_Request_Body: () => ({
    title: 'TEC Post Entity Request Body',
    description: 'The fields every calendar entity is written with',
    ...bodyOf(entityWriteArgs(undefined)),
  }),
  Event_Request_Body: requestBody('Event', eventWriteArgs),
  Organizer_Request_Body: requestBody('Organizer', organizerWriteArgs),
  Venue_Request_Body: requestBody('Venue', venueWriteArgs),
};

export const EC_COMPONENTS = Object.keys(BUILDERS).filter((k): k is EcComponent => Object.hasOwn(BUILDERS, k));

/** A component for the OpenAPI document; its parts are `$ref`s to the other components. */
export function ecComponent(name: EcComponent): Schema {
  return BUILDERS[name]((n) => ({ $ref: `#/components/schemas/${n}` }));
}

/** A record schema with everything inline and `allOf` merged into one object (OPTIONS). */
function inline(name: EcComponent): Schema {
  const built = BUILDERS[name](inline);
  if (!Array.isArray(built.allOf)) return built;
  const properties: Schema = {};
  for (const part of built.allOf) if (isRecord(part)) Object.assign(properties, part.properties);
  return { type: 'object', properties };
}

function recordSchema(name: 'Event' | 'Organizer' | 'Venue', title: string): () => Schema {
  let cached: Schema | undefined;
  return () => (cached ??= { $schema: 'http://json-schema.org/draft-04/schema#', title, ...inline(name) });
}

export const ecEventSchema = recordSchema('Event', 'event');
export const ecOrganizerSchema = recordSchema('Organizer', 'organizer');
export const ecVenueSchema = recordSchema('Venue', 'venue');
