/**
 * Per-collection write generations of one store connection: every write a process makes through its
 * store moves its collection's number, before it starts and once it is done. Whatever a process keeps
 * between requests (verified credentials, list totals, rendered answers) notes the generation it read
 * at and is dropped as soon as the number moved, so the process always sees its own writes at once,
 * whichever repository or service made them. Writes by other processes are not seen here: a keeper
 * adds a short time-to-live for those (README, "Caches").
 */
import type { Collection } from './types';

export class WriteGenerations {
  private readonly numbers = new Map<string, number>();
  private all = 0;

  /** The collection's current generation. */
  of(collection: string): number {
    return this.numbers.get(collection) ?? 0;
  }

  /** Moves with a write to any collection. */
  any(): number {
    return this.all;
  }

  /** Marks a write to the collection (called as it starts and again when it has ended). */
  bump(collection: string): void {
    this.numbers.set(collection, this.of(collection) + 1);
    this.all++;
  }

  /** Runs an asynchronous write, marking its start and its end (success or failure). */
  async around<R>(collection: string, write: () => Promise<R>): Promise<R> {
    this.bump(collection);
    try {
      return await write();
    } finally {
      this.bump(collection);
    }
  }
}

const WRITES = ['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany'] as const;

/** The collection, with each of its writes marked in the generations as it starts and when it has ended (for an adapter whose writes have no single way in). */
export function trackWrites<C extends Collection>(collection: C, generations: WriteGenerations): C {
  const tracked = Object.create(collection) as C;
  for (const m of WRITES) {
    const write = collection[m] as (...args: unknown[]) => Promise<unknown>;
    (tracked as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => generations.around(collection.name, () => write.apply(collection, args));
  }
  return tracked;
}
