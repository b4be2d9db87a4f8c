/**
 * Who may read, edit and delete an attachment (the reference's map_meta_cap for attachments: the
 * capability type is `post`; an `inherit` attachment counts as published, so its author needs
 * edit_published_posts and others need edit_others_posts as well).
 */
import { can, canDeleteRecord, canEditRecord, type Caller } from '#libs/auth/user';
import type { PostDoc } from '#libs/posts/types';
import { canReadPost } from '../posts/access';

type Rec = Pick<PostDoc, 'author' | 'status' | 'trash'>;

function effective(doc: Rec): { author: number; status: string } {
  const status = doc.status === 'trash' ? (doc.trash?.status ?? 'inherit') : doc.status;
  return { author: doc.author, status: status === 'inherit' ? 'publish' : status };
}

export function canEditMedia(user: Caller, doc: Rec): boolean {
  return canEditRecord(user, 'post', effective(doc));
}

export function canDeleteMedia(user: Caller, doc: Rec): boolean {
  return canDeleteRecord(user, 'post', effective(doc));
}

/**
 * read_post: an `inherit` attachment is as readable as the record it is attached to (an unattached
 * one is public); `parent` is that record, when it exists.
 */
export function canReadMedia(user: Caller, doc: Rec, parent?: Pick<PostDoc, 'type' | 'author' | 'status' | 'trash'> | null): boolean {
  if (doc.status === 'inherit') return parent ? canReadPost(user, parent) : true;
  if (doc.status === 'publish') return true;
  if (!user) return false;
  if (doc.author === user.id && can(user, 'read')) return true;
  if (doc.status === 'private') return can(user, 'read_private_posts');
  return canEditMedia(user, doc);
}
