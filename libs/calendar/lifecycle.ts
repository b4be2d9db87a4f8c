/**
 * Trash and permanent deletion of the calendar's records (events, venues, organizers), shared by
 * vendor/events/v1, ec/v1 and the feed imports so that all keep the reference's side effects: term
 * counts follow the records, events stop linking to a venue or organizer that leaves, and a record's
 * comments are hidden while it is in the trash and go with it when it is deleted for good
 * (wp_trash_post / wp_delete_post).
 */
import type { CommentsRepository } from '../comments/repository';
import type { PostsRepository } from '../posts/repository';
import type { PostDoc } from '../posts/types';
import type { TermsRepository } from '../terms/repository';
import { unlinkFromEvents } from './meta';

export interface LifecycleDeps {
  posts: PostsRepository;
  terms: TermsRepository;
  comments: CommentsRepository;
  now: () => Date;
}

type Linked = Parameters<typeof unlinkFromEvents>[0];

/** Trashes records of one kind (`linked` names venues or organizers; events pass nothing); their terms' counts move once. */
export async function trashRecords(deps: LifecycleDeps, docs: PostDoc[], linked?: Linked): Promise<PostDoc[]> {
  const trashed: PostDoc[] = [];
  for (const doc of docs) {
    trashed.push(await deps.posts.trash(doc, deps.now()));
    if (linked) await unlink(deps, linked, doc.id);
    await deps.comments.hideForTrashedPost(doc.id);
  }
  await deps.terms.countWrites(docs.map((doc, i): [PostDoc, PostDoc] => [doc, trashed[i]]));
  return trashed;
}

export async function trashRecord(deps: LifecycleDeps, doc: PostDoc, linked?: Linked): Promise<PostDoc> {
  return (await trashRecords(deps, [doc], linked))[0];
}

export async function deleteRecord(deps: LifecycleDeps, doc: PostDoc, linked?: Linked): Promise<void> {
  if (linked) await unlink(deps, linked, doc.id);
  await deps.comments.removeForPost(doc.id);
  await deps.posts.remove(doc.id);
  await deps.terms.countWrite(doc, null);
}

async function unlink(deps: LifecycleDeps, linked: Linked, id: number): Promise<void> {
  await deps.posts.unlinkFromEvents(linked, id);
}
