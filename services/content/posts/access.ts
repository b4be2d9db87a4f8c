/**
 * Who may read, edit and delete a post, page or event (the reference's map_meta_cap for read_post, edit_post
 * and delete_post), and which statuses a list may ask for.
 */
import { can, canDeleteRecord, canEditRecord, type Caller } from '#libs/auth/user';
import { CAPABILITY_TYPES, type CapabilityType } from '#libs/auth/roles';
import { postTypeObject } from '#libs/posts/registered';
import type { PostDoc } from '#libs/posts/types';
import type { PostKind } from '#libs/routes/cms/post-args';

/** The capability type a post type registers (`post` for pages' `page`, events' `vendor_event`...); `post` for any other record. */
export const capType = (type: PostKind | string): CapabilityType => {
  const one = postTypeObject(type)?.capType[0];
  return CAPABILITY_TYPES.find((c) => c === one) ?? 'post';
};

/** Statuses with public visibility (anyone reads records in them). */
export const PUBLIC_STATUSES = new Set(['publish']);
/** Statuses whose date floats until the record is scheduled or published. */
export const FLOATING_STATUSES = new Set(['draft', 'pending', 'auto-draft']);
/** What `status=any` means: every status not excluded from search. */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** A trashed record is judged by the status it had before the trash, as the reference does. */
function effective(post: Pick<PostDoc, 'author' | 'status' | 'trash'>): { author: number; status: string } {
  return { author: post.author, status: post.status === 'trash' ? (post.trash?.status ?? 'draft') : post.status };
}

export function canEditPost(user: Caller, post: Pick<PostDoc, 'type' | 'author' | 'status' | 'trash'>): boolean {
  return canEditRecord(user, capType(post.type), effective(post));
}

export function canDeletePost(user: Caller, post: Pick<PostDoc, 'type' | 'author' | 'status' | 'trash'>): boolean {
  return canDeleteRecord(user, capType(post.type), effective(post));
}

/** read_post: published records are public, authors read their own, private needs read_private_X. */
export function canReadPost(user: Caller, post: Pick<PostDoc, 'type' | 'author' | 'status' | 'trash'>): boolean {
  if (PUBLIC_STATUSES.has(post.status)) return true;
  if (!user) return false;
  if (post.author === user.id && can(user, 'read')) return true;
  if (post.status === 'private') return can(user, `read_private_${capType(post.type)}s`);
  return canEditPost(user, post);
}

export const typeCan = (
  user: Caller,
  kind: PostKind,
  verb: 'edit' | 'edit_others' | 'publish' | 'read_private' | 'delete' | 'edit_published' | 'edit_private',
): boolean => can(user, `${verb}_${capType(kind)}s`);
