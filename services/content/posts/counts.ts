/**
 * What post lists keep between requests: totals (X-WP-Total) and, for anonymous callers, whole answers.
 * Entries live for a second, and every write this process makes to posts drops them all, so a process
 * always sees its own writes; another replica's writes show within that second.
 */
import type { Reply } from '../../../libs/rest/service';
import type { Filter } from '../../../libs/store/types';

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
  private readonly counts = new Expiring<number>();
  private readonly replies = new Expiring<Reply>();

  async count(filter: Filter, load: () => Promise<number>): Promise<number> {
    const key = JSON.stringify(filter);
    const hit = this.counts.get(key, this.generation);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const at = Date.now();
    const count = await load();
    this.counts.set(key, count, generation, at);
    return count;
  }

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
    this.counts.clear();
    this.replies.clear();
  }
}
