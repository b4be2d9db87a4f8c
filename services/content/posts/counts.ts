/**
 * What post lists keep between requests for anonymous callers: whole answers (totals are kept by
 * libs/store/count-cache.ts for every caller).
 * Entries live for a second, and every write this process makes to posts drops them all, so a process
 * always sees its own writes; another replica's writes show within that second.
 */
import type { Reply } from '../../../libs/rest/service';

const TTL_MS = 1000;
const MAX_ENTRIES = 500;

class Expiring<T> {
  private readonly entries = new Map<string, { value: T; at: number; generation: number }>();
  get(key: string, generation: number): T | undefined {
    const hit = this.entries.get(key);
    return hit && hit.generation === generation && Date.now() - hit.at < TTL_MS ? hit.value : undefined;
  }
  set(key: string, value: T, generation: number, at: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, at, generation });
  }
  clear(): void {
    this.entries.clear();
  }
}

export class ListCache {
  private generation = 0;
  private readonly replies = new Expiring<Reply>();

  /** An anonymous caller's answer: the same for every anonymous caller with the same query. */
  async reply(key: string, make: () => Promise<Reply>): Promise<Reply> {
    const hit = this.replies.get(key, this.generation);
    if (hit) return hit;
    const generation = this.generation;
    const at = Date.now();
    const reply = await make();
    this.replies.set(key, reply, generation, at);
    return reply;
  }

  /** Called after every write to posts. */
  invalidate(): void {
    this.generation++;
    this.replies.clear();
  }
}
