/**
 * The store port: the one document-query language every repository speaks, served by two adapters
 * (MongoDB through the official driver, and the embedded SQLite store). It is a strict subset of
 * MongoDB's filter and update operators plus `$icontains`, an escaped case-insensitive substring match.
 *
 * Rules every adapter keeps (the contract suite checks them):
 * - Documents are plain JSON-like objects; `Date` values round-trip as `Date`.
 * - Adapter-private keys (MongoDB's `_id`) never reach callers.
 * - A filter value is always a literal: strings are never read as operators or patterns.
 * - Dotted paths address nested fields (`meta._EventStartDate`).
 * - Equality against an array field means "the array contains the value" (MongoDB semantics);
 *   `$in` against an array field means "contains any of".
 */
import type { WriteGenerations } from './generations';

export type Scalar = string | number | boolean | Date | null;

export interface FieldOps {
  $eq?: Scalar;
  $ne?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $exists?: boolean;
  /** Case-insensitive substring match; the needle is literal text, never a pattern (only its first MAX_NEEDLE units count). */
  $icontains?: string;
}

export type FieldCondition = Scalar | FieldOps;

export interface Filter {
  $and?: Filter[];
  $or?: Filter[];
  [path: string]: FieldCondition | Filter[] | undefined;
}

export type SortSpec = Array<[path: string, direction: 1 | -1]>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /** Top-level fields to return (always includes `id`); omitted means the whole document. */
  fields?: string[];
}

/** A type, not an interface, so an update is also a plain record (the MongoDB driver takes it as a Document). */
export type Update = {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true | 1 | ''>;
  $inc?: Record<string, number>;
  /** Appends one value to an array field (created when missing). */
  $push?: Record<string, unknown>;
  /** Removes every element equal to the value from an array field. */
  $pull?: Record<string, Scalar>;
};

export type Doc = Record<string, unknown>;

export interface UpdateResult {
  matched: number;
  modified: number;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Distinct values of one field among matching documents (array fields contribute each element). */
  distinct(path: string, filter: Filter): Promise<Scalar[]>;
  insertOne(doc: T): Promise<void>;
  /** Inserts all or none (SQLite: one transaction; MongoDB: ordered bulk insert). */
  insertMany(docs: T[]): Promise<void>;
  updateOne(filter: Filter, update: Update): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Applies the update to the first match and returns the document after the update, or null. */
  findOneAndUpdate(filter: Filter, update: Update): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
}

/** The reading half of a collection: what a repository offers everyone and what the read caches need. */
export type ReadableCollection<T extends Doc = Doc> = Pick<Collection<T>, 'name' | 'find' | 'findOne' | 'count' | 'distinct'>;

/** How a collection's fields are typed and indexed; declared once and given to both adapters. */
export type FieldType = 'int' | 'number' | 'text' | 'bool' | 'date';

export interface CollectionSpec {
  name: string;
  /** Fields that filters and sorts use; each becomes a real, typed column in SQLite. */
  fields: Record<string, FieldType>;
  /** Fields holding arrays of scalars that filters look into (term ids, linked venue ids). */
  arrays?: Record<string, FieldType>;
  /** Compound indexes, in MongoDB key order. */
  indexes?: Array<{
    keys: string[];
    unique?: boolean;
    sparse?: boolean;
    /**
     * Only the records whose text field holds this value, or whose boolean field is true, are indexed
     * (MongoDB: partialFilterExpression; SQLite: a partial index), so other records' writes skip it:
     * `{ type: 'vendor_events' }` for the event-only indexes, `{ featured: true }` for the few featured
     * ones. A query uses it when it asks for those values by equality.
     */
    partial?: Record<string, string | true>;
  }>;
  /**
   * Indexes an earlier declaration made and this one no longer wants, by their keys: ensure() drops them
   * where they exist, with whatever options they were made with, so an existing store stops writing them.
   * An index also declared in `indexes` is kept.
   */
  retired?: Array<{ keys: string[] }>;
}

export interface Store {
  readonly kind: 'mongo' | 'sqlite';
  /** Each collection's write generation in this process (generations.ts). */
  readonly generations: WriteGenerations;
  /**
   * A number that moves whenever another connection (another process) has committed a write, or null
   * when the store cannot tell (MongoDB): then what a process keeps may lag others' writes by its TTL.
   */
  foreignWrites(): number | null;
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /** Next integer from a named counter (first value 1); `count` reserves a block and returns its first id. */
  nextId(counter: string, count?: number): Promise<number>;
  /**
   * Runs `work` as one unit of work: the writes it makes through this store, from any repository, are
   * kept all together or not at all, also when the process is killed in the middle. A unit inside a
   * unit is part of it. How, by `unitMode`:
   * - `transaction` (SQLite; MongoDB on a replica set or sharded cluster): one transaction. On SQLite,
   *   every other operation of the store waits while the unit is open, so a unit's work must only touch
   *   the store, and briefly (fetches, file writes and image processing come before it). On MongoDB,
   *   `work` may run again after a transient transaction error, which is another reason for the same rule.
   * - `compensation` (a standalone MongoDB, which has no transactions): every document the unit inserts
   *   is recorded in a journal before it is inserted, and deleted again when the unit fails, or, when
   *   the process died, by the recovery any process of the store runs once the unit's lease has passed.
   *   Updates and deletes cannot be undone: once the unit's first one has been applied, its inserts are
   *   kept (they may be named by it), and so is whatever it writes after. A unit inserts first and
   *   updates last. Readers outside the unit may see its inserts before it ends.
   * A failed unit's `nextId` numbers may be given out again (SQLite) or skipped (MongoDB).
   */
  unit<R>(work: () => Promise<R>): Promise<R>;
  /** How `unit` keeps its writes together on this store. */
  readonly unitMode: 'transaction' | 'compensation';
  /** Creates collections, columns and indexes; idempotent, called at start-up. */
  ensure(specs: CollectionSpec[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Raised by an adapter when a unique index rejects a write. */
export class DuplicateKeyError extends Error {
  constructor(
    public readonly collection: string,
    public readonly keys: string[],
  ) {
    super(`duplicate key in ${collection} (${keys.join(', ')})`);
    this.name = 'DuplicateKeyError';
  }
}
