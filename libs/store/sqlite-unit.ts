/**
 * Units of work of the embedded store (Store.unit): one SQLite transaction on the store's connection,
 * open across the unit's awaits. better-sqlite3 is synchronous and the store has one connection, so
 * while a unit is open the connection is the unit's alone: every other operation of the store, read or
 * write, from any other request, waits until the unit has committed or rolled back. No other request's
 * write slips into the transaction (or is rolled back with it), and no reader sees what the unit has not
 * committed. Units run one at a time, in the order they asked. The unit's own operations are told apart
 * by an AsyncLocalStorage scope; the others wait on a promise, in the event loop, never in SQLite's busy
 * handler, which would block the very thread the unit needs to finish.
 *
 * A unit holds the store for as long as it runs: its work should only touch the store (fetches, file
 * writes and image processing belong before it), and must not wait for another request's operation,
 * which would wait for the unit in turn.
 */
import { sqlCount } from './sql-count';
import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { WriteGenerations } from './generations';

interface OpenUnit {
  /** Collections the unit wrote: their generations move once more when it ends (a rollback takes back what readers inside it saw). */
  touched: Set<string>;
  /** Settles when the unit has committed or rolled back. */
  ended: Promise<void>;
}

export class SqliteUnits {
  private readonly scope = new AsyncLocalStorage<OpenUnit>();
  private current: OpenUnit | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly generations: WriteGenerations,
  ) {}

  /** Whether the caller runs inside the open unit. */
  private inside(): boolean {
    return this.current !== null && this.scope.getStore() === this.current;
  }

  /** What an operation must wait for before it runs now, or null when it may run at once. */
  private turn(): Promise<void> | null {
    return this.current && !this.inside() ? this.current.ended : null;
  }

  /**
   * Runs a synchronous operation of the store: at once when no unit is open or the caller is inside it,
   * else once the open unit has ended. The check is made again after each wait, and the operation runs
   * in the same turn as the check that let it through, so no unit can have begun in between.
   */
  async when<R>(op: () => R): Promise<R> {
    for (let wait = this.turn(); wait; wait = this.turn()) await wait;
    return op();
  }

  /** Notes a write of the caller's unit to a collection (nothing outside a unit). */
  touch(collection: string): void {
    if (this.inside()) this.current!.touched.add(collection);
  }

  async run<R>(work: () => Promise<R>): Promise<R> {
    // A unit inside a unit is part of it.
    if (this.inside()) return work();
    while (this.current) await this.current.ended;
    let end!: () => void;
    const unit: OpenUnit = { touched: new Set(), ended: new Promise((resolve) => (end = resolve)) };
    this.current = unit;
    try {
      // IMMEDIATE takes the write lock now, so another process's write cannot make the commit fail later.
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.scope.run(unit, work);
        this.db.exec('COMMIT');
        if (sqlCount.on) sqlCount.commits++;
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.current = null;
      for (const c of unit.touched) this.generations.bump(c);
      end();
    }
  }
}
