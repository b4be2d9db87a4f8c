/**
 * Imported events are third-party text, whoever owns the import: every event, whatever feed or batch
 * it came from, passes here before anything of it is stored (storage/store-items.ts), and leaves with its text
 * filtered as an author's would be (libs/posts/save-filter.ts): titles and names through the title
 * filter, descriptions and excerpts through the content filter, plain-text fields without markup, URLs
 * (the event's `url`, its image, a venue's or organizer's website) as esc_url_raw leaves them, so a
 * `javascript:` or `data:` URL is stored as nothing; category and tag names as the reference stores
 * term names. Pure.
 */
import { nameField } from '#libs/html/text';
import { THIRD_PARTY } from '#libs/posts/save-filter';
import type { EaEvent, EaOrganizer, EaVenue } from './items';

type Kind = 'title' | 'html' | 'text' | 'url';

const EVENT_TEXT: Record<string, Kind> = {
  title: 'title',
  description: 'html',
  excerpt: 'html',
  url: 'url',
  image: 'url',
  currency_symbol: 'text',
  currency_position: 'text',
};
const LINKED_TEXT: Record<string, Kind> = { description: 'html', excerpt: 'html', phone: 'text', website: 'url' };
const VENUE_TEXT: Record<string, Kind> = {
  ...LINKED_TEXT,
  venue: 'title',
  address: 'text',
  city: 'text',
  country: 'text',
  province: 'text',
  state: 'text',
  stateprovince: 'text',
  zip: 'text',
  url: 'url',
};
const ORGANIZER_TEXT: Record<string, Kind> = { ...LINKED_TEXT, organizer: 'title', email: 'text' };

function filterValue(kind: Kind, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return THIRD_PARTY[kind](kind === 'url' ? v.trim() : v);
}

/** A copy of an object with its fields of `table` filtered; fields that are not text stay as they are. */
function filterFields<T extends object>(obj: T, table: Record<string, Kind>): T {
  const out: T = { ...obj };
  for (const [name, kind] of Object.entries(table)) {
    if (!Object.hasOwn(out, name)) continue;
    Object.defineProperty(out, name, { value: filterValue(kind, Reflect.get(out, name)), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A list field of term names (a list, or a comma-separated string), each name as the reference stores it. */
function termNames(v: string[] | string | undefined): string[] | string | undefined {
  if (typeof v === 'string') return v.split(',').map(nameField).join(',');
  return Array.isArray(v) ? v.map((n) => (typeof n === 'string' ? nameField(n) : n)) : v;
}

/** The cost as text: a string, or each string of a list, without markup. */
function cost(v: unknown): unknown {
  if (typeof v === 'string') return THIRD_PARTY.text(v);
  return Array.isArray(v) ? v.map((c) => (typeof c === 'string' ? THIRD_PARTY.text(c) : c)) : v;
}

const venue = (v: EaVenue | null | [] | undefined) => (v && !Array.isArray(v) ? filterFields(v, VENUE_TEXT) : v);
const organizer = (o: EaOrganizer) => filterFields(o, ORGANIZER_TEXT);

/** An imported event as it may be stored: its text, its venue's and its organizers' filtered as third-party text. */
export function thirdPartyItem(item: EaEvent): EaEvent {
  const out = filterFields(item, EVENT_TEXT);
  if (item.cost !== undefined) out.cost = cost(item.cost);
  if (item.categories !== undefined) out.categories = termNames(item.categories);
  if (item.tags !== undefined) out.tags = termNames(item.tags);
  if (item.venue !== undefined) out.venue = venue(item.venue);
  if (item.organizer) out.organizer = Array.isArray(item.organizer) ? item.organizer.map(organizer) : organizer(item.organizer);
  return out;
}
