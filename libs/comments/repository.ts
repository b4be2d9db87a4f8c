/**
 * The comments collection (the reference's wp_comments + the comment meta the API shows). Moderation
 * state is kept as the reference keeps comment_approved: '0' (hold), '1' (approved), 'spam', 'trash';
 * trashing or marking as spam remembers the previous state so untrash and unspam restore it.
 */
import { Repository } from '../store/repository';
import type { Store } from '../store/types';

export interface CommentDoc extends Record<string, unknown> {
  id: number;
  post: number;
  parent: number;
  /** The commenting user, 0 for a guest. */
  author: number;
  author_name: string;
  author_email: string;
  author_url: string;
  author_ip: string;
  agent: string;
  /** Local date in the site time zone, `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  date_gmt: Date;
  content: string;
  approved: string;
  type: string;
  meta: Record<string, unknown>;
  /** State before the trash or spam (the reference's _wp_trash_meta_status). */
  trash_status?: string;
  trash_time?: Date;
  /** State before its post went to the trash (the reference keeps it in the post's _wp_trash_meta_comments_status). */
  post_trash_status?: string;
}

/** The state of the comments of a trashed post. */
export const POST_TRASHED = 'post-trashed';

export class CommentsRepository extends Repository<CommentDoc> {
  constructor(private readonly store: Store) {
    super(store.collection<CommentDoc>('comments'));
  }

  nextId(): Promise<number> {
    return this.store.nextId('comments');
  }

  /** Which of these comments have replies (in any state but spam and trash), in one query. */
  async withChildren(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const parents = await this.collection.distinct('parent', { parent: { $in: ids }, approved: { $in: ['0', '1'] } });
    return new Set(parents.map(Number));
  }

  /** wp_delete_comment: the comment goes and its replies move up to its parent. */
  async removeOne(comment: CommentDoc): Promise<void> {
    await this.collection.updateMany({ parent: comment.id }, { $set: { parent: comment.parent } });
    await this.collection.deleteOne({ id: comment.id });
  }

  /** wp_trash_post_comments: a trashed post's comments are hidden, each remembering its state. */
  async hideForTrashedPost(postId: number): Promise<void> {
    for (const state of await this.collection.distinct('approved', { post: postId })) {
      if (state === POST_TRASHED || typeof state !== 'string') continue;
      await this.collection.updateMany({ post: postId, approved: state }, { $set: { approved: POST_TRASHED, post_trash_status: state } });
    }
  }

  /** wp_untrash_post_comments: a post leaving the trash gets its comments back as they were. */
  async restoreForPost(postId: number): Promise<void> {
    for (const state of await this.collection.distinct('post_trash_status', { post: postId, approved: POST_TRASHED })) {
      if (typeof state !== 'string') continue;
      await this.collection.updateMany(
        { post: postId, approved: POST_TRASHED, post_trash_status: state },
        { $set: { approved: state }, $unset: { post_trash_status: true } },
      );
    }
  }

  /** A post deleted for good takes its comments with it. */
  async removeForPost(postId: number): Promise<void> {
    await this.collection.deleteMany({ post: postId });
  }
}
