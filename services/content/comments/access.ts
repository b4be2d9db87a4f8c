/**
 * Who may read, edit and moderate comments (reference: the comments controller's check_read_permission,
 * check_read_post_permission and check_edit_permission, with map_meta_cap's edit_comment → edit_post).
 */
import type { CapabilityType } from '#libs/auth/roles';
import { can, canEditRecord, canReadRecord, type Caller } from '#libs/auth/user';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import type { Filter } from '#libs/store/types';
import { canEditPost, canReadPost } from '../posts/access';
import type { CommentDoc } from '#libs/comments/repository';

/** Post types shown in the REST API, by the capability type their rights are named after. */
const CAP_TYPES: Record<string, CapabilityType> = {
  post: 'post',
  page: 'page',
  [EVENT_TYPE]: 'vendor_event',
  [VENUE_TYPE]: 'vendor_venue',
  [ORGANIZER_TYPE]: 'vendor_organizer',
};

/** Post types whose editor supports notes. */
const NOTE_TYPES = new Set(['post', 'page']);

export const supportsNotes = (post: Pick<PostDoc, 'type'>): boolean => NOTE_TYPES.has(post.type);

type PostLike = Pick<PostDoc, 'type' | 'author' | 'status' | 'trash'>;

const judged = (post: PostLike) => ({ author: post.author, status: post.status === 'trash' ? (post.trash?.status ?? 'draft') : post.status });

/** edit_post on any post-like record the API shows. */
export function canEditAnyPost(user: Caller, post: PostLike): boolean {
  const t = CAP_TYPES[post.type];
  if (!t) return false;
  if (t === 'post' || t === 'page') return canEditPost(user, post);
  return canEditRecord(user, t, judged(post));
}

/** The posts controller's check_read_permission (types outside the API are never readable). */
function canReadAnyPost(user: Caller, post: PostLike): boolean {
  const t = CAP_TYPES[post.type];
  if (!t) return false;
  if (t === 'post' || t === 'page') return canReadPost(user, post);
  return canReadRecord(user, t, judged(post));
}

export interface PostAccess {
  context?: unknown;
  /** The post password the request carries. */
  password?: unknown;
  /** Whether the request names this one post (a single comment, or exactly one `post`): only then is a password honoured. */
  named: boolean;
}

/** check_read_post_permission: a protected post needs edit rights unless the request may see its content. */
export function canReadPostOf(user: Caller, post: PostDoc, access: PostAccess): boolean {
  if (post.password) {
    const unlocked =
      access.named &&
      ((access.context === 'edit' && canEditAnyPost(user, post)) ||
        (typeof access.password === 'string' && access.password !== '' && access.password === post.password));
    if (!unlocked) return canEditAnyPost(user, post);
  }
  return canReadAnyPost(user, post);
}

/** edit_comment: edit rights on the comment's post, or edit_posts for a comment without one. */
export function canEditCommentCap(user: Caller, post: PostDoc | null | undefined): boolean {
  if (!user) return false;
  return post ? canEditAnyPost(user, post) : can(user, 'edit_posts');
}

/** check_read_permission of one comment, given its post (null when it has none or it is gone). */
export function canReadComment(user: Caller, comment: CommentDoc, post: PostDoc | null | undefined, access: PostAccess): boolean {
  if (comment.type !== 'note' && comment.post && post && comment.approved === '1' && canReadPostOf(user, post, access)) return true;
  if (comment.type === 'note' && comment.post) return !!post && canEditAnyPost(user, post);
  if (!user) return false;
  if (!comment.post && !can(user, 'moderate_comments')) return false;
  if (comment.author && comment.author === user.id) return true;
  return canEditCommentCap(user, post);
}

/** check_edit_permission (update and delete). */
export function canEditComment(user: Caller, comment: CommentDoc, post: PostDoc | null | undefined): boolean {
  if (!user) return false;
  if (can(user, 'moderate_comments')) return true;
  if (comment.type === 'note' && comment.post && !(post && canEditAnyPost(user, post))) return false;
  return canEditCommentCap(user, post);
}

/** Statuses in which a post is not public (its comments are read only by those who may read it). */
const HIDDEN_STATUSES = ['draft', 'pending', 'future', 'private', 'trash', 'auto-draft'];

/**
 * The comment list's condition that leaves out comments on posts the caller may not read (hidden
 * statuses, or a password the request does not unlock), so that the page and X-WP-Total count only
 * what the caller is shown. A signed-in caller keeps their own comments. Moderators read every post's
 * comments: no condition. The per-comment check still runs on the page (unapproved comments, notes).
 */
export async function readablePostsCondition(
  user: Caller,
  access: PostAccess,
  findPosts: (filter: Filter) => Promise<PostDoc[]>,
  /** The posts the list is limited to (`post=`), when it is: only they need looking at. */
  postIds: number[] = [],
): Promise<Filter | null> {
  if (can(user, 'moderate_comments')) return null;
  const types = Object.keys(CAP_TYPES);
  const within = postIds.length ? { id: { $in: postIds } } : {};
  const candidates = await findPosts({
    $or: [
      { ...within, type: { $in: types }, status: { $in: HIDDEN_STATUSES } },
      { ...within, type: { $in: types }, status: 'publish', password: { $gt: '' } },
    ],
  });
  const hidden = candidates.filter((p) => !canReadPostOf(user, p, access) && !canEditCommentCap(user, p)).map((p) => p.id);
  if (!hidden.length) return null;
  const notHidden: Filter = { post: { $nin: hidden } };
  return user ? { $or: [notHidden, { author: user.id }] } : notHidden;
}
