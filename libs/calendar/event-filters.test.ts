/**
 * The table of simple event list filters and what is derived from it: each dialect's arguments, the
 * values a request carried, their store conditions (each on a field of the index its row declares, and
 * that index among the store's), and vendor/events/v1's `rest_url` echo.
 */
import { POSTS } from '../data/collections';
import { VENDOR_EVENT_ENDPOINTS } from '../routes/vendor-events/events';
import { EC_ENDPOINTS } from '../routes/ec';
import type { ArgDecl } from '../rest/registry';
import {
  EVENT_FILTERS,
  eventFilterArgs,
  eventFilterConditions,
  eventFilterEcho,
  eventFilterEntries,
  eventFilterIndexes,
  eventFilterValues,
  type EventFilterValues,
} from './event-filters';

/** A value of the declared type, to build a condition from. */
function sample(decl: ArgDecl): unknown {
  const type = Array.isArray(decl.type) ? decl.type[0] : decl.type;
  return type === 'boolean' ? true : type === 'integer' || type === 'number' ? 1 : type === 'array' ? [1] : 'x';
}

const given = (params: Record<string, unknown>) => (name: string) => name in params;

describe('event list filters', () => {
  it('each dialect declares the rows it has, as the row declares them, on its event list', () => {
    for (const dialect of ['v1', 'ec'] as const) {
      const args: Record<string, ArgDecl> = eventFilterArgs(dialect);
      const list = dialect === 'v1' ? VENDOR_EVENT_ENDPOINTS.list.args : EC_ENDPOINTS.events.list.args;
      for (const [name, row] of eventFilterEntries()) {
        expect(args[name]).toBe(row[dialect] ?? undefined);
        if (row[dialect]) expect((list as Record<string, ArgDecl>)[name]).toBe(row[dialect]);
      }
    }
    expect(eventFilterArgs('v1').featured.description).toBe('Only featured (true) or only not featured (false) events');
    expect(eventFilterArgs('ec').featured.description).toBe('Limit result set to featured events only.');
  });

  it('reads only what the request carried, a JSON null as not set', () => {
    expect(eventFilterValues('v1', { featured: false }, given({ featured: false }))).toEqual({ featured: false });
    expect(eventFilterValues('ec', { featured: true }, given({ featured: true }))).toEqual({ featured: true });
    // A value the request did not carry (a default) is not a filter.
    expect(eventFilterValues('v1', { featured: true }, () => false)).toEqual({});
    expect(eventFilterValues('ec', { featured: null }, given({ featured: null }))).toEqual({});
    expect(eventFilterValues('v1', { other: 1 }, given({ other: 1 }))).toEqual({});
  });

  it('makes the conditions and the echo of the values in the table order', () => {
    expect(eventFilterConditions(undefined)).toEqual([]);
    expect(eventFilterConditions({})).toEqual([]);
    expect(eventFilterConditions({ featured: true })).toEqual([{ featured: true }]);
    expect(eventFilterConditions({ featured: false })).toEqual([{ featured: false }]);
    expect(eventFilterEcho({ featured: true })).toEqual({ featured: 1 });
    expect(eventFilterEcho({ featured: false })).toEqual({ featured: 0 });
    const all = Object.fromEntries(eventFilterEntries().map(([name, row]) => [name, sample((row.v1 ?? row.ec)!)])) as EventFilterValues;
    expect(eventFilterConditions(all)).toHaveLength(eventFilterEntries().length);
    expect(Object.keys(eventFilterEcho(all))).toEqual(eventFilterEntries().flatMap(([name, row]) => (row.v1 ? [name] : [])));
  });

  it('lands each condition on a field of its row index, an index of the store that starts at the event type', () => {
    const indexes = (POSTS.indexes ?? []).map((i) => JSON.stringify(i));
    for (const index of eventFilterIndexes()) expect(indexes).toContain(JSON.stringify(index));
    for (const [, row] of eventFilterEntries()) {
      expect(row.index?.keys[0]).toBe('type');
      const condition = row.where(sample((row.v1 ?? row.ec)!) as never);
      expect(row.index!.keys).toEqual(expect.arrayContaining(Object.keys(condition)));
      expect(Object.keys(condition)).not.toHaveLength(0);
    }
  });

  it('types each value as its declaration', () => {
    const values: EventFilterValues = { featured: true };
    // @ts-expect-error featured is a boolean
    const wrong: EventFilterValues = { featured: 'yes' };
    expect([values, wrong]).toHaveLength(2);
    expect(Object.keys(EVENT_FILTERS)).toContain('featured');
  });
});
