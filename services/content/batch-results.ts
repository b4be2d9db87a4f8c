/**
 * The answers of permanent deletes made with an idempotency key (a batch sub-request), kept in the
 * options collection under `batch:<key>` so a retried delete answers as the first one did. A batch job
 * is retried within a day at most, so older answers are dropped whenever a new one is recorded.
 */
import type { Collection, Doc, Store } from '#libs/store/types';

const DAY_MS = 86_400_000;

export class BatchResults {
  private readonly options: Collection;

  constructor(store: Store) {
    this.options = store.collection('options');
  }

  /** The recorded answer of the delete made with this key, or null. */
  answer(key: string): Promise<Doc | null> {
    return this.options.findOne({ id: `batch:${key}` });
  }

  /** Records the answer before the delete runs (a retry after a crash in between finishes it and answers the same); drops answers older than a day. */
  async record(key: string, body: unknown): Promise<void> {
    await this.options.insertOne({ id: `batch:${key}`, status: 200, body, created: new Date() });
    await this.options.deleteMany({ id: { $gte: 'batch:', $lt: 'batch;' }, created: { $lt: new Date(Date.now() - DAY_MS) } });
  }
}
