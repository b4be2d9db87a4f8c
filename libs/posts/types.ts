/**
 * The post record: one document shape for every post-like type (post, page, revision, autosave,
 * vendor_events, vendor_venue, vendor_organizer, import records), stored in the `posts` collection
 * like the reference system's wp_posts + wp_postmeta. Calendar data lives in `meta` under the keys
 * the interface lists (`_EventStartDate`, `_VenueCity`, ...), so cms/v2, vendor/events/v1 and ec/v1
 * read and write the same data; the few values list filters need are copied to indexed top-level
 * fields by the repository.
 */

export type PostType = 'post' | 'page' | 'revision' | 'vendor_events' | 'vendor_venue' | 'vendor_organizer' | string;

export interface TrashInfo {
  /** Status before trashing (restored on untrash). */
  status: string;
  time: Date;
  /** Slug before the `__trashed` suffix. */
  desired_slug: string;
}

export interface PostDoc extends Record<string, unknown> {
  id: number;
  type: PostType;
  status: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  author: number;
  parent: number;
  menu_order: number;
  /** The post password ('' when none). */
  password: string;
  /** Local date in the site time zone, `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  /** UTC date; null while a draft's date floats (the reference's 0000-00-00 00:00:00). */
  date_gmt: Date | null;
  modified: string;
  modified_gmt: Date;
  comment_status: 'open' | 'closed';
  ping_status: 'open' | 'closed';
  template: string;
  /** Post format ('' for standard). */
  format: string;
  sticky: boolean;
  featured_media: number;
  guid: string;
  /** Term ids per taxonomy (`category`, `post_tag`, `vendor_events_cat`). */
  tax: Record<string, number[]>;
  /** Every term id of `tax`, flattened for the index (kept in step by the repository). */
  terms: number[];
  /** Registered meta (calendar keys, footnotes, ...). */
  meta: Record<string, unknown>;
  trash?: TrashInfo;
  /** Calendar index fields, derived from meta by the calendar service. */
  event_start?: Date | null;
  event_end?: Date | null;
  featured?: boolean;
  hide_from_listings?: boolean;
  venues?: number[];
  organizers?: number[];
  /** Idempotency key of the batch sub-request that created the record. */
  batch_key?: string;
  /** Keys of the batch sub-requests that last changed the record, so a retried batch does not apply them twice. */
  batch_keys?: string[];
  /** Revisions (and autosaves) of the record and the newest one, kept by whoever writes revisions. */
  revision_count?: number;
  latest_revision?: number;
}

/** Statuses anyone may read. */
export const PUBLIC_STATUSES = ['publish'];
