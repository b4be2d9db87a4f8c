/**
 * The skeleton of a new post record: every field of PostDoc with the value the reference gives a fresh
 * record, so every writer (cms/v2, the calendar APIs, imports, attachments, revisions, the bench
 * seeders) stores the same shape. Callers pass what they know; the rest is filled here.
 */
import { memo } from '../data/memo';
import { mysqlLocal } from '../dates/format';
import type { PostDoc } from './types';

export interface NewPost extends Partial<PostDoc> {
  id: number;
  type: string;
  status: string;
  slug: string;
}

/** The reference's guid: `?page_id=` for pages, `?p=` for posts and revisions, `?post_type=&p=` otherwise. */
export function guidFor(home: string, type: string, id: number): string {
  if (type === 'page') return `${home}/?page_id=${id}`;
  if (type === 'post' || type === 'revision') return `${home}/?p=${id}`;
  return `${home}/?post_type=${type}&p=${id}`;
}

/**
 * Local date strings by instant and zone. Bulk writers (imports) make many records at one `now`, and
 * each record asks for its date and its modified date: formatting in a zone is the costliest part of
 * a new record, so the last two answers are remembered.
 */
const localAt = memo((ms: number, zone: string) => mysqlLocal(new Date(ms), zone), 2);

/** Anything but a valid Date is an invalid instant (NaN, never remembered), formatted as luxon formats one. */
const localText = (date: Date, zone: string): string => localAt(date instanceof Date ? date.getTime() : NaN, zone);

/**
 * A complete record. Dates default to `now` (local strings in the site zone); comments and pings are
 * closed unless given; the guid follows the type.
 */
export function newPostRecord(site: { home: string; timezone: string }, now: Date, fields: NewPost): PostDoc {
  const date = fields.date_gmt ?? now;
  return {
    title: '',
    content: '',
    excerpt: '',
    author: 0,
    parent: 0,
    menu_order: 0,
    password: '',
    date: localText(date, site.timezone),
    date_gmt: date,
    modified: localText(now, site.timezone),
    modified_gmt: now,
    comment_status: 'closed',
    ping_status: 'closed',
    template: '',
    format: '',
    sticky: false,
    featured_media: 0,
    guid: guidFor(site.home, fields.type, fields.id),
    tax: {},
    terms: [],
    meta: {},
    ...fields,
  };
}
