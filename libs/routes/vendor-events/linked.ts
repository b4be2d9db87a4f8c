/**
 * vendor/events/v1 venues and organizers, the "linked posts" of an event: archive, create, and the
 * single record by id and by slug (reference: Archive_Venue/Organizer, Single_Venue/Organizer(+_Slug)).
 * The endpoints are constants the calendar service binds to; venues and organizers are one family.
 */
import { ORGANIZER_FIELDS, VENUE_FIELDS, coordinateOf, fieldEntries, type FieldTable, type LinkedFields } from '../../calendar/fields';
import { endpoint, resourceEndpoints, type ArgMap } from '../../rest/params';
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import {
  BASE,
  ID,
  INVALID,
  NS,
  NULL_DEFAULT,
  SLUG,
  dateText,
  emailOrEmpty,
  imageRef,
  nonEmptyString,
  pageArgs,
  positive,
  requiredOn,
  statusList,
  urlOrEmpty,
  writeStatus,
} from './args';
import { organizerSchema, venueSchema } from './schemas';

const BOOLEAN_LIKE = ['true', 'false', '1', '0', 'yes', 'no'];
export const isBooleanLike = (v: unknown): boolean =>
  typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && BOOLEAN_LIKE.includes(v.trim().toLowerCase()));
export const booleanLike = (v: unknown): boolean => v === true || v === 1 || (typeof v === 'string' && ['true', '1', 'yes'].includes(v.trim().toLowerCase()));

const flag = (description: string) =>
  ({ description, ...NULL_DEFAULT, validate: (v) => (isBooleanLike(v) ? true : INVALID), sanitize: booleanLike }) satisfies ArgDecl;
/** A flag of the extended edition (published and read there only). */
const extendedFlag = (description: string) => ({ ...flag(description), edition: 'extended' }) satisfies ArgDecl;
const text = (description: string) => ({ description, type: 'string', ...NULL_DEFAULT }) satisfies ArgDecl;
/** A latitude or longitude: a number or numeric string within ±range (kept as its text; `''` removes it). */
const coordinate = (name: string, description: string, range: number) =>
  ({
    description,
    type: ['number', 'string'],
    edition: 'extended',
    ...NULL_DEFAULT,
    validate: (v) => (coordinateOf(v, range) === null ? `${name} must be a number from -${range} to ${range}.` : true),
    sanitize: (v): string => String(coordinateOf(v, range) ?? ''),
  }) satisfies ArgDecl;

/** The write arguments of a kind's fields (libs/calendar/fields.ts), typed by each field's type. */
type FieldArgs<T extends FieldTable> = {
  [K in keyof T as T[K] extends { readOnly: true } ? never : K]: T[K]['type'] extends 'flag'
    ? ReturnType<typeof flag> | ReturnType<typeof extendedFlag>
    : T[K]['type'] extends 'coordinate'
      ? ReturnType<typeof coordinate>
      : ReturnType<typeof text>;
};

/**
 * A kind's fields as write arguments, in the reference's order: the flags, then the text fields, then
 * the addresses (URL, e-mail), each checked for its form, then the coordinates; an empty string removes a field.
 * Fields the service writes itself (`readOnly`) are no argument; the extended edition's are published there only.
 */
function fieldArgs<T extends FieldTable>(table: LinkedFields<T>): FieldArgs<T> {
  const rank = (type: string) => (type === 'flag' ? 0 : type === 'text' ? 1 : type === 'coordinate' ? 3 : 2);
  const args: Record<string, ArgDecl> = {};
  for (const [name, field] of fieldEntries(table).sort(([, a], [, b]) => rank(a.type) - rank(b.type))) {
    const description = field.v1.arg;
    if (field.readOnly) continue;
    if (field.type === 'flag') args[name] = field.edition ? extendedFlag(description) : flag(description);
    else if (field.type === 'text') args[name] = text(description);
    else if (field.type === 'coordinate') args[name] = coordinate(name, description, field.range ?? 0);
    else args[name] = { ...text(description), validate: field.type === 'url' ? urlOrEmpty : emailOrEmpty };
  }
  // Boundary: one declaration per field of the table, of the kind FieldArgs names.
  return args as FieldArgs<T>;
}

function commonWriteArgs(what: string) {
  return {
    author: { description: `The ${what} author ID`, type: 'integer', validate: positive },
    date: { description: `The ${what} publication date`, type: 'string', validate: dateText },
    date_utc: { description: `The ${what} publication date (UTC time zone)`, type: 'string', validate: dateText },
    description: { description: `The ${what} description`, type: 'string', ...NULL_DEFAULT },
    status: { ...writeStatus, description: `The ${what} post status` },
  } satisfies Record<string, ArgDecl>;
}

export function venueWriteArgs<C extends boolean>(create: C) {
  return {
    venue: { description: 'The venue name', type: 'string', ...requiredOn(create), validate: nonEmptyString },
    ...commonWriteArgs('venue'),
    ...fieldArgs(VENUE_FIELDS),
    image: { description: 'The venue featured image ID or URL', ...NULL_DEFAULT, validate: imageRef },
  } satisfies Record<string, ArgDecl>;
}

export function organizerWriteArgs<C extends boolean>(create: C) {
  return {
    organizer: { description: 'The organizer name', type: 'string', ...requiredOn(create), ...NULL_DEFAULT, validate: nonEmptyString },
    ...commonWriteArgs('organizer'),
    ...fieldArgs(ORGANIZER_FIELDS),
    image: { description: 'The organizer featured image ID or URL', ...NULL_DEFAULT, validate: imageRef },
  } satisfies Record<string, ArgDecl>;
}

export function linkedArchiveArgs(what: string) {
  return {
    ...pageArgs(),
    search: { description: `${what} that contain the text in the title, description or address fields`, type: 'string', validate: nonEmptyString },
    event: { description: `${what} linked to this event ID`, type: 'integer', validate: positive },
    has_events: {
      description: `Only ${what.toLowerCase()} that have (true) or do not have (false) events`,
      validate: (v) => (isBooleanLike(v) ? true : INVALID),
      sanitize: booleanLike,
    },
    only_with_upcoming: {
      description: `Only ${what.toLowerCase()} with upcoming events`,
      default: false,
      validate: (v) => (isBooleanLike(v) ? true : INVALID),
      sanitize: booleanLike,
    },
    status: {
      description: `The ${what.toLowerCase()} post status (a list or comma-separated)`,
      validate: (v) => (statusList(v) ? true : INVALID),
      sanitize: (v) => statusList(v),
    },
  } satisfies Record<string, ArgDecl>;
}

/** A kind's endpoints: archive and create, the single record by id, and by slug (`slug`). */
function linkedEndpoints<L extends ArgMap, C extends ArgMap, U extends ArgMap>(kind: 'venue' | 'organizer', list: L, create: C, update: U) {
  const p = `vendor.${kind}s`;
  const byId = { id: { description: `The ${kind} ID`, type: 'integer' } satisfies ArgDecl };
  const bySlug = { slug: { description: `The ${kind} slug`, type: 'string', required: true } satisfies ArgDecl };
  return {
    ...resourceEndpoints(p, 'calendar', { list, create, get: byId, update: { ...byId, ...update }, delete: byId }),
    slug: {
      get: endpoint({ id: `${p}.slug.get`, service: 'calendar', methods: ['GET'], args: bySlug }),
      update: endpoint({ id: `${p}.slug.update`, service: 'calendar', methods: EDITABLE, args: { ...bySlug, ...update } }),
      delete: endpoint({ id: `${p}.slug.delete`, service: 'calendar', methods: DELETABLE, args: bySlug }),
    },
  };
}

export const VENDOR_LINKED_ENDPOINTS = {
  venues: linkedEndpoints('venue', linkedArchiveArgs('Venues'), venueWriteArgs(true), venueWriteArgs(false)),
  organizers: linkedEndpoints('organizer', linkedArchiveArgs('Organizers'), organizerWriteArgs(true), organizerWriteArgs(false)),
};

function registerLinked(registry: RouteRegistry, plural: 'venues' | 'organizers'): void {
  const schema = plural === 'venues' ? venueSchema : organizerSchema;
  const eps = VENDOR_LINKED_ENDPOINTS[plural];
  registry.add({ namespace: NS, pattern: `${BASE}/${plural}`, schema, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: NS, pattern: `${BASE}/${plural}/${ID}`, schema, endpoints: [eps.get, eps.update, eps.delete] });
  registry.add({ namespace: NS, pattern: `${BASE}/${plural}/by-slug/${SLUG}`, schema, endpoints: [eps.slug.get, eps.slug.update, eps.slug.delete] });
}

export function registerVenueRoutes(registry: RouteRegistry): void {
  registerLinked(registry, 'venues');
}

export function registerOrganizerRoutes(registry: RouteRegistry): void {
  registerLinked(registry, 'organizers');
}
