/**
 * Per-collection write generations of one store connection: every write a process makes through its
 * store moves its collection's number, before it starts and once it is done. Whatever a process keeps
 * between requests (verified credentials, list totals, rendered answers) notes the generation it read
 * at and is dropped as soon as the number moved, so the process always sees its own writes at once,
 * whichever repository or service made them. Writes by other processes are not seen here: a keeper
 * adds a short time-to-live for those (README, "Caches").
 *
 * A second number per collection moves only with writes that may change or remove documents already
 * stored (updates, deletes, a unit of work taken back), not with inserts of new ones: what depends only
 * on documents it names by id (a presented record and what it embeds) is still current after an insert,
 * since ids are never given twice, while a list or a total is not.
 */
/** Collections a unit of work wrote, each with whether every write to it was an insert. */
export type Touched = Map<string, boolean>;

/** Notes a write of a unit of work to a collection: it stays insert-only while every write to it is an insert. */
export function noteTouched(touched: Touched, collection: string, insertOnly: boolean): void {
  touched.set(collection, (touched.get(collection) ?? true) && insertOnly);
}

export class WriteGenerations {
  private readonly numbers = new Map<string, number>();
  private readonly changes = new Map<string, number>();

  /** The collection's current generation: moved by every write. */
  of(collection: string): number {
    return this.numbers.get(collection) ?? 0;
  }

  /** The collection's generation of changes: moved by every write but an insert of new documents. */
  changesOf(collection: string): number {
    return this.changes.get(collection) ?? 0;
  }

  /** Marks a write to the collection (called as it starts and again when it has ended); `insertOnly` when it only adds new documents. */
  bump(collection: string, insertOnly = false): void {
    this.numbers.set(collection, this.of(collection) + 1);
    if (!insertOnly) this.changes.set(collection, this.changesOf(collection) + 1);
  }

  /** Marks the end of a unit of work: its inserts count as such only when it was kept (one taken back removes what it inserted: a change). */
  ended(touched: Touched, kept: boolean): void {
    for (const [collection, insertOnly] of touched) this.bump(collection, kept && insertOnly);
  }

  /** Runs an asynchronous write, marking its start and its end (success or failure). */
  async around<R>(collection: string, write: () => Promise<R>, insertOnly = false): Promise<R> {
    this.bump(collection, insertOnly);
    try {
      return await write();
    } finally {
      this.bump(collection, insertOnly);
    }
  }
}
