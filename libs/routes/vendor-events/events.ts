/**
 * vendor/events/v1 events: the archive, create, and the single event by id and by slug (reference:
 * Archive_Event, Single_Event, Single_Event_Slug). The endpoints are constants the calendar service binds to.
 */
import { eventFilterArgs } from '../../calendar/event-filters';
import { EVENT_FIELDS, eventFieldEntries, type V1ArgSpec } from '../../calendar/event-fields';
import { ParamError } from '../../rest/errors';
import { endpoint } from '../../rest/params';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import {
  BASE,
  ID,
  INVALID,
  NS,
  NULL_DEFAULT,
  SLUG,
  dateText,
  imageRef,
  linkedArg,
  nonEmptyString,
  pageArgs,
  positive,
  statusList,
  termsArg,
  timezoneOrEmpty,
  urlOrEmpty,
  writeStatus,
} from './args';
import { isPositiveInt } from '../../rest/args';
import { eventSchema } from './schemas';

const costValue = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

/** What each check of the event table's v1 arguments (libs/calendar/event-fields.ts) adds to the declaration. */
const V1_CHECKS = {
  positive: { validate: positive },
  date: { validate: dateText },
  text: { validate: nonEmptyString },
  status: { validate: writeStatus.validate },
  timezone: { validate: timezoneOrEmpty },
  image: { validate: imageRef },
  cost: { validate: (v: unknown) => (costValue(v) || (Array.isArray(v) && v.every(costValue)) ? true : INVALID) },
  url: { ...NULL_DEFAULT, validate: urlOrEmpty },
  terms: termsArg(''),
  venue: linkedArg('venue', ''),
  organizer: linkedArg('organizer', ''),
} satisfies Record<NonNullable<V1ArgSpec['check']>, Partial<ArgDecl>>;

type Fields = typeof EVENT_FIELDS;
type V1Spec<K extends keyof Fields> = Fields[K] extends { v1Arg: infer S extends V1ArgSpec } ? S : never;
/** A field's v1 declaration: the table's keywords, its check's parts, `required` on a create where the table says so. */
type V1Decl<S extends V1ArgSpec, C extends boolean> = Omit<S, 'check' | 'create'> &
  (S['check'] extends keyof typeof V1_CHECKS ? Omit<(typeof V1_CHECKS)[S['check']], 'description'> : unknown) &
  (C extends true ? (S extends { create: 'required' } ? { readonly required: true } : unknown) : unknown);
type V1WriteArgs<C extends boolean> = {
  [K in keyof Fields as Fields[K] extends { v1Arg: V1ArgSpec } ? Fields[K]['v1'] & string : never]: V1Decl<V1Spec<K>, C>;
};

/** The event write fields (libs/calendar/event-fields.ts), in the table's order; on create title, start_date and end_date are required. */
export function eventWriteArgs<C extends boolean>(create: C): V1WriteArgs<C> {
  const args: Record<string, ArgDecl> = {};
  for (const [, row] of eventFieldEntries()) {
    if (!row.v1Arg || !row.v1) continue;
    const { check, create: onCreate, ...keywords } = row.v1Arg;
    const parts = check ? V1_CHECKS[check] : {};
    args[row.v1] = { ...parts, ...keywords, ...(create && onCreate === 'required' ? { required: true } : {}) };
  }
  // Boundary: one declaration for each name V1WriteArgs lists, of the kind it names.
  return args as V1WriteArgs<C>;
}

const dateFilter = (description: string) => ({ description, type: 'string', validate: dateText }) satisfies ArgDecl;

/** The archive's query parameters. */
export function archiveArgs() {
  return {
    ...pageArgs(),
    start_date: dateFilter('Events that start on or after the date (default: yesterday, site time zone)'),
    end_date: dateFilter('Events that end on or before the date (default: 24 months from now)'),
    starts_before: dateFilter('Events that start before the date'),
    starts_after: dateFilter('Events that start after the date'),
    ends_before: dateFilter('Events that end before the date'),
    ends_after: dateFilter('Events that end after the date'),
    strict_dates: { description: 'Whether the dates are used as given (true) or widened to whole days (false)', type: 'boolean', default: false },
    search: { description: 'Events that contain the text in the title or description', type: 'string', validate: nonEmptyString },
    categories: { description: 'Events in one of these category IDs or slugs', type: 'array', items: { type: ['integer', 'string'] } },
    tags: { description: 'Events with one of these tag IDs or slugs', type: 'array', items: { type: ['integer', 'string'] } },
    venue: {
      description: 'Events at one of these venue IDs',
      type: 'array',
      items: { type: 'integer' },
      validate: (v) => (Array.isArray(v) && v.every(isPositiveInt) ? true : INVALID),
    },
    organizer: {
      description: 'Events by one of these organizer IDs',
      type: 'array',
      items: { type: 'integer' },
      validate: (v) => (Array.isArray(v) && v.every(isPositiveInt) ? true : INVALID),
    },
    // The simple filters (libs/calendar/event-filters.ts), in the table's order.
    ...eventFilterArgs('v1'),
    status: { description: 'Event post status (a list or comma-separated)', validate: (v) => (statusList(v) ? true : INVALID), sanitize: (v) => statusList(v) },
    // The free edition accepts the extended edition's geolocation filters and ignores them, as the reference's does.
    geoloc: { description: 'Events whose venue has geolocation data (extended edition; ignored in the free edition)', type: 'boolean' },
    geoloc_lat: { description: 'Latitude; requires geoloc_lng (extended edition; ignored in the free edition)', type: 'number' },
    geoloc_lng: { description: 'Longitude; requires geoloc_lat (extended edition; ignored in the free edition)', type: 'number' },
    include: {
      description: 'Only these event IDs; date filters are ignored',
      type: 'array',
      items: { type: 'integer' },
      validate: (v) => (Array.isArray(v) && v.every(isPositiveInt) ? true : INVALID),
    },
    post_parent: { description: 'Events whose parent is this event ID', type: 'integer', validate: positive },
    // Without ticketing only `true` is refused, as the free reference does; `false` matches every event.
    ticketed: {
      description: 'Events with (true) or without (false) tickets; true needs ticketing',
      type: 'boolean',
      validate: (v) =>
        v === true ? new ParamError('event-tickets-not-active', 'Ticket filters need ticketing, which this edition does not have.', { status: 400 }) : true,
    },
  } satisfies Record<string, ArgDecl>;
}

const idArg = { description: 'The event ID', type: 'integer' } satisfies ArgDecl;
const passwordArg = { description: 'The event password', type: 'string' } satisfies ArgDecl;
const slugArg = { description: 'The event slug', type: 'string', required: true } satisfies ArgDecl;

const byId = { id: idArg, password: passwordArg };
const bySlug = { slug: slugArg };
const update = eventWriteArgs(false);

/** The events' endpoints: archive and create, the single event by id, and by slug (`slug`). */
export const VENDOR_EVENT_ENDPOINTS = {
  list: endpoint({ id: 'vendor.events.list', service: 'calendar', methods: ['GET'], args: archiveArgs() }),
  create: endpoint({ id: 'vendor.events.create', service: 'calendar', methods: ['POST'], args: eventWriteArgs(true) }),
  get: endpoint({ id: 'vendor.events.get', service: 'calendar', methods: ['GET'], args: byId, captures: ['id'] }),
  update: endpoint({ id: 'vendor.events.update', service: 'calendar', methods: EDITABLE, args: { ...byId, ...update }, captures: ['id'] }),
  delete: endpoint({ id: 'vendor.events.delete', service: 'calendar', methods: DELETABLE, args: byId, captures: ['id'] }),
  slug: {
    get: endpoint({ id: 'vendor.events.slug.get', service: 'calendar', methods: ['GET'], args: bySlug }),
    // The update's `slug` is the slug to write (the write argument's declaration, in the capture's place):
    // the handlers find the event by the slug in the path (see pathSlug).
    update: endpoint({ id: 'vendor.events.slug.update', service: 'calendar', methods: EDITABLE, args: Object.assign({ slug: update.slug }, update) }),
    delete: endpoint({ id: 'vendor.events.slug.delete', service: 'calendar', methods: DELETABLE, args: bySlug }),
  },
};

export function registerEventRoutes(registry: RouteRegistry): void {
  const eps = VENDOR_EVENT_ENDPOINTS;
  registry.add({ namespace: NS, pattern: `${BASE}/events`, schema: eventSchema, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: `${BASE}/events/${ID}`, schema: eventSchema, endpoints: [eps.get, eps.update, eps.delete] });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/events/by-slug/${SLUG}`,
    schema: eventSchema,
    endpoints: [eps.slug.get, eps.slug.update, eps.slug.delete],
  });
}
