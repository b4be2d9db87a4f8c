/**
 * The record schemas of vendor/events/v1 (event, venue, organizer, term and their parts), written once:
 * OPTIONS shows them inline with each route, and the OpenAPI document (`GET /doc`) publishes them as
 * components that refer to each other.
 */
import { eventRecordProperties } from '../../calendar/event-field-orders';
import { ORGANIZER_FIELDS, VENUE_FIELDS, fieldEntries, type FieldType, type LinkedFields } from '../../calendar/fields';

type Schema = Record<string, unknown>;
/** How a schema names another: inline (OPTIONS) or as a `$ref` to a component (OpenAPI). */
type Ref = (name: ComponentName) => Schema;

export type ComponentName = 'DateDetails' | 'CostDetails' | 'ImageSize' | 'Image' | 'Term' | 'Venue' | 'Organizer' | 'Event';

const s = (type: string | string[], description: string, extra: Schema = {}): Schema => ({ type, description, ...extra });
const str = (description: string, extra: Schema = {}) => s('string', description, extra);
const int = (description: string) => s('integer', description);
const bool = (description: string) => s('boolean', description);
const dateTime = (description: string) => str(`${description} (Y-m-d H:i:s)`, { pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });

const FORMAT: Partial<Record<FieldType, string>> = { url: 'uri', email: 'email' };

/** The record schema of a kind's fields (libs/calendar/fields.ts): the strings and coordinates, or (`flags`) the booleans, in the table's order. */
function fieldProperties(table: LinkedFields, flags: boolean): Schema {
  const out: Schema = {};
  for (const [name, field] of fieldEntries(table)) {
    if ((field.type === 'flag') !== flags) continue;
    const format = FORMAT[field.type];
    out[name] = flags ? bool(field.v1.record) : field.type === 'coordinate' ? s('number', field.v1.record) : str(field.v1.record, format ? { format } : {});
  }
  return out;
}

/** The event record's computed properties (the others are the field table's, libs/calendar/event-fields.ts). */
const EVENT_COMPUTED: Record<string, (ref: Ref) => Schema> = {
  id: () => int('The event ID'),
  global_id: () => str('The event global ID'),
  global_id_lineage: () => s('array', 'The event global ID lineage', { items: { type: 'string' } }),
  modified: () => dateTime('The event last modification date'),
  modified_utc: () => dateTime('The event last modification date, UTC'),
  url: () => str('The event page', { format: 'uri' }),
  rest_url: () => str('The event REST URL', { format: 'uri' }),
  image: (ref) => ref('Image'),
  start_date_details: (ref) => ref('DateDetails'),
  end_date_details: (ref) => ref('DateDetails'),
  utc_start_date_details: (ref) => ref('DateDetails'),
  utc_end_date_details: (ref) => ref('DateDetails'),
  timezone_abbr: () => str('The event time zone abbreviation'),
  cost_details: (ref) => ref('CostDetails'),
  categories: (ref) => s('array', 'The event categories', { items: ref('Term') }),
  tags: (ref) => s('array', 'The event tags', { items: ref('Term') }),
  venue: (ref) => ({ description: 'The event venue, or an empty list', oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }] }),
  organizer: (ref) => s('array', 'The event organizers', { items: ref('Organizer') }),
  custom_fields: () => s(['object', 'array'], 'Configured additional fields with a value, by meta key'),
  json_ld: () => s('object', 'The event as schema.org JSON-LD (single event only)'),
};

const BUILDERS: Record<ComponentName, (ref: Ref) => Schema> = {
  DateDetails: () => ({
    type: 'object',
    description: 'The parts of a date, each a zero-padded string',
    properties: Object.fromEntries(['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((k) => [k, str(`The date ${k}`)])),
  }),
  CostDetails: () => ({
    type: 'object',
    description: 'The cost as currency and numbers',
    properties: {
      currency_symbol: str('The cost currency symbol'),
      currency_code: str('The cost currency code'),
      currency_position: str('Where the currency symbol goes', { enum: ['prefix', 'postfix', ''] }),
      values: s('array', 'The cost values, lowest first', { items: { type: 'string' } }),
    },
  }),
  ImageSize: () => ({
    type: 'object',
    description: 'One size of an image',
    properties: {
      width: int('The image width in pixels'),
      height: int('The image height in pixels'),
      'mime-type': str('The image MIME type'),
      url: str('The image URL', { format: 'uri' }),
    },
  }),
  Image: (ref) => ({
    type: ['object', 'boolean'],
    description: 'The featured image, or false when there is none',
    properties: {
      url: str('The URL of the full size image', { format: 'uri' }),
      id: int('The image (attachment) ID'),
      extension: str('The image file extension'),
      width: int('The image width in pixels'),
      height: int('The image height in pixels'),
      filesize: int('The image size in bytes'),
      sizes: s('object', 'The image sizes by name', { additionalProperties: ref('ImageSize') }),
    },
  }),
  Term: () => ({
    type: 'object',
    description: 'An event category or tag',
    properties: {
      id: int('The term ID'),
      name: str('The term name'),
      slug: str('The term slug'),
      taxonomy: str('The term taxonomy', { enum: ['vendor_events_cat', 'post_tag'] }),
      description: str('The term description'),
      parent: int('The parent term ID (categories)'),
      count: int('The number of published records with the term'),
      url: str('The term archive page', { format: 'uri' }),
      urls: s('object', 'REST links of the term', {
        properties: { self: str('The term', { format: 'uri' }), collection: str('Its archive', { format: 'uri' }), up: str('Its parent', { format: 'uri' }) },
      }),
    },
  }),
  Venue: (ref) => ({
    type: 'object',
    description: 'A venue; empty fields are left out',
    properties: {
      id: int('The venue ID'),
      author: str('The venue author ID'),
      status: str('The venue post status'),
      date: dateTime('The venue publication date'),
      date_utc: dateTime('The venue publication date, UTC'),
      modified: dateTime('The venue last modification date'),
      modified_utc: dateTime('The venue last modification date, UTC'),
      url: str('The venue page', { format: 'uri' }),
      venue: str('The venue name'),
      description: str('The venue description (HTML)'),
      excerpt: str('The venue excerpt (HTML)'),
      slug: str('The venue slug'),
      image: ref('Image'),
      ...fieldProperties(VENUE_FIELDS, false),
      json_ld: s('object', 'The venue as schema.org JSON-LD (single venue only)'),
      ...fieldProperties(VENUE_FIELDS, true),
      global_id: str('The venue global ID'),
      global_id_lineage: s('array', 'The venue global ID lineage', { items: { type: 'string' } }),
    },
  }),
  Organizer: (ref) => ({
    type: 'object',
    description: 'An organizer; empty fields are left out',
    properties: {
      id: int('The organizer ID'),
      author: str('The organizer author ID'),
      status: str('The organizer post status'),
      date: dateTime('The organizer publication date'),
      date_utc: dateTime('The organizer publication date, UTC'),
      modified: dateTime('The organizer last modification date'),
      modified_utc: dateTime('The organizer last modification date, UTC'),
      url: str('The organizer page', { format: 'uri' }),
      organizer: str('The organizer name'),
      description: str('The organizer description (HTML)'),
      excerpt: str('The organizer excerpt (HTML)'),
      slug: str('The organizer slug'),
      image: ref('Image'),
      ...fieldProperties(ORGANIZER_FIELDS, false),
      json_ld: s('object', 'The organizer as schema.org JSON-LD (single organizer only)'),
      global_id: str('The organizer global ID'),
      global_id_lineage: s('array', 'The organizer global ID lineage', { items: { type: 'string' } }),
    },
  }),
  Event: (ref) => ({
    type: 'object',
    description: 'An event',
    properties: eventRecordProperties('v1', (name) => EVENT_COMPUTED[name](ref)),
  }),
};

export const COMPONENT_NAMES = Object.keys(BUILDERS).filter((k): k is ComponentName => Object.hasOwn(BUILDERS, k));

const inline: Ref = (name) => BUILDERS[name](inline);

/** A component for the OpenAPI document; its parts are `$ref`s to the other components. */
export function component(name: ComponentName): Schema {
  return BUILDERS[name]((n) => ({ $ref: `#/components/schemas/${n}` }));
}

function recordSchema(name: ComponentName, title: string): () => Schema {
  let cached: Schema | undefined;
  return () => (cached ??= { $schema: 'http://json-schema.org/draft-04/schema#', title, ...inline(name) });
}

export const eventSchema = recordSchema('Event', 'event');
export const venueSchema = recordSchema('Venue', 'venue');
export const organizerSchema = recordSchema('Organizer', 'organizer');
export const termSchema = recordSchema('Term', 'term');
