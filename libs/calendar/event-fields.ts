/**
 * The event's field table: for each field of an event write (services/calendar/events/write.ts
 * `EventInput`, by its key here) its name in each dialect, where it is stored, its write argument in
 * each dialect, its record-schema property in each dialect, how the event record presents it where it is
 * a plain copy of what is stored, the columns of the CSV importer that feed it and its place in the
 * abilities catalog's event input. Derived from here: vendor/events/v1's event write arguments
 * (libs/routes/vendor-events/events.ts), ec/v1's (libs/routes/ec/args.ts, after the entity fields
 * every kind shares), both event record schemas (libs/routes/vendor-events/schemas.ts,
 * libs/routes/ec/schemas.ts, which write out only the computed properties), the plain copies of both
 * event presenters (services/calendar/events/present.ts, services/calendar/ec/present.ts), the CSV
 * importer's columns (services/aggregator/feeds/csv.ts) and the create-event ability's input
 * (services/gateway/abilities/catalog.ts).
 *
 * Each consumer lists the fields in its own order (the reference's): the table is in vendor/events/v1's
 * argument order and `EVENT_ORDER` (./event-field-orders.ts) gives the others, naming the computed
 * properties among the fields (dates and their details, embedded venues and organizers, cost details,
 * `json_ld`, ...), which the consumer writes by hand. A new field is one row here and its place in the
 * orders.
 */
import type { FieldType } from './fields';
import { EVENT_META } from './meta';

/** Where a field is stored: a meta key, a field of the post, its terms, its linked records, or nowhere of its own (a date the write turns into others). */
export type EventStore =
  | { readonly meta: string }
  | { readonly post: 'title' | 'content' | 'excerpt' | 'slug' | 'status' | 'author' | 'password' | 'date' | 'date_gmt' | 'featured_media' | 'menu_order' }
  | { readonly tax: 'vendor_events_cat' | 'post_tag' }
  | { readonly linked: 'venues' | 'organizers' }
  | { readonly derived: true };

/**
 * vendor/events/v1's write argument: the schema keywords it publishes and the check the argument runs
 * (libs/routes/vendor-events/events.ts gives each check its validator and sanitiser); `create` marks an
 * argument a create requires.
 */
export interface V1ArgSpec {
  readonly description: string;
  readonly type?: 'string' | 'integer' | 'boolean';
  readonly default?: boolean;
  readonly check?: 'positive' | 'date' | 'text' | 'status' | 'timezone' | 'image' | 'cost' | 'url' | 'terms' | 'venue' | 'organizer';
  readonly create?: 'required';
}

/** ec/v1's write argument: the schema keywords and the reference's parameter type checking it (libs/routes/ec/params.ts). */
export interface EcArgSpec {
  readonly description: string;
  readonly type: 'string' | 'integer' | 'boolean';
  readonly minimum?: number;
  readonly check?: 'text' | 'eventDate' | 'positive' | 'idList';
}

/** A record-schema property of a plain kind (the refs to other schemas belong to computed properties). */
export interface RecordSpec {
  readonly type: 'string' | 'integer' | 'boolean' | 'array';
  readonly description: string;
  readonly format?: string;
  readonly pattern?: string;
  readonly items?: { readonly type: 'integer' | 'string' };
  /** The presenter copies it as stored: a flag meta as the reference reads one (`absent`: the value of a flag never written). */
  readonly copy?: { readonly flag: true; readonly absent?: boolean };
}

/** The CSV importer's columns that feed a field (lower case, words only, without the "event " prefix), the item key they fill and how a cell is read. */
export interface ImportSpec {
  readonly columns: readonly string[];
  readonly item?: string;
  readonly read?: 'text' | 'flag' | 'list';
}

export interface EventFieldRow {
  /** vendor/events/v1's argument name; null: v1 has no such argument. */
  readonly v1: string | null;
  /** ec/v1's argument name; null: ec/v1 has no such argument. */
  readonly ec: string | null;
  /** For a field stored as it is in one meta key: that key and its type (the save filter's rule, libs/posts/save-filter.ts). */
  readonly meta?: string;
  readonly type?: FieldType;
  readonly store: EventStore;
  /** vendor/events/v1's write argument (absent: declared elsewhere, as `password` with the event's id). */
  readonly v1Arg?: V1ArgSpec;
  /** ec/v1's event write argument (absent: one of the entity fields every ec/v1 kind is written with). */
  readonly ecArg?: EcArgSpec;
  /** The record-schema property in each dialect, under the record's name where it differs from the argument's. */
  readonly record?: { readonly v1?: RecordSpec & { readonly name?: string }; readonly ec?: RecordSpec & { readonly name?: string } };
  readonly import?: ImportSpec;
  /** The create-event ability's input property (its name is the v1 argument's). */
  readonly ability?: Readonly<Record<string, unknown>> & { readonly description: string };
}

const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
const V1_DATE = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
const v1Date = (description: string): RecordSpec => ({ type: 'string', description: `${description} (Y-m-d H:i:s)`, pattern: V1_DATE });
const flag = (description: string, absent?: boolean): RecordSpec => ({
  type: 'boolean',
  description,
  copy: { flag: true, ...(absent === undefined ? {} : { absent }) },
});

export const EVENT_FIELDS = {
  author: {
    v1: 'author',
    ec: 'author',
    store: { post: 'author' },
    v1Arg: { description: 'The event author ID', type: 'integer', check: 'positive' },
    record: { v1: { type: 'string', description: 'The event author ID' } },
  },
  password: { v1: 'password', ec: null, store: { post: 'password' } },
  date: {
    v1: 'date',
    ec: null,
    store: { post: 'date' },
    v1Arg: { description: 'The event publication date', type: 'string', check: 'date' },
    record: { v1: v1Date('The event publication date') },
  },
  // ec/v1's post date (`date_gmt`, else `date` in the site's zone) is handed on as one UTC date.
  dateUtc: {
    v1: 'date_utc',
    ec: 'date',
    store: { post: 'date_gmt' },
    v1Arg: { description: 'The event publication date (UTC time zone)', type: 'string', check: 'date' },
    record: { v1: v1Date('The event publication date, UTC') },
  },
  title: {
    v1: 'title',
    ec: 'title',
    store: { post: 'title' },
    v1Arg: { description: 'The event title', type: 'string', create: 'required', check: 'text' },
    record: { v1: { type: 'string', description: 'The event title' } },
    import: { columns: ['name', 'title'] },
    ability: { type: 'string', description: 'The event title.', minLength: 1 },
  },
  description: {
    v1: 'description',
    ec: 'content',
    store: { post: 'content' },
    v1Arg: { description: 'The event description', type: 'string', check: 'text' },
    record: { v1: { type: 'string', description: 'The event description (HTML)' } },
    import: { columns: ['description', 'content'] },
    ability: { type: 'string', description: 'The event description (HTML).' },
  },
  slug: {
    v1: 'slug',
    ec: 'slug',
    store: { post: 'slug' },
    v1Arg: { description: 'The event slug', type: 'string', check: 'text' },
    record: { v1: { type: 'string', description: 'The event slug' } },
  },
  excerpt: {
    v1: 'excerpt',
    ec: 'excerpt',
    store: { post: 'excerpt' },
    v1Arg: { description: 'The event excerpt', type: 'string', check: 'text' },
    record: { v1: { type: 'string', description: 'The event excerpt (HTML)' } },
    import: { columns: ['excerpt'], item: 'excerpt', read: 'text' },
    ability: { type: 'string', description: 'A short summary.' },
  },
  status: {
    v1: 'status',
    ec: 'status',
    store: { post: 'status' },
    v1Arg: { description: 'The post status', type: 'string', check: 'status' },
    record: { v1: { type: 'string', description: 'The event post status' } },
    ability: { type: 'string', description: 'The post status.', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
  },
  timezone: {
    v1: 'timezone',
    ec: 'timezone',
    store: { meta: EVENT_META.timezone },
    v1Arg: { description: 'The event time zone (IANA name or UTC offset); the site time zone when empty', type: 'string', check: 'timezone' },
    ecArg: { description: 'The timezone of the event.', type: 'string', check: 'text' },
    record: { v1: { type: 'string', description: 'The event time zone' }, ec: { type: 'string', description: 'The timezone of the event' } },
    import: { columns: ['timezone', 'time zone'] },
    ability: { type: 'string', description: 'The event time zone; the site time zone when not given.' },
  },
  allDay: {
    v1: 'all_day',
    ec: 'all_day',
    store: { meta: EVENT_META.allDay },
    v1Arg: { description: 'Whether the event lasts the whole day or not', type: 'boolean', default: false },
    ecArg: { description: 'Whether the event is all day.', type: 'boolean' },
    record: {
      v1: { type: 'boolean', description: 'Whether the event spans whole days' },
      ec: { type: 'boolean', description: 'Whether the event is all day' },
    },
    import: { columns: ['all day', 'all day event'] },
    ability: { type: 'boolean', description: 'Whether the event lasts whole days.' },
  },
  start: {
    v1: 'start_date',
    ec: 'start_date',
    store: { meta: EVENT_META.start },
    v1Arg: { description: 'The event start date and time', type: 'string', create: 'required', check: 'date' },
    ecArg: { description: 'The start date of the event, in its time zone.', type: 'string', check: 'eventDate' },
    record: {
      v1: v1Date('The event start, in its time zone'),
      ec: { type: 'string', description: 'The start date of the event, in its time zone', pattern: DATE },
    },
    import: { columns: ['start date'] },
    ability: { type: 'string', description: 'The start date and time, e.g. 2026-05-01 18:00:00.', minLength: 1 },
  },
  startUtc: {
    v1: null,
    ec: 'start_date_utc',
    store: { meta: EVENT_META.startUtc },
    ecArg: { description: 'The start date of the event in UTC.', type: 'string', check: 'eventDate' },
    record: {
      v1: { ...v1Date('The event start, UTC'), name: 'utc_start_date' },
      ec: { type: 'string', description: 'The start date of the event in UTC', pattern: DATE },
    },
  },
  end: {
    v1: 'end_date',
    ec: 'end_date',
    store: { meta: EVENT_META.end },
    v1Arg: { description: 'The event end date and time', type: 'string', create: 'required', check: 'date' },
    ecArg: { description: 'The end date of the event, in its time zone.', type: 'string', check: 'eventDate' },
    record: {
      v1: v1Date('The event end, in its time zone'),
      ec: { type: 'string', description: 'The end date of the event, in its time zone', pattern: DATE },
    },
    import: { columns: ['end date'] },
    ability: { type: 'string', description: 'The end date and time.', minLength: 1 },
  },
  endUtc: {
    v1: null,
    ec: 'end_date_utc',
    store: { meta: EVENT_META.endUtc },
    ecArg: { description: 'The end date of the event in UTC.', type: 'string', check: 'eventDate' },
    record: {
      v1: { ...v1Date('The event end, UTC'), name: 'utc_end_date' },
      ec: { type: 'string', description: 'The end date of the event in UTC', pattern: DATE },
    },
  },
  duration: {
    v1: null,
    ec: 'duration',
    store: { meta: EVENT_META.duration },
    ecArg: { description: 'The duration of the event in seconds.', type: 'integer', minimum: 0, check: 'positive' },
    record: { ec: { type: 'string', description: 'The duration of the event in seconds' } },
  },
  image: {
    v1: 'image',
    ec: 'featured_media',
    store: { post: 'featured_media' },
    v1Arg: { description: 'The event featured image ID or URL', check: 'image' },
    import: { columns: ['featured image', 'image'], item: 'image', read: 'text' },
  },
  cost: {
    v1: 'cost',
    ec: 'cost',
    meta: EVENT_META.cost,
    type: 'text',
    store: { meta: EVENT_META.cost },
    v1Arg: { description: 'The event cost', check: 'cost' },
    ecArg: { description: 'The cost of the event.', type: 'string', check: 'text' },
    record: { v1: { type: 'string', description: 'The event cost as shown' }, ec: { type: 'string', description: 'The cost of the event, formatted' } },
    import: { columns: ['cost'], item: 'cost', read: 'text' },
    ability: { type: 'string', description: 'The event cost.' },
  },
  website: {
    v1: 'website',
    ec: null,
    meta: EVENT_META.url,
    type: 'url',
    store: { meta: EVENT_META.url },
    v1Arg: { description: 'The event website URL', check: 'url' },
    record: { v1: { type: 'string', description: 'The event website (the event page when none)', format: 'uri' } },
    import: { columns: ['website', 'url'], item: 'url', read: 'text' },
    ability: { type: 'string', description: 'The event website address.', format: 'uri' },
  },
  showMap: {
    v1: 'show_map',
    ec: null,
    meta: EVENT_META.showMap,
    type: 'flag',
    store: { meta: EVENT_META.showMap },
    v1Arg: { description: 'Whether the map should be shown in the event single page or not', type: 'boolean' },
    record: { v1: flag('Whether the event shows a map', true) },
    import: { columns: ['show map'], item: 'show_map', read: 'flag' },
  },
  showMapLink: {
    v1: 'show_map_link',
    ec: null,
    meta: EVENT_META.showMapLink,
    type: 'flag',
    store: { meta: EVENT_META.showMapLink },
    v1Arg: { description: 'Whether the map link should be shown in the event single page or not', type: 'boolean' },
    record: { v1: flag('Whether the event shows a map link', true) },
    import: { columns: ['show map link'], item: 'show_map_link', read: 'flag' },
  },
  hideFromListings: {
    v1: 'hide_from_listings',
    ec: null,
    store: { meta: EVENT_META.hideFromListings },
    v1Arg: { description: 'Whether the event should be hidden in the calendar view or not', type: 'boolean' },
    record: { v1: { type: 'boolean', description: 'Whether the event is hidden from listings' } },
    import: { columns: ['hide from event listings', 'hide from listings', 'hide event from event listings'], item: 'hide_from_listings', read: 'flag' },
  },
  sticky: {
    v1: 'sticky',
    ec: 'sticky',
    store: { post: 'menu_order' },
    v1Arg: { description: 'Whether the event should be sticky in the calendar view or not', type: 'boolean' },
    record: {
      v1: { type: 'boolean', description: 'Whether the event is sticky in listings' },
      ec: { type: 'boolean', description: 'Whether the event is sticky' },
    },
    import: { columns: ['sticky in month view'], item: 'sticky', read: 'flag' },
  },
  featured: {
    v1: 'featured',
    ec: 'featured',
    store: { meta: EVENT_META.featured },
    v1Arg: { description: 'Whether the event should be featured on the site or not', type: 'boolean' },
    ecArg: { description: 'Whether the event is featured.', type: 'boolean' },
    record: { v1: flag('Whether the event is featured'), ec: flag('Whether the event is featured') },
    import: { columns: ['featured', 'feature event', 'feature'], item: 'featured', read: 'flag' },
    ability: { type: 'boolean', description: 'Whether the event is featured.' },
  },
  categories: {
    v1: 'categories',
    ec: 'vendor_events_cat',
    store: { tax: 'vendor_events_cat' },
    v1Arg: { description: 'The event category IDs, slugs or names', check: 'terms' },
    ecArg: { description: 'The terms assigned to the entity in the vendor_events_cat taxonomy.', type: 'integer', check: 'idList' },
    record: { ec: { type: 'array', description: 'The terms assigned to the entity in the vendor_events_cat taxonomy', items: { type: 'integer' } } },
    import: { columns: ['category', 'categories'], item: 'categories', read: 'list' },
    ability: { type: 'array', description: 'The event category IDs.', items: { type: 'integer', minimum: 1 } },
  },
  tags: {
    v1: 'tags',
    ec: 'tags',
    store: { tax: 'post_tag' },
    v1Arg: { description: 'The event tag IDs, slugs or names', check: 'terms' },
    import: { columns: ['tags', 'tag'], item: 'tags', read: 'list' },
    ability: { type: 'array', description: 'The tag IDs.', items: { type: 'integer', minimum: 1 } },
  },
  venues: {
    v1: 'venue',
    ec: 'venues',
    store: { linked: 'venues' },
    v1Arg: { description: 'The event venue ID or data', check: 'venue' },
    ecArg: { description: 'The venues of the event.', type: 'integer', check: 'idList' },
    import: { columns: ['venue name', 'venue'] },
    ability: { type: 'integer', description: 'The venue ID.', minimum: 1 },
  },
  organizers: {
    v1: 'organizer',
    ec: 'organizers',
    store: { linked: 'organizers' },
    v1Arg: { description: 'The event organizer IDs or data', check: 'organizer' },
    ecArg: { description: 'The organizers of the event.', type: 'integer', check: 'idList' },
    import: { columns: ['organizer name', 'organizer', 'organizers'] },
    ability: { type: 'array', description: 'The organizer IDs.', items: { type: 'integer', minimum: 1 } },
  },
} as const satisfies Record<string, EventFieldRow>;

export type EventField = keyof typeof EVENT_FIELDS;

/** The table's rows as `[key, row]` pairs, in its order. */
export const eventFieldEntries = (): Array<[EventField, EventFieldRow]> =>
  // Boundary: the keys of the table are its fields.
  Object.entries(EVENT_FIELDS) as Array<[EventField, EventFieldRow]>;

/** Whether a name of an order is a field of the table (else a property the consumer computes). */
export const isEventField = (name: string): name is EventField => Object.hasOwn(EVENT_FIELDS, name);

/** A dialect's name of an event field (its vendor/events/v1 name where the dialect has none, as the field is never given there). */
export const eventFieldName = (field: EventField, dialect: 'v1' | 'ec'): string => EVENT_FIELDS[field][dialect] ?? EVENT_FIELDS[field].v1 ?? field;
