/**
 * vendor/events/v1 venues and organizers, the "linked posts" of an event: archive, create, and the
 * single record by id and by slug (reference: Archive_Venue/Organizer, Single_Venue/Organizer(+_Slug)).
 */
import { type ArgDecl, type RouteRegistry, DELETABLE, EDITABLE } from '../../rest/registry';
import { BASE, ID, INVALID, NS, SLUG, dateText, emailOrEmpty, imageRef, nonEmptyString, pageArgs, positive, statusList, urlOrEmpty, writeStatus } from './args';
import { organizerSchema, venueSchema } from './schemas';

const BOOLEAN_LIKE = ['true', 'false', '1', '0', 'yes', 'no'];
export const isBooleanLike = (v: unknown): boolean =>
  typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && BOOLEAN_LIKE.includes(v.trim().toLowerCase()));
export const booleanLike = (v: unknown): boolean => v === true || v === 1 || (typeof v === 'string' && ['true', '1', 'yes'].includes(v.trim().toLowerCase()));

const flag = (description: string): ArgDecl => ({ description, default: null, validate: (v) => (isBooleanLike(v) ? true : INVALID), sanitize: booleanLike });
const text = (description: string): ArgDecl => ({ description, type: 'string', default: null });

function commonWriteArgs(what: string): Record<string, ArgDecl> {
  return {
    author: { description: `The ${what} author ID`, type: 'integer', validate: positive },
    date: { description: `The ${what} publication date`, type: 'string', validate: dateText },
    date_utc: { description: `The ${what} publication date (UTC time zone)`, type: 'string', validate: dateText },
    description: { description: `The ${what} description`, type: 'string', default: null },
    status: { ...writeStatus, description: `The ${what} post status` },
  };
}

export function venueWriteArgs(create: boolean): Record<string, ArgDecl> {
  return {
    venue: { description: 'The venue name', type: 'string', ...(create ? { required: true } : {}), validate: nonEmptyString },
    ...commonWriteArgs('venue'),
    show_map: flag('Whether events linked to the venue should show a map or not'),
    show_map_link: flag('Whether events linked to the venue should show a map link or not'),
    address: text('The venue address'),
    city: text('The venue city'),
    country: text('The venue country'),
    province: text('The venue province'),
    state: text('The venue state'),
    zip: text('The venue ZIP code'),
    phone: text('The venue phone number'),
    stateprovince: text('The venue state or province'),
    website: { description: 'The venue website URL', type: 'string', default: null, validate: urlOrEmpty },
    image: { description: 'The venue featured image ID or URL', default: null, validate: imageRef },
  };
}

export function organizerWriteArgs(create: boolean): Record<string, ArgDecl> {
  return {
    organizer: { description: 'The organizer name', type: 'string', ...(create ? { required: true } : {}), default: null, validate: nonEmptyString },
    ...commonWriteArgs('organizer'),
    phone: text('The organizer phone number'),
    website: { description: 'The organizer website URL', type: 'string', default: null, validate: urlOrEmpty },
    email: { description: 'The organizer e-mail address', type: 'string', default: null, validate: emailOrEmpty },
    image: { description: 'The organizer featured image ID or URL', default: null, validate: imageRef },
  };
}

export function linkedArchiveArgs(what: string): Record<string, ArgDecl> {
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
  };
}

function registerLinked(registry: RouteRegistry, kind: 'venue' | 'organizer'): void {
  const plural = `${kind}s`;
  const what = kind === 'venue' ? 'Venues' : 'Organizers';
  const write = kind === 'venue' ? venueWriteArgs : organizerWriteArgs;
  const schema = kind === 'venue' ? venueSchema : organizerSchema;
  const id: ArgDecl = { description: `The ${kind} ID`, type: 'integer' };
  const slug: ArgDecl = { description: `The ${kind} slug`, type: 'string', required: true };
  registry.add({
    namespace: NS,
    pattern: `${BASE}/${plural}`,
    schema,
    endpoints: [
      { id: `vendor.${plural}.list`, service: 'calendar', methods: ['GET'], args: linkedArchiveArgs(what) },
      { id: `vendor.${plural}.create`, service: 'calendar', methods: ['POST'], args: write(true) },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/${plural}/${ID}`,
    schema,
    endpoints: [
      { id: `vendor.${plural}.get`, service: 'calendar', methods: ['GET'], args: { id } },
      { id: `vendor.${plural}.update`, service: 'calendar', methods: EDITABLE, args: { id, ...write(false) } },
      { id: `vendor.${plural}.delete`, service: 'calendar', methods: DELETABLE, args: { id } },
    ],
  });
  registry.add({
    namespace: NS,
    pattern: `${BASE}/${plural}/by-slug/${SLUG}`,
    schema,
    endpoints: [
      { id: `vendor.${plural}.slug.get`, service: 'calendar', methods: ['GET'], args: { slug } },
      { id: `vendor.${plural}.slug.update`, service: 'calendar', methods: EDITABLE, args: { slug, ...write(false) } },
      { id: `vendor.${plural}.slug.delete`, service: 'calendar', methods: DELETABLE, args: { slug } },
    ],
  });
}

export function registerVenueRoutes(registry: RouteRegistry): void {
  registerLinked(registry, 'venue');
}

export function registerOrganizerRoutes(registry: RouteRegistry): void {
  registerLinked(registry, 'organizer');
}
