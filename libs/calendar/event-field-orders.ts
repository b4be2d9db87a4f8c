/**
 * Each consumer's order of the event's field table (./event-fields.ts), where it is not the table's,
 * and the walks of the table in it: the record properties of each dialect (the schemas' and the
 * presenters'), and the plain copies of the presenters.
 */
import { EVENT_FIELDS, eventFieldEntries, eventFieldName, isEventField, type EventField, type EventFieldRow, type RecordSpec } from './event-fields';
import { truthyMeta } from './meta';

/**
 * The order of each consumer, where it is not the table's: names of the table (its keys) and of the
 * properties, columns or inputs the consumer computes itself.
 */
export const EVENT_ORDER = {
  /** ec/v1's event write arguments after the entity fields. */
  ecArgs: ['categories', 'start', 'startUtc', 'end', 'endUtc', 'timezone', 'duration', 'allDay', 'featured', 'cost', 'organizers', 'venues'],
  /** vendor/events/v1's event record. */
  v1Record: [
    'id',
    'global_id',
    'global_id_lineage',
    'author',
    'status',
    'date',
    'dateUtc',
    'modified',
    'modified_utc',
    'url',
    'rest_url',
    'title',
    'description',
    'excerpt',
    'slug',
    'image',
    'allDay',
    'start',
    'start_date_details',
    'end',
    'end_date_details',
    'startUtc',
    'utc_start_date_details',
    'endUtc',
    'utc_end_date_details',
    'timezone',
    'timezone_abbr',
    'cost',
    'cost_details',
    'website',
    'showMap',
    'showMapLink',
    'hideFromListings',
    'sticky',
    'featured',
    'categories',
    'tags',
    'venue',
    'organizer',
    'custom_fields',
    'json_ld',
  ],
  /** ec/v1's own event properties, after the entity's. */
  ecRecord: [
    'categories',
    'start',
    'startUtc',
    'end',
    'endUtc',
    'dates',
    'timezone',
    'duration',
    'multiday',
    'is_past',
    'is_now',
    'allDay',
    'starts_this_week',
    'ends_this_week',
    'this_week_duration',
    'happens_this_week',
    'displays_on',
    'featured',
    'sticky',
    'cost',
    'organizer_names',
    'organizers',
    'venues',
    'schedule_details',
    'short_schedule_details',
  ],
  /** The CSV importer's plain columns, in the order a row's item is filled after its dates and description (the cost's currency is the importer's own). */
  csv: [
    'excerpt',
    'website',
    'image',
    'cost',
    'currency_symbol',
    'currency_position',
    'categories',
    'tags',
    'showMap',
    'showMapLink',
    'hideFromListings',
    'sticky',
    'featured',
  ],
  /** The create-event ability's input. */
  ability: [
    'title',
    'start',
    'end',
    'description',
    'excerpt',
    'status',
    'timezone',
    'allDay',
    'cost',
    'website',
    'featured',
    'venues',
    'organizers',
    'categories',
    'tags',
  ],
} as const;

/** The record property name of a field in a dialect: the record's own name, else the argument's. */
export function eventRecordName(field: EventField, dialect: 'v1' | 'ec'): string {
  const row: EventFieldRow = EVENT_FIELDS[field];
  return row.record?.[dialect]?.name ?? eventFieldName(field, dialect);
}

/** The record properties of a dialect's order as `[name, field or null]`: null marks a property the consumer computes. */
export function eventRecordOrder(dialect: 'v1' | 'ec'): Array<[string, EventField | null]> {
  const order = dialect === 'v1' ? EVENT_ORDER.v1Record : EVENT_ORDER.ecRecord;
  return order.map((name) => (isEventField(name) ? [eventRecordName(name, dialect), name] : [name, null]));
}

/** A record property's schema: the table's keywords (without the presenter's `copy`), in the schema's key order. */
export function recordProperty(spec: RecordSpec): Record<string, unknown> {
  const { type, description, format, pattern, items } = spec;
  return { type, description, ...(format ? { format } : {}), ...(pattern ? { pattern } : {}), ...(items ? { items } : {}) };
}

/** The properties of a dialect's event record in its order: each field's from the table, each computed one as `computed` makes it. */
export function eventRecordProperties<S>(dialect: 'v1' | 'ec', computed: (name: string) => S): Record<string, Record<string, unknown> | S> {
  const out: Record<string, Record<string, unknown> | S> = {};
  for (const [name, field] of eventRecordOrder(dialect)) {
    const spec = field ? (EVENT_FIELDS[field] as EventFieldRow).record?.[dialect] : undefined;
    out[name] = spec ? recordProperty(spec) : computed(name);
  }
  return out;
}

/** A field a dialect's event record copies as stored: its record name, its meta key, the value of a flag never written. */
export interface EventCopy {
  readonly name: string;
  readonly meta: string;
  readonly absent: boolean;
}

/** The fields a dialect's event presenter copies as stored, in the table's order. */
export function eventCopies(dialect: 'v1' | 'ec'): EventCopy[] {
  return eventFieldEntries().flatMap(([field, row]) => {
    const copy = row.record?.[dialect]?.copy;
    return copy && 'meta' in row.store ? [{ name: eventRecordName(field, dialect), meta: row.store.meta, absent: copy.absent ?? false }] : [];
  });
}

/** A copied field's value in a record's meta: a flag as the reference reads one. */
export const copiedValue = (copy: EventCopy, meta: Readonly<Record<string, unknown>>): unknown =>
  copy.meta in meta ? truthyMeta(meta[copy.meta]) : copy.absent;
