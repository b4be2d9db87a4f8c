/**
 * The interval the site asks the remote import service to wait between batches (the reference's
 * `event_aggregator_event_batch_interval` filter, default 10). Here it is a site option an operator sets
 * (`node dist/scripts/import.js interval <seconds>`); whatever is stored, the answer is clamped as the
 * reference clamps the filtered value: non-numeric or at most 10 gives 10, above 600 gives 600.
 */
import type { Collection, Store } from '#libs/store/types';

export const INTERVAL_MIN = 10;
export const INTERVAL_MAX = 600;
export const INTERVAL_OPTION = 'vendor_aggregator_batch_interval';

const isNumeric = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v));

export function clampInterval(value: unknown): number {
  return isNumeric(value) && Math.trunc(Number(value)) > INTERVAL_MIN ? Math.min(INTERVAL_MAX, Math.trunc(Number(value))) : INTERVAL_MIN;
}

/** The batch interval option: one document of the options collection. */
class IntervalOption {
  private readonly options: Collection;

  constructor(store: Store) {
    this.options = store.collection('options');
  }

  async get(): Promise<number> {
    const doc = await this.options.findOne({ id: INTERVAL_OPTION });
    return clampInterval(doc?.value);
  }

  /** Stores the value as given (readers clamp it), creating the option the first time. */
  async set(value: unknown): Promise<void> {
    const r = await this.options.updateOne({ id: INTERVAL_OPTION }, { $set: { value } });
    if (r.matched === 0) await this.options.insertOne({ id: INTERVAL_OPTION, value });
  }
}

export function batchInterval(store: Store): Promise<number> {
  return new IntervalOption(store).get();
}

export function setBatchInterval(store: Store, value: unknown): Promise<void> {
  return new IntervalOption(store).set(value);
}
