/**
 * The skeleton of a new calendar record (event, venue, organizer): every post field with the value the
 * reference gives a fresh record of that type, so every writer (the calendar API, imports) stores the
 * same shape. Callers pass what they know; the rest is filled here.
 */
import type { PostDoc } from '../posts/types';
import { mysqlLocal } from '../rest/dates';
import { EVENT_TYPE } from './meta';

export interface NewRecord extends Partial<PostDoc> {
  id: number;
  type: string;
  status: string;
  slug: string;
}

/** A complete record of `type` (events open to comments and pings, venues and organizers closed). */
export function newCalendarRecord(site: { home: string; timezone: string }, now: Date, fields: NewRecord): PostDoc {
  const open = fields.type === EVENT_TYPE ? 'open' : 'closed';
  const date = fields.date_gmt ?? now;
  return {
    title: '',
    content: '',
    excerpt: '',
    author: 0,
    parent: 0,
    menu_order: 0,
    password: '',
    date: mysqlLocal(date, site.timezone),
    date_gmt: date,
    modified: mysqlLocal(now, site.timezone),
    modified_gmt: now,
    comment_status: open,
    ping_status: open,
    template: '',
    format: '',
    sticky: false,
    featured_media: 0,
    guid: `${site.home}/?post_type=${fields.type}&p=${fields.id}`,
    tax: {},
    terms: [],
    meta: {},
    ...fields,
  } as PostDoc;
}
