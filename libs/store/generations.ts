/**
 * Per-collection write generations of one store connection: every write a process makes through its
 * store moves its collection's number, before it starts and once it is done. Whatever a process keeps
 * between requests (verified credentials, list totals, rendered answers) notes the generation it read
 * at and is dropped as soon as the number moved, so the process always sees its own writes at once,
 * whichever repository or service made them. Writes by other processes are not seen here: a keeper
 * adds a short time-to-live for those (README, "Caches").
 */
export class WriteGenerations {
  private readonly numbers = new Map<string, number>();

  /** The collection's current generation. */
  of(collection: string): number {
    return this.numbers.get(collection) ?? 0;
  }

  /** Marks a write to the collection (called as it starts and again when it has ended). */
  bump(collection: string): void {
    this.numbers.set(collection, this.of(collection) + 1);
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
