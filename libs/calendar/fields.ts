/**
 * The field tables of the calendar's records. For each field of a venue or an organizer that a
 * writer sets: its name in each dialect, the meta key it is stored under, its type and so its sanitiser,
 * its descriptions, and the other names an inline entry may give it under. Everything that lists these
 * fields is derived from here: both dialects' write arguments (libs/routes/vendor-events/linked.ts,
 * libs/routes/ec/args.ts), both response schemas (libs/routes/vendor-events/schemas.ts,
 * libs/routes/ec/schemas.ts), the field-copying part of both presenters, the stored meta of a write and
 * what the archive's search looks into (services/calendar/linked), and which meta keys hold a URL
 * (libs/posts/save-filter.ts). A new field is one row here (and its place in `ecOrder`). The event's
 * table is in ./event-fields.ts.
 */
import { EVENT_FIELDS, type EventFieldRow } from './event-fields';
import { ORGANIZER_META, VENUE_META } from './meta';

/**
 * What a field holds, which says how a write stores it:
 * - `text`: a string; writers without `unfiltered_html` store it through sanitize_text_field,
 * - `url`: a URL, stored as esc_url_raw leaves it by every writer (vendor/events/v1 takes http(s) only),
 * - `email`: an e-mail address (stored as text),
 * - `flag`: a boolean (vendor/events/v1 takes the reference's `yes`/`1`/`true` forms too),
 * - `coordinate`: a finite number within ±`range` degrees (a latitude or a longitude), given as a number or
 *   a numeric string and stored as its numeric text (as the reference keeps meta); read back as a number,
 *   and only when the record has both.
 * Every string type is trimmed, and an empty one removes the stored value.
 */
export type FieldType = 'text' | 'url' | 'email' | 'flag' | 'coordinate';

export interface LinkedField {
  /** The meta key the value is stored under. */
  readonly meta: string;
  readonly type: FieldType;
  /** vendor/events/v1 (where the table's key is the field's name): the write argument's description and the record schema's. */
  readonly v1: { readonly arg: string; readonly record: string };
  /** ec/v1: the field's name there when it differs, its description (the record schema drops the final period), `tel` for phone numbers. */
  readonly ec?: { readonly name?: string; readonly description: string; readonly format?: 'tel' };
  /** Whether the vendor/events/v1 archive's `search` looks into it. */
  readonly search?: boolean;
  /** Other names an inline venue or organizer of an event gives it under (the keys an imported record may carry too). */
  readonly aliases?: readonly string[];
  /** A coordinate's bound: the value lies within ±range degrees. */
  readonly range?: number;
  /** Written in the extended edition only (its write argument is published there only); the free one, as the free reference, ignores it. */
  readonly edition?: 'extended';
  /** Written by the service only (no write argument): shown once stored. */
  readonly readOnly?: true;
  /** A flag shown only once stored (without it, a flag never written reads as on). */
  readonly optional?: true;
}

export type FieldTable = Readonly<Record<string, LinkedField>>;

/** A kind's fields and the order ec/v1 lists them in (names of the table, and fields the presenter computes, such as `directions_link`). */
export interface LinkedFields<T extends FieldTable = FieldTable> {
  readonly fields: T;
  readonly ecOrder: readonly string[];
}

/**
 * A row of a table: the field's type and meta key, its vendor/events/v1 descriptions (the argument's and
 * the record schema's, one string when alike), its ec/v1 description (null: ec/v1 has no such field),
 * and what else it declares.
 */
function field<const T extends FieldType, const C extends string | null, const E extends Partial<LinkedField> = Record<never, never>>(
  type: T,
  meta: string,
  v1: string | readonly [string, string],
  ec: C,
  extra?: E,
): { meta: string; type: T; v1: { arg: string; record: string } } & (C extends string ? { ec: { description: string } } : unknown) & E {
  const [arg, record] = typeof v1 === 'string' ? [v1, v1] : v1;
  // Boundary: `ec` is present exactly when a description is given, as the type says.
  return { meta, type, v1: { arg, record }, ...(ec === null ? {} : { ec: { description: ec } }), ...extra } as never;
}

export const VENUE_FIELDS = {
  fields: {
    address: field('text', VENUE_META.address, 'The venue address', "The venue's address.", { search: true }),
    city: field('text', VENUE_META.city, 'The venue city', "The venue's city.", { search: true }),
    country: field('text', VENUE_META.country, 'The venue country', "The venue's country."),
    province: field('text', VENUE_META.province, 'The venue province', "The venue's province.", { search: true }),
    state: field('text', VENUE_META.state, 'The venue state', "The venue's state.", { search: true }),
    zip: field('text', VENUE_META.zip, 'The venue ZIP code', "The venue's zip code.", { search: true }),
    phone: field('text', VENUE_META.phone, 'The venue phone number', "The venue's phone number.", { search: true }),
    website: field('url', VENUE_META.website, ['The venue website URL', 'The venue website'], "The venue's website.", { aliases: ['url'] }),
    stateprovince: field('text', VENUE_META.stateprovince, 'The venue state or province', null, {
      ec: { name: 'state_province', description: "The venue's state or province." },
      search: true,
      aliases: ['stateProvince', 'state_province'],
    }),
    // The extended edition's geolocation (the reference's Pro): the coordinates, the address they were geocoded from, and the override.
    geo_address: field('text', VENUE_META.geoAddress, 'The address the venue coordinates were geocoded from', null, { edition: 'extended', readOnly: true }),
    geo_lat: field('coordinate', VENUE_META.lat, ['The venue latitude, from -90 to 90', 'The venue latitude'], null, {
      range: 90,
      aliases: ['latitude'],
      edition: 'extended',
    }),
    geo_lng: field('coordinate', VENUE_META.lng, ['The venue longitude, from -180 to 180', 'The venue longitude'], null, {
      range: 180,
      aliases: ['longitude'],
      edition: 'extended',
    }),
    show_map: field('flag', VENUE_META.showMap, ['Whether events linked to the venue should show a map or not', 'Whether a map is shown'], null),
    show_map_link: field(
      'flag',
      VENUE_META.showMapLink,
      ['Whether events linked to the venue should show a map link or not', 'Whether a map link is shown'],
      null,
    ),
    overwrite_coords: field(
      'flag',
      VENUE_META.overwriteCoords,
      [
        'Whether the given latitude and longitude are used instead of geocoding the address (giving both coordinates sets it, unless it is given too)',
        'Whether the coordinates were given rather than geocoded',
      ],
      null,
      { edition: 'extended', optional: true, aliases: ['overwriteCoords', 'OverwriteCoords'] },
    ),
  },
  ecOrder: ['address', 'country', 'city', 'stateprovince', 'state', 'province', 'zip', 'phone', 'directions_link', 'website'],
} as const satisfies LinkedFields;

export const ORGANIZER_FIELDS = {
  fields: {
    phone: field('text', ORGANIZER_META.phone, 'The organizer phone number', null, {
      ec: { description: "The organizer's phone number.", format: 'tel' },
      search: true,
    }),
    website: field('url', ORGANIZER_META.website, ['The organizer website URL', 'The organizer website'], "The organizer's website.", {
      search: true,
      aliases: ['url'],
    }),
    email: field('email', ORGANIZER_META.email, 'The organizer e-mail address', "The organizer's email address.", { search: true }),
  },
  ecOrder: ['phone', 'website', 'email'],
} as const satisfies LinkedFields;

export { EVENT_FIELDS, eventFieldName, type EventField } from './event-fields';

/** The table's fields as `[name, field]` pairs, in the table's order (vendor/events/v1's record order). */
export function fieldEntries(table: LinkedFields): Array<[string, LinkedField]> {
  return Object.entries(table.fields);
}

/**
 * A coordinate as given (a number, or a numeric string): the number when finite and within ±range,
 * `''` for an empty value (which removes it), null when it is no coordinate.
 */
export function coordinateOf(v: unknown, range: number): number | '' | null {
  if (typeof v === 'string' && v.trim() === '') return '';
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= range ? n : null;
}

/** A field's ec/v1 name. */
export const ecName = (name: string, field: LinkedField): string => field.ec?.name ?? name;

/** The meta keys of every calendar field holding a URL (stored as esc_url_raw leaves them, by every writer). */
export const URL_META: readonly string[] = [
  ...Object.values<EventFieldRow>(EVENT_FIELDS).flatMap((f) => (f.type === 'url' && f.meta ? [f.meta] : [])),
  ...[VENUE_FIELDS, ORGANIZER_FIELDS].flatMap((t) =>
    fieldEntries(t)
      .filter(([, f]) => f.type === 'url')
      .map(([, f]) => f.meta),
  ),
];
