/**
 * Units of work of the MongoDB store (Store.unit), in one of two modes, chosen at connection from what
 * the server says it is (`hello`):
 * - `transaction`, on a replica set (a single-node one will do) or a sharded cluster: the unit is a
 *   transaction of one session (the driver's withTransaction, which commits, and runs the work again
 *   after a transient error). Every operation of the unit's work carries that session, found through an
 *   AsyncLocalStorage scope; `nextId` does not, so ids are never part of a transaction's conflicts.
 * - `compensation`, on a standalone server, which has no transactions: before each insert, the unit's
 *   journal entry (collection `_units`, created with the unit's first insert) records the ids of the
 *   documents about to be inserted. Deleting the entry commits them: when the unit's first update or
 *   delete has been applied (an update cannot be undone, and it may name what the unit inserted), or
 *   when the unit ends. When the work fails before, the recorded documents are deleted again. When the
 *   process dies before, the entry stays: once its lease has passed, the recovery of any process of the
 *   store (at connection and every half lease) claims it and deletes the documents. A unit whose entry
 *   was claimed before it could commit fails with UnitAbandonedError. So a unit inserts first and
 *   updates last; from its first update on, what it writes stays.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ObjectId, type ClientSession, type Db, type Document, type MongoClient } from 'mongodb';
import { noteTouched, type Touched, type WriteGenerations } from './generations';

/** The journal of compensated units. Adapter-private: a port collection name cannot start with `_`. */
export const UNIT_JOURNAL = '_units';
/** How long a compensated unit may run before recovery takes its process for dead and undoes its inserts. */
export const UNIT_LEASE_MS = 60_000;

export type UnitMode = 'transaction' | 'compensation';

/** A compensated unit ran past its lease and recovery undid its inserts before it could commit. */
export class UnitAbandonedError extends Error {
  constructor() {
    super(`the unit of work ran longer than ${UNIT_LEASE_MS} ms and was undone`);
    this.name = 'UnitAbandonedError';
  }
}

interface Scope {
  /** False once the unit has ended: work it left running is then outside any unit. */
  open: boolean;
  /** Collections the unit wrote, each with whether it only inserted: their generations move again when it ends (a commit or an undo changes them). */
  touched: Touched;
  session?: ClientSession;
  /** Compensation: the id of the unit's journal entry, whether it exists yet, and whether it was committed (deleted). */
  journal?: Journal;
}

interface Journal {
  id: ObjectId;
  created: boolean;
  committed: boolean;
}

interface JournalEntry {
  _id: ObjectId;
  state: 'open' | 'undoing';
  expires: Date;
  inserts: Array<{ c: string; ids: ObjectId[] }>;
}

/** Whether the server runs transactions: a replica-set member or a mongos router. */
export async function unitModeOf(db: Pick<Db, 'command'>): Promise<UnitMode> {
  const hello = await db.command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid' ? 'transaction' : 'compensation';
}

export class MongoUnits {
  private readonly scope = new AsyncLocalStorage<Scope>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    readonly mode: UnitMode,
    private readonly generations: WriteGenerations,
  ) {}

  private get journal() {
    return this.db.collection<JournalEntry>(UNIT_JOURNAL);
  }

  private active(): Scope | undefined {
    const s = this.scope.getStore();
    return s?.open ? s : undefined;
  }

  /** Driver options of an operation: the session of the caller's transaction, if it runs in one. */
  options(): { session?: ClientSession } {
    const session = this.active()?.session;
    return session ? { session } : {};
  }

  /** Notes a write of the caller's unit to a collection (nothing outside a unit). */
  touch(collection: string, insertOnly = false): void {
    const unit = this.active();
    if (unit) noteTouched(unit.touched, collection, insertOnly);
  }

  /** In a compensated unit not committed yet: gives the documents their ids and records them in the unit's journal before they are inserted. */
  async beforeInsert(collection: string, docs: Document[]): Promise<void> {
    const journal = this.active()?.journal;
    if (!journal || journal.committed) return;
    const ids = docs.map((d) => (d._id = new ObjectId()));
    if (!journal.created) {
      const expires = new Date(Date.now() + UNIT_LEASE_MS);
      await this.journal.insertOne({ _id: journal.id, state: 'open', expires, inserts: [{ c: collection, ids }] });
      journal.created = true;
      return;
    }
    const r = await this.journal.updateOne({ _id: journal.id, state: 'open' }, { $push: { inserts: { c: collection, ids } } });
    if (r.matchedCount !== 1) throw new UnitAbandonedError();
  }

  /**
   * Runs an update or delete. The first one of a compensated unit commits the unit's inserts once it has
   * been applied: a failure before then still undoes them, a failure after keeps them with the update.
   */
  async change<R>(op: () => Promise<R>): Promise<R> {
    const journal = this.active()?.journal;
    if (!journal || journal.committed) return op();
    const result = await op();
    await this.commit(journal);
    return result;
  }

  /** Deletes the journal entry (the inserts it records stay); fails when recovery has claimed it meanwhile. */
  private async commit(journal: Journal): Promise<void> {
    if (journal.committed) return;
    if (journal.created && (await this.journal.deleteOne({ _id: journal.id, state: 'open' })).deletedCount !== 1) throw new UnitAbandonedError();
    journal.committed = true;
  }

  async run<R>(work: () => Promise<R>): Promise<R> {
    // A unit inside a unit is part of it.
    if (this.active()) return work();
    const unit: Scope = { open: true, touched: new Map() };
    let done = false;
    try {
      const result = this.mode === 'transaction' ? await this.transaction(unit, work) : await this.compensated(unit, work);
      done = true;
      return result;
    } finally {
      unit.open = false;
      this.generations.ended(unit.touched, done);
    }
  }

  private async transaction<R>(unit: Scope, work: () => Promise<R>): Promise<R> {
    const session = this.client.startSession();
    unit.session = session;
    try {
      return await session.withTransaction(() => this.scope.run(unit, work));
    } finally {
      // Closed before its session ends: work the unit left running must not take up the ended session
      // while endSession is still on its way (it answered MongoExpiredSessionError on a loaded machine).
      unit.open = false;
      await session.endSession();
    }
  }

  private async compensated<R>(unit: Scope, work: () => Promise<R>): Promise<R> {
    const journal: Journal = { id: new ObjectId(), created: false, committed: false };
    unit.journal = journal;
    try {
      const result = await this.scope.run(unit, work);
      unit.open = false;
      await this.commit(journal);
      return result;
    } catch (e) {
      unit.open = false;
      // When the store cannot be reached now, the entry stays and recovery undoes the inserts later.
      if (journal.created && !journal.committed) await this.undo(journal.id).catch(() => undefined);
      throw e;
    }
  }

  /** Undoes a unit of this process that failed, unless recovery has claimed it already. */
  private async undo(id: ObjectId): Promise<void> {
    const entry = await this.journal.findOneAndUpdate({ _id: id, state: 'open' }, { $set: { state: 'undoing' } }, { returnDocument: 'after' });
    if (entry) await this.undoEntry(entry);
  }

  private async undoEntry(entry: JournalEntry): Promise<void> {
    for (const { c, ids } of entry.inserts) await this.generations.around(c, () => this.db.collection(c).deleteMany({ _id: { $in: ids } }));
    await this.journal.deleteOne({ _id: entry._id });
  }

  /**
   * Undoes every compensated unit whose lease has passed at `now` (its process died, or could not undo
   * it): each entry is claimed first, with a new lease, so two processes never undo one unit at once and
   * an undo cut short is taken up again later. Returns the number of units undone.
   */
  async recover(now = new Date()): Promise<number> {
    let undone = 0;
    for (;;) {
      const entry = await this.journal.findOneAndUpdate(
        { expires: { $lt: now } },
        { $set: { state: 'undoing', expires: new Date(now.getTime() + UNIT_LEASE_MS) } },
        { returnDocument: 'after' },
      );
      if (!entry) return undone;
      await this.undoEntry(entry);
      undone++;
    }
  }

  /** Creates the journal's index and, in compensation mode, recovers now and every half lease. */
  async start(): Promise<void> {
    if (this.mode !== 'compensation' || this.sweeper) return;
    await this.journal.createIndex({ expires: 1 });
    await this.recover();
    // A recovery that fails (the store is unreachable) leaves the entries for the next one.
    this.sweeper = setInterval(() => void this.recover().catch(() => undefined), UNIT_LEASE_MS / 2);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
