/**
 * Events' images (insert.ts): the `image` URLs of an `events` step's events, copied into the media
 * library once the events are stored.
 */
import type { PostDoc } from '#libs/posts/types';
import { fetchImage } from '#libs/media/sideload';
import { RestError } from '#libs/rest/errors';
import { addActivity, type Activity } from './activity';
import type { EventsStep, InsertDeps } from './insert-job';

/**
 * Events' `image` URLs, copied into the media library as the reference's importer does
 * (tribe_upload_image), through the outbound guard: a URL fetched before gives its attachment again,
 * one that is refused or fails leaves the event without an image (the import goes on).
 */
export async function attachImages(
  deps: InsertDeps,
  images: NonNullable<InsertDeps['images']>,
  job: EventsStep,
  written: Map<string, PostDoc>,
  activity: Activity,
): Promise<void> {
  const uploader = { id: job.author, login: '', roles: [], caps: [] };
  for (const spec of job.events) {
    const url = spec.item.image;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) continue;
    const doc = spec.identity.keys.map((k) => written.get(k)).find(Boolean);
    if (!doc) continue;
    let attachment = await images.library.bySourceUrl(url.trim());
    if (!attachment) {
      try {
        const got = await fetchImage(url.trim(), images.policy, () => images.library.tooBig());
        attachment = await images.library.add({ bytes: got.bytes, name: got.name, user: uploader, parent: doc.id, sourceUrl: got.url });
        addActivity(activity, 'attachment', 'created', attachment.id);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        continue;
      }
    }
    if (doc.featured_media !== attachment.id) {
      await deps.posts.save(doc.id, { featured_media: attachment.id });
      doc.featured_media = attachment.id;
    }
  }
}
