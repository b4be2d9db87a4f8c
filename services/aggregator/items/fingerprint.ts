/**
 * Fingerprints of feed items: a hash of the item as the feed gave it and of what the import source
 * adds (status, categories, author, the site's zone). An import source stores each event's fingerprint
 * with it (`ea_fp`, beside `ea_record`, the source that wrote it), and a re-import loads them for the
 * whole source in one indexed query: an item whose fingerprint is unchanged is reported `unchanged`
 * and nothing is built or written for it.
 */
import { createHash } from 'node:crypto';
import { EVENT_TYPE } from '#libs/calendar/meta';
import type { PostsRepository } from '#libs/posts/repository';
import { eventIdentity } from './identity';
import type { EaEvent } from './items';

export function itemFingerprint(item: EaEvent, context: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify([item, context]))
    .digest('base64url');
}

/** The key a stored event answers to for an item (its `ea_key`), or null when the item has no identity. */
export function storedKeyOf(item: EaEvent, origin: string): string | null {
  const primary = eventIdentity(item, origin).primary;
  return primary ? `${EVENT_TYPE}|${primary}` : null;
}

/** The fingerprints of the events an import record wrote, by their `ea_key`: one query on the `ea_record` index. */
export async function storedFingerprints(posts: PostsRepository, recordId: number): Promise<Map<string, string>> {
  const docs = await posts.find({ ea_record: recordId }, { fields: ['id', 'type', 'ea_key', 'ea_fp'] });
  const out = new Map<string, string>();
  for (const d of docs) if (d.type === EVENT_TYPE && typeof d.ea_key === 'string' && typeof d.ea_fp === 'string') out.set(d.ea_key, d.ea_fp);
  return out;
}
