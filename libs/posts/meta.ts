/**
 * Meta registered on posts and pages (the interface's meta table): the calendar keys every post-like
 * record may carry and core's `footnotes`. Stored in `PostDoc.meta` under these keys, so cms/v2 and the
 * calendar service read and write the same values; a key that was never written reads as its default.
 */
import { isRecord } from '../rest/args';
import type { ArgDecl, ArgSchema } from '../rest/registry';
import { coerce, ownEntry, validateArg } from '../rest/validate';

export interface MetaKey {
  type: 'string' | 'boolean' | 'array';
  /** Element type of array keys (the reference registers them as non-single meta of numbers). */
  items?: 'number';
  default: string | boolean | number[];
  description: string;
}

const str = (description: string): MetaKey => ({ type: 'string', default: '', description });
const bool = (description: string): MetaKey => ({ type: 'boolean', default: false, description });

export const POST_META: Record<string, MetaKey> = {
  _EventAllDay: bool('Whether the event lasts all day.'),
  _EventTimezone: str('Time zone of the event.'),
  _EventStartDate: str('Start of the event, local time.'),
  _EventEndDate: str('End of the event, local time.'),
  _EventStartDateUTC: str('Start of the event, UTC.'),
  _EventEndDateUTC: str('End of the event, UTC.'),
  _EventShowMap: bool('Whether to show a map.'),
  _EventShowMapLink: bool('Whether to show a map link.'),
  _EventURL: str('Event website.'),
  _EventCost: str('Event cost.'),
  _EventCostDescription: str('Description of the event cost.'),
  _EventCurrencySymbol: str('Currency symbol.'),
  _EventCurrencyCode: str('Currency code.'),
  _EventCurrencyPosition: str('Where the currency symbol goes.'),
  _EventDateTimeSeparator: str('Separator between date and time.'),
  _EventTimeRangeSeparator: str('Separator of a time range.'),
  _EventOrganizerID: { type: 'array', items: 'number', default: [], description: 'Organizer IDs.' },
  _EventVenueID: { type: 'array', items: 'number', default: [], description: 'Venue IDs.' },
  _OrganizerEmail: str('Organizer e-mail.'),
  _OrganizerPhone: str('Organizer phone.'),
  _OrganizerWebsite: str('Organizer website.'),
  _VenueAddress: str('Venue address.'),
  _VenueCity: str('Venue city.'),
  _VenueCountry: str('Venue country.'),
  _VenueProvince: str('Venue province.'),
  _VenueState: str('Venue state.'),
  _VenueZip: str('Venue postal code.'),
  _VenuePhone: str('Venue phone.'),
  _VenueURL: str('Venue website.'),
  _VenueStateProvince: str('Venue state or province.'),
  _VenueLat: str('Venue latitude.'),
  _VenueLng: str('Venue longitude.'),
  _VenueShowMap: bool('Whether to show a map of the venue.'),
  _VenueShowMapLink: bool('Whether to show a map link for the venue.'),
  footnotes: str('Footnotes of the content.'),
};

/** The JSON schema of one key, as the record schema and the argument publish it. */
export function metaKeySchema(key: MetaKey): ArgSchema {
  if (key.type === 'array') return { type: 'array', description: key.description, items: { type: 'number', default: 0 }, default: key.default };
  return { type: key.type, description: key.description, default: key.default };
}

const KEY_SCHEMAS: Record<string, ArgSchema> = Object.fromEntries(Object.entries(POST_META).map(([k, v]) => [k, metaKeySchema(v)]));

/** The `meta` property of the record schema. */
export function metaSchema(): ArgSchema {
  return { description: 'Meta fields.', type: 'object', context: ['view', 'edit'], properties: KEY_SCHEMAS };
}

/**
 * The `meta` write argument. Each registered key is checked against its type (`meta[_EventAllDay] is not
 * of type boolean.`); `null` deletes a key (it reads as its default again); unknown keys are ignored, as
 * the reference does. The check runs in the gateway like every argument's.
 */
export function metaArg(): ArgDecl {
  return {
    description: 'Meta fields.',
    type: 'object',
    validate(value) {
      // The schema checked that it is an object.
      for (const [k, v] of Object.entries(isRecord(value) ? value : {})) {
        const schema = ownEntry(KEY_SCHEMAS, k);
        if (!schema || v === null) continue;
        const r = validateArg(`meta[${k}]`, v, schema, {});
        if ('error' in r) return r.error;
      }
      return true;
    },
    sanitize(value) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(isRecord(value) ? value : {})) {
        const schema = ownEntry(KEY_SCHEMAS, k);
        if (schema) out[k] = v === null ? null : coerce(v, schema);
      }
      return out;
    },
  };
}

const DEFAULTS: Record<string, unknown> = Object.fromEntries(Object.entries(POST_META).map(([k, v]) => [k, v.default]));

/** Every registered key with its stored value or default (the `meta` field of a response). */
export function readMeta(stored: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...DEFAULTS };
  if (stored) for (const k in stored) if (k in DEFAULTS && stored[k] !== null && stored[k] !== undefined) out[k] = stored[k];
  return out;
}

/** The stored meta after a write: keys set to null are removed, others replaced. */
export function mergeMeta(stored: Record<string, unknown> | undefined, changes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
