/**
 * The collections of the store and their indexed fields, declared once for both adapters. Every
 * list filter of the API is served by one of these indexes.
 */
import { eventFilterIndexes } from '../calendar/event-filters';
import { EVENT_TYPE, VENUE_TYPE } from '../calendar/meta';
import type { CollectionSpec } from '../store/types';

const EVENTS_ONLY = { type: EVENT_TYPE };

/** The meta key of an imported record's creating source (IMPORT_META.record of services/aggregator/items/items.ts), and its path. */
export const IMPORT_RECORD_META = '_vendor_aggregator_record';
const IMPORT_RECORD_META_PATH = `meta.${IMPORT_RECORD_META}`;

/** Every post-like record: posts, pages, revisions, autosaves, events, venues, organizers, imports. */
export const POSTS: CollectionSpec = {
  name: 'posts',
  fields: {
    id: 'int',
    type: 'text',
    status: 'text',
    slug: 'text',
    author: 'int',
    parent: 'int',
    menu_order: 'int',
    title: 'text',
    /** Local date string `YYYY-MM-DD HH:MM:SS`: the reference orders by it. */
    date: 'text',
    date_gmt: 'date',
    modified_gmt: 'date',
    sticky: 'bool',
    format: 'text',
    /** Event start and end in UTC. */
    event_start: 'date',
    event_end: 'date',
    featured: 'bool',
    hide_from_listings: 'bool',
    /** Venues: their coordinates (null without), which the geoloc filters look venues up by. */
    venue_lat: 'number',
    venue_lng: 'number',
    /** Idempotency key of the batch sub-request that created the record. */
    batch_key: 'text',
    /** Import records: the import id the remote import service names them by. */
    import_id: 'text',
    /** Imported records: their primary identity in the import feed (unique), so concurrent imports never create one twice. */
    ea_key: 'text',
    /** Imported records: the import record (an import source) that last wrote them, so a re-import reads its fingerprints in one query. */
    ea_record: 'int',
    /**
     * Imported events: the import source that created them (the meta key IMPORT_META.record of
     * services/aggregator/items/items.ts), which a source run looks its events up by to retire those
     * that left its feed.
     */
    [IMPORT_RECORD_META_PATH]: 'int',
    /** Attachments: the file's MIME type (media_type and mime_type filters). */
    mime_type: 'text',
    /** Attachments fetched from a URL: that URL, so the same image is not fetched twice. */
    source_url: 'text',
    /** Deleting an attachment clears it from the records it is the featured image of. */
    featured_media: 'int',
  },
  arrays: {
    /** Term ids of every taxonomy (term ids are unique across taxonomies). */
    terms: 'int',
    venues: 'int',
    organizers: 'int',
    /** Imported records: every identity an import may name them by (global id, its lineage, the origin's unique id). */
    ea_ids: 'text',
  },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['type', 'status', 'date'] },
    { keys: ['type', 'status', 'date_gmt'] },
    { keys: ['type', 'slug'] },
    { keys: ['type', 'author'] },
    { keys: ['type', 'parent', 'menu_order'] },
    { keys: ['type', 'modified_gmt'] },
    // Indexes only one type's lists use are partial: the records of other types are not written into
    // them (a post, venue or attachment skips the event indexes, an event the venue and media ones).
    { keys: ['type', 'event_start', 'event_end'], partial: EVENTS_ONLY },
    // The event lists by status in date order: an index ending in the sort key, so SQLite walks it in the
    // order asked for, ties in insertion order (rowid), however deep the page.
    { keys: ['type', 'status', 'event_start'], partial: EVENTS_ONLY },
    // The event archive's windows and counts: status, the date window, the listing visibility and the
    // featured flag in one index (the last two read from the index, so counts read only the index, with
    // or without `featured=false`).
    { keys: ['type', 'status', 'event_start', 'event_end', 'hide_from_listings', 'featured'], partial: EVENTS_ONLY },
    // Venues by position: the bounding box of a geofence (libs/calendar/geo.ts).
    { keys: ['type', 'venue_lat', 'venue_lng'], partial: { type: VENUE_TYPE } },
    // The category and tag archives: a term, then the date window, without reading the whole term
    // (MongoDB: a multikey compound index; SQLite: the terms side table copies the dates, sqlite-companions.ts).
    { keys: ['terms', 'event_start', 'event_end'] },
    // The event lists' simple filters (libs/calendar/event-filters.ts).
    ...eventFilterIndexes(),
    { keys: ['parent', 'type'] },
    { keys: ['batch_key'], unique: true, sparse: true },
    { keys: ['import_id'], sparse: true },
    { keys: ['ea_key'], unique: true, sparse: true },
    { keys: ['ea_record'], sparse: true },
    { keys: [IMPORT_RECORD_META_PATH], sparse: true },
    // The media list: status, then the MIME types of media_type/mime_type, in date order.
    { keys: ['type', 'status', 'mime_type', 'date'], partial: { type: 'attachment' } },
    { keys: ['source_url'], sparse: true },
    { keys: ['featured_media'] },
  ],
  // Each of these is served by the status and date window index above (an event's write paid for each:
  // one more random leaf page per index per create).
  retired: [
    { keys: ['type', 'status', 'hide_from_listings', 'event_start', 'event_end'] },
    { keys: ['type', 'status', 'event_start', 'event_end', 'hide_from_listings'] },
  ],
};

export const TERMS: CollectionSpec = {
  name: 'terms',
  fields: { id: 'int', taxonomy: 'text', slug: 'text', name: 'text', parent: 'int', count: 'int', batch_key: 'text' },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['taxonomy', 'slug'], unique: true },
    { keys: ['taxonomy', 'name'] },
    { keys: ['taxonomy', 'parent'] },
    // hide_empty lists.
    { keys: ['taxonomy', 'count'] },
    /** Idempotency key of the batch sub-request that created the term. */
    { keys: ['batch_key'], unique: true, sparse: true },
  ],
};

/** User profiles (libs/auth/users.ts); slugs are unique, as the reference's user_nicename. */
export const USERS: CollectionSpec = {
  name: 'users',
  fields: { id: 'int', login: 'text', email: 'text', slug: 'text', name: 'text' },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['login'], unique: true },
    { keys: ['email'], unique: true },
    { keys: ['slug'], unique: true },
  ],
};

/** One small credential record per user, what authentication reads (libs/auth/credentials.ts). */
export const CREDENTIALS: CollectionSpec = {
  name: 'credentials',
  fields: { id: 'int', login: 'text', email: 'text' },
  indexes: [
    { keys: ['id'], unique: true },
    { keys: ['login'], unique: true },
    { keys: ['email'], unique: true },
  ],
};

/** Comments on post-like records (cms/v2 comments). */
export const COMMENTS: CollectionSpec = {
  name: 'comments',
  fields: {
    id: 'int',
    post: 'int',
    parent: 'int',
    /** The commenting user (0 for a guest). */
    author: 'int',
    author_email: 'text',
    /** '0' (hold), '1' (approved), 'spam' or 'trash', as the reference stores comment_approved. */
    approved: 'text',
    type: 'text',
    /** Local date string `YYYY-MM-DD HH:MM:SS`. */
    date: 'text',
    date_gmt: 'date',
  },
  indexes: [
    { keys: ['id'], unique: true },
    // The default list: approved comments of one type, newest first (ties by id, as the list sorts).
    { keys: ['approved', 'type', 'date_gmt', 'id'] },
    { keys: ['approved', 'type', 'date', 'id'] },
    // A post's comments (the `replies` embed), duplicate checks and removal with the post.
    { keys: ['post', 'approved', 'type', 'date_gmt', 'id'] },
    { keys: ['parent', 'approved'] },
    // Author filters, the flood check and "previously approved".
    { keys: ['author', 'date_gmt'] },
    { keys: ['author_email', 'date_gmt'] },
  ],
};

/** Site settings and small service state, keyed by name. */
export const OPTIONS: CollectionSpec = {
  name: 'options',
  fields: { id: 'text' },
  indexes: [{ keys: ['id'], unique: true }],
};

/** Answers of the oEmbed proxy, kept for a day under a key made from the lookup. */
export const OEMBED_CACHE: CollectionSpec = {
  name: 'oembed_cache',
  fields: { id: 'text', expires: 'date' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['expires'] }],
};

/** Geocoder answers by normalised address (libs/geocode/cache.ts), kept for weeks. */
export const GEOCODE_CACHE: CollectionSpec = {
  name: 'geocode_cache',
  fields: { id: 'text', expires: 'date' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['expires'] }],
};

/** Batches of `POST /batch/v1`: their run state and result, for a day when sent with an Idempotency-Key (libs/rest/batch-ledger.ts). */
export const BATCHES: CollectionSpec = {
  name: 'batches',
  fields: { id: 'text', expires: 'date' },
  indexes: [{ keys: ['id'], unique: true }, { keys: ['expires'] }],
};

export const COLLECTIONS: CollectionSpec[] = [POSTS, TERMS, USERS, CREDENTIALS, OPTIONS, OEMBED_CACHE, COMMENTS, BATCHES, GEOCODE_CACHE];
