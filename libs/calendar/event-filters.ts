/**
 * The simple filters of an event list: an argument whose validated value is one store condition on an
 * indexed field, needing no stored data to check. For each: its argument in vendor/events/v1's archive
 * and in ec/v1's event list (null where that dialect has none), the condition the value asks of the
 * store, how vendor/events/v1 echoes it in `rest_url`, and the index that serves the condition.
 * Everything else is derived from here: both dialects' argument declarations (libs/routes/vendor-events/
 * events.ts, libs/routes/ec/args.ts, where the table's arguments stand together, in its order), the
 * reading of each dialect's arguments into the criteria and the store filter
 * (services/calendar/event-query.ts), the archive's `rest_url` (after the hand-read arguments, in the
 * table's order) and the store's indexes (libs/data/collections.ts). A new filter is one row here and
 * a test. Filters that check stored data (terms, venues, organizers, parents) or shape the date window
 * are read by each dialect's query itself.
 */
import type { ArgDecl } from '../rest/registry';
import type { ValueOf } from '../rest/params';
import type { CollectionSpec, Filter } from '../store/types';
import { EVENT_TYPE } from './meta';

type Index = NonNullable<CollectionSpec['indexes']>[number];

/** A row of the table, `V` its validated value. */
export interface EventListFilter<V> {
  /** vendor/events/v1's archive argument; null: the archive has no such filter. */
  readonly v1: ArgDecl | null;
  /** ec/v1's event list argument; null: ec/v1 has no such filter. */
  readonly ec: ArgDecl | null;
  /** The store condition of a value. */
  readonly where: (value: V) => Filter;
  /** The value as vendor/events/v1 echoes it in `rest_url` (as given when absent). */
  readonly echo?: (value: V) => unknown;
  /** The index that serves the condition (with type and status: every event list asks for both). */
  readonly index?: Index;
}

/** A row, typed by its declarations: the value is what either dialect's argument arrives as. */
function filter<const A extends ArgDecl | null, const B extends ArgDecl | null>(
  row: { v1: A; ec: B } & Omit<EventListFilter<ValueOf<NonNullable<A | B>>>, 'v1' | 'ec'>,
) {
  return row;
}

export const EVENT_FILTERS = {
  featured: filter({
    v1: { description: 'Only featured (true) or only not featured (false) events', type: 'boolean' },
    ec: { description: 'Limit result set to featured events only.', type: 'boolean' },
    where: (featured) => ({ featured }),
    echo: (featured) => (featured ? 1 : 0),
    // Only featured events are written into it (most are not, and each create paid a random leaf of it);
    // `featured: false` is read from the status and date window index, which holds the flag too.
    index: { keys: ['type', 'featured', 'status', 'event_start'], partial: { type: EVENT_TYPE, featured: true } },
  }),
};

type Filters = typeof EVENT_FILTERS;
export type EventFilterName = keyof Filters;
export type Dialect = 'v1' | 'ec';

/** The value of each filter, where a request asked for it. */
export type EventFilterValues = { [K in EventFilterName]?: Parameters<Filters[K]['where']>[0] };

/** The table's rows in its order. */
export const eventFilterEntries = (): Array<[EventFilterName, EventListFilter<never>]> =>
  // Boundary: the keys of the object are its names; each row's `where` takes its own value.
  Object.entries(EVENT_FILTERS) as never;

/** A dialect's filter arguments, under their names and in the table's order. */
type DialectArgs<D extends Dialect> = { [K in EventFilterName as Filters[K][D] extends ArgDecl ? K : never]: Filters[K][D] };

export function eventFilterArgs<D extends Dialect>(dialect: D): DialectArgs<D> {
  const args: Record<string, ArgDecl> = {};
  for (const [name, row] of eventFilterEntries()) {
    const decl = row[dialect];
    if (decl) args[name] = decl;
  }
  // Boundary: one declaration for each name DialectArgs lists.
  return args as DialectArgs<D>;
}

/** The filters a request carried in a dialect, as validated (`given`: the request carried the argument; defaults are not given). */
export function eventFilterValues(dialect: Dialect, params: Readonly<Record<string, unknown>>, given: (name: string) => boolean): EventFilterValues {
  const values: Record<string, unknown> = {};
  for (const [name, row] of eventFilterEntries()) if (row[dialect] && given(name) && params[name] != null) values[name] = params[name];
  return values;
}

/** The store conditions of the values, in the table's order. */
export function eventFilterConditions(values: EventFilterValues | undefined): Filter[] {
  if (!values) return [];
  return eventFilterEntries().flatMap(([name, row]) => (values[name] === undefined ? [] : [row.where(values[name] as never)]));
}

/** vendor/events/v1's `rest_url` arguments of the values, in the table's order. */
export function eventFilterEcho(values: EventFilterValues): Record<string, unknown> {
  const echo: Record<string, unknown> = {};
  for (const [name, row] of eventFilterEntries()) {
    const value = values[name];
    if (value !== undefined && row.v1) echo[name] = row.echo ? row.echo(value as never) : value;
  }
  return echo;
}

/** The indexes the filters' conditions land on, in the table's order. */
export const eventFilterIndexes = (): Index[] => eventFilterEntries().flatMap(([, row]) => (row.index ? [row.index] : []));
