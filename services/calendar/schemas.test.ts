/**
 * The record schemas and the presenters of both dialects agree, for every kind: every key a presenter
 * answers with is a property of the kind's schema, and every property of the schema is answered where
 * the schema says (`json_ld` on a single read only), for a record with every field of its field table
 * (libs/calendar/fields.ts, libs/calendar/event-fields.ts) set. Every field of the event's table
 * reaches the write arguments of each dialect that names it, and each consumer's order places it.
 */
import { EVENT_ORDER, eventCopies, eventRecordName } from '#libs/calendar/event-field-orders';
import { EVENT_FIELDS, eventFieldEntries, isEventField } from '#libs/calendar/event-fields';
import { ORGANIZER_FIELDS, VENUE_FIELDS, ecName, fieldEntries, type LinkedFields } from '#libs/calendar/fields';
import { EVENT_META, EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostDoc } from '#libs/posts/types';
import { EC_ENDPOINTS } from '#libs/routes/ec/index';
import { VENDOR_EVENT_ENDPOINTS } from '#libs/routes/vendor-events/events';
import { ecEventSchema, ecOrganizerSchema, ecVenueSchema } from '#libs/routes/ec/schemas';
import { eventSchema, organizerSchema, venueSchema } from '#libs/routes/vendor-events/schemas';
import type { TermDoc } from '#libs/terms/repository';
import { EC_EVENT, EC_ORGANIZER, EC_VENUE } from './ec/kinds';
import { presentEntity, type EcView } from './ec/present';
import type { EventParts } from './events/parts';
import { presentEvent } from './events/present';
import { presentLinked } from './linked/present';
import { ORGANIZER } from './organizers/kind';
import { VENUE } from './venues/kind';

const site = {
  name: 'Site',
  description: '',
  url: 'http://example.test',
  home: 'http://example.test',
  timezone: 'Europe/Paris',
  restRoot: 'http://example.test/index.php/cms-json/',
  authorizeUrl: 'http://example.test/cms-admin/authorize-application.php',
};
const now = new Date('2030-06-01T10:00:00Z');
const admin = { id: 1, roles: ['administrator'] } as never;

const IMAGE = newCalendarRecord(site, now, { id: 9, type: 'attachment', status: 'inherit', slug: 'image', title: 'Image', mime_type: 'image/png' });
const TERM = { id: 5, taxonomy: 'vendor_events_cat', name: 'Music', slug: 'music', description: '', parent: 0, count: 1 } as TermDoc;

/** A record of the kind with every field of its table set (flags off, so they show their stored value). */
function linkedRecord(id: number, type: string, table: LinkedFields, extra: Record<string, unknown> = {}): PostDoc {
  const meta: Record<string, unknown> = { ...extra };
  for (const [name, field] of fieldEntries(table))
    meta[field.meta] = field.type === 'flag' ? false : field.type === 'url' ? `http://${name}.test/` : field.type === 'coordinate' ? 12.5 : `The ${name}`;
  return newCalendarRecord(site, now, {
    id,
    type,
    status: 'publish',
    slug: `r${id}`,
    title: `Record ${id}`,
    content: 'About it',
    excerpt: 'In short',
    featured_media: IMAGE.id,
    meta,
  });
}

const venue = linkedRecord(2, VENUE_TYPE, VENUE_FIELDS);
const organizer = linkedRecord(3, ORGANIZER_TYPE, ORGANIZER_FIELDS);
const event = newCalendarRecord(site, now, {
  id: 4,
  type: EVENT_TYPE,
  status: 'publish',
  slug: 'event',
  title: 'Event',
  content: 'What happens',
  excerpt: 'In short',
  featured_media: IMAGE.id,
  tax: { vendor_events_cat: [TERM.id], post_tag: [TERM.id] },
  terms: [TERM.id],
  venues: [venue.id],
  organizers: [organizer.id],
  meta: {
    [EVENT_META.start]: '2030-06-02 10:00:00',
    [EVENT_META.end]: '2030-06-02 12:00:00',
    [EVENT_META.startUtc]: '2030-06-02 08:00:00',
    [EVENT_META.endUtc]: '2030-06-02 10:00:00',
    [EVENT_META.timezone]: 'Europe/Paris',
    [EVENT_META.cost]: '10',
    [EVENT_META.url]: 'http://event.test/',
    [EVENT_META.featured]: true,
    [EVENT_META.allDay]: false,
    [EVENT_META.duration]: 7200,
    [EVENT_META.showMap]: false,
    [EVENT_META.showMapLink]: false,
    [EVENT_META.hideFromListings]: 'yes',
    [EVENT_META.venues]: [venue.id],
    [EVENT_META.organizers]: [organizer.id],
  },
});

const posts = new Map<number, PostDoc>([IMAGE, venue, organizer].map((d) => [d.id, d]));
const related = { posts, terms: new Map([[TERM.id, TERM]]) };

const propertiesOf = (schema: Record<string, unknown>): string[] => Object.keys(schema.properties as Record<string, unknown>);

describe('vendor/events/v1: the record schemas list what the presenters answer, in order', () => {
  const linked = (kind: typeof VENUE, doc: PostDoc, single: boolean) => presentLinked(kind, doc, site, related, { single });
  const parts = (single: boolean): EventParts => ({
    linked: (kind, id) => (posts.get(id)?.type === kind.type ? linked(kind, posts.get(id)!, single) : undefined),
    term: () => ({ id: TERM.id, name: TERM.name }),
    image: () => ({ url: 'http://example.test/image.png', id: IMAGE.id }),
  });

  it.each([
    ['venue', () => venueSchema(), (single: boolean) => linked(VENUE, venue, single)],
    ['organizer', () => organizerSchema(), (single: boolean) => linked(ORGANIZER, organizer, single)],
    ['event', () => eventSchema(), (single: boolean) => presentEvent(event, site, parts(single), { single })],
  ])('%s', (_kind, schema, present) => {
    const properties = propertiesOf(schema());
    expect(Object.keys(present(true))).toEqual(properties);
    expect(Object.keys(present(false))).toEqual(properties.filter((k) => k !== 'json_ld'));
  });
});

describe('ec/v1: the record schemas list what the presenters answer', () => {
  const view: EcView = { site, user: admin, now, posts, terms: new Map([[TERM.id, TERM]]) };
  // The entity schema every type shares declares the term lists and CSS classes, which only events carry (as in the reference).
  const EVENT_ONLY = ['tags', 'class_list'];

  it.each([
    ['venue', () => ecVenueSchema(), () => presentEntity(EC_VENUE, venue, view), EVENT_ONLY],
    ['organizer', () => ecOrganizerSchema(), () => presentEntity(EC_ORGANIZER, organizer, view), EVENT_ONLY],
    ['event', () => ecEventSchema(), () => presentEntity(EC_EVENT, event, view), []],
  ])('%s', (_kind, schema, present, absent) => {
    const properties = propertiesOf(schema());
    const presented = Object.keys(present());
    expect(presented.filter((k) => !properties.includes(k))).toEqual([]);
    expect(properties.filter((k) => !presented.includes(k))).toEqual(absent);
  });

  it.each([
    ['venue', VENUE_FIELDS],
    ['organizer', ORGANIZER_FIELDS],
  ])('places every field ec/v1 has of a %s in its ec/v1 order, once', (_kind, table: LinkedFields) => {
    const inEc = fieldEntries(table)
      .filter(([, f]) => f.ec)
      .map(([n]) => n);
    expect(table.ecOrder.filter((n) => inEc.includes(n)).sort()).toEqual([...inEc].sort());
    expect(new Set(table.ecOrder).size).toBe(table.ecOrder.length);
  });

  it("lists a linked record's own fields in the field table's ec/v1 order", () => {
    const presented = Object.keys(presentEntity(EC_VENUE, venue, view));
    const own = presented.slice(presented.indexOf('template') + 1);
    const fields = new Map(fieldEntries(VENUE_FIELDS));
    expect(own).toEqual(VENUE_FIELDS.ecOrder.map((n) => (fields.has(n) ? ecName(n, fields.get(n)!) : n)));
  });
});

describe('the event field table', () => {
  const rows = eventFieldEntries();

  it('stores every field the event record sets (the record above has every meta field of the table)', () => {
    const stored = rows.flatMap(([, row]) => ('meta' in row.store ? [row.store.meta] : []));
    expect(stored.filter((key) => !(key in (event.meta ?? {})))).toEqual([]);
  });

  it('reaches the write arguments of each dialect it names, required on a create where it says', () => {
    const v1Create = VENDOR_EVENT_ENDPOINTS.create.args as Record<string, { required?: boolean }>;
    const v1Update = VENDOR_EVENT_ENDPOINTS.update.args as Record<string, { required?: boolean }>;
    const ecUpdate = EC_ENDPOINTS.events.update.args as Record<string, unknown>;
    for (const [field, row] of rows) {
      if (row.v1) expect([field, row.v1 in v1Update]).toEqual([field, true]);
      if (row.v1Arg && row.v1) {
        expect([field, !!v1Create[row.v1]?.required]).toEqual([field, row.v1Arg.create === 'required']);
        expect([field, v1Update[row.v1].required]).toEqual([field, undefined]);
      }
      if (row.ec) expect([field, row.ec in ecUpdate]).toEqual([field, true]);
    }
  });

  it("places each field once in every order that concerns it, and names nothing else of the table's", () => {
    const placed = (order: readonly string[], has: (field: (typeof rows)[number][1]) => boolean) => {
      expect(new Set(order).size).toBe(order.length);
      expect(
        rows
          .filter(([, row]) => has(row))
          .map(([field]) => field)
          .filter((f) => !order.includes(f)),
      ).toEqual([]);
    };
    placed(EVENT_ORDER.ecArgs, (row) => !!row.ecArg);
    placed(EVENT_ORDER.v1Record, (row) => !!row.record?.v1);
    placed(EVENT_ORDER.ecRecord, (row) => !!row.record?.ec);
    placed(EVENT_ORDER.csv, (row) => !!row.import?.item);
    placed(EVENT_ORDER.ability, (row) => !!row.ability);
    for (const field of [...EVENT_ORDER.ecArgs, ...EVENT_ORDER.ability]) expect([field, isEventField(field)]).toEqual([field, true]);
  });

  it('the plain copies are presented as stored, in both dialects', () => {
    const parts: EventParts = { linked: () => undefined, term: () => undefined, image: () => false as never };
    const v1 = presentEvent(event, site, parts);
    const ec = presentEntity(EC_EVENT, event, { site, user: admin, now, posts, terms: new Map() });
    const stored = (meta: string) => event.meta![meta];
    for (const copy of eventCopies('v1')) expect([copy.name, v1[copy.name]]).toEqual([copy.name, !!stored(copy.meta)]);
    for (const copy of eventCopies('ec')) expect([copy.name, ec[copy.name]]).toEqual([copy.name, !!stored(copy.meta)]);
    expect(eventCopies('v1').map((c) => c.name)).toEqual(['show_map', 'show_map_link', 'featured']);
    expect(eventRecordName('startUtc', 'v1')).toBe('utc_start_date');
    expect(EVENT_FIELDS.categories.ec).toBe('vendor_events_cat');
  });
});
