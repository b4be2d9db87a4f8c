/**
 * The skeleton of a new calendar record (event, venue, organizer): every post field with the value the
 * reference gives a fresh record of that type, so every writer (the calendar API, imports) stores the
 * same shape. Callers pass what they know; the rest is filled here.
 */
import { newPostRecord, type NewPost } from '../posts/record';
import type { PostDoc } from '../posts/types';
import { EVENT_TYPE } from './meta';

export type NewRecord = NewPost;

/** A complete record of `type` (events open to comments and pings, venues and organizers closed). */
export function newCalendarRecord(site: { home: string; timezone: string }, now: Date, fields: NewRecord): PostDoc {
  const open = fields.type === EVENT_TYPE ? 'open' : 'closed';
  return newPostRecord(site, now, { comment_status: open, ping_status: open, ...fields });
}
