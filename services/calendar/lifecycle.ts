/**
 * Trash and permanent deletion of the calendar's records (events, venues, organizers), shared by
 * vendor/events/v1 and ec/v1 so that both keep the reference's side effects: term counts follow the
 * record, events stop linking to a venue or organizer that leaves, and the record's comments are
 * hidden while it is in the trash and go with it when it is deleted for good (wp_trash_post /
 * wp_delete_post).
 */
import { unlinkFromEvents } from '../../libs/calendar/meta';
import type { PostDoc } from '../../libs/posts/types';
import type { CalendarDeps } from './deps';
import { recountFor } from './events/write';

type Linked = Parameters<typeof unlinkFromEvents>[0];

/** `linked` names the kind of a venue or organizer (`venue`, `organizer`); events pass nothing. */
export async function trashRecord(deps: CalendarDeps, doc: PostDoc, linked?: Linked): Promise<PostDoc> {
  const trashed = await deps.posts.trash(doc, deps.now());
  if (linked) await unlink(deps, linked, doc.id);
  await deps.comments.hideForTrashedPost(doc.id);
  await recountFor(deps, doc, trashed);
  return trashed;
}

export async function deleteRecord(deps: CalendarDeps, doc: PostDoc, linked?: Linked): Promise<void> {
  if (linked) await unlink(deps, linked, doc.id);
  await deps.comments.removeForPost(doc.id);
  await deps.posts.remove(doc.id);
  if (doc.terms?.length) await deps.terms.recount(doc.terms);
}

async function unlink(deps: CalendarDeps, linked: Linked, id: number): Promise<void> {
  const { filter, update } = unlinkFromEvents(linked, id);
  await deps.posts.collection.updateMany(filter, update);
}
