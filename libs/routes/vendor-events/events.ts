/**
 * vendor/events/v1 events: the archive, create, and the single event by id and by slug (reference:
 * Archive_Event, Single_Event, Single_Event_Slug). The endpoints are constants the calendar service binds to.
 */
import { eventFilterArgs } from '../../calendar/event-filters';
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
  requiredOn,
  statusList,
  termsArg,
  timezoneOrEmpty,
  urlOrEmpty,
  writeStatus,
} from './args';
import { isPositiveInt } from '../../rest/args';
import { eventSchema } from './schemas';

const costValue = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

/** The event write fields; on create title, start_date and end_date are required. */
export function eventWriteArgs<C extends boolean>(create: C) {
  return {
    author: { description: 'The event author ID', type: 'integer', validate: positive },
    date: { description: 'The event publication date', type: 'string', validate: dateText },
    date_utc: { description: 'The event publication date (UTC time zone)', type: 'string', validate: dateText },
    title: { description: 'The event title', type: 'string', ...requiredOn(create), validate: nonEmptyString },
    description: { description: 'The event description', type: 'string', validate: nonEmptyString },
    slug: { description: 'The event slug', type: 'string', validate: nonEmptyString },
    excerpt: { description: 'The event excerpt', type: 'string', validate: nonEmptyString },
    status: writeStatus,
    timezone: { description: 'The event time zone (IANA name or UTC offset); the site time zone when empty', type: 'string', validate: timezoneOrEmpty },
    all_day: { description: 'Whether the event lasts the whole day or not', type: 'boolean', default: false },
    start_date: { description: 'The event start date and time', type: 'string', ...requiredOn(create), validate: dateText },
    end_date: { description: 'The event end date and time', type: 'string', ...requiredOn(create), validate: dateText },
    image: { description: 'The event featured image ID or URL', validate: imageRef },
    cost: {
      description: 'The event cost',
      validate: (v) => (costValue(v) || (Array.isArray(v) && v.every(costValue)) ? true : INVALID),
    },
    website: { description: 'The event website URL', ...NULL_DEFAULT, validate: urlOrEmpty },
    show_map: { description: 'Whether the map should be shown in the event single page or not', type: 'boolean' },
    show_map_link: { description: 'Whether the map link should be shown in the event single page or not', type: 'boolean' },
    hide_from_listings: { description: 'Whether the event should be hidden in the calendar view or not', type: 'boolean' },
    sticky: { description: 'Whether the event should be sticky in the calendar view or not', type: 'boolean' },
    featured: { description: 'Whether the event should be featured on the site or not', type: 'boolean' },
    categories: termsArg('The event category IDs, slugs or names'),
    tags: termsArg('The event tag IDs, slugs or names'),
    venue: linkedArg('venue', 'The event venue ID or data'),
    organizer: linkedArg('organizer', 'The event organizer IDs or data'),
  } satisfies Record<string, ArgDecl>;
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
    // The free edition of the reference accepts the extended edition's geolocation filters and ignores them.
    geoloc: { description: 'Events whose venue has geolocation data (extended edition; ignored in this edition)', type: 'boolean' },
    geoloc_lat: { description: 'Latitude; requires geoloc_lng (extended edition; ignored in this edition)', type: 'number' },
    geoloc_lng: { description: 'Longitude; requires geoloc_lat (extended edition; ignored in this edition)', type: 'number' },
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
