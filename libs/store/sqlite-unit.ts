/**
 * Units of work of the embedded store (Store.unit): SQLite transactions on the store's connection,
 * open across the unit's awaits. better-sqlite3 is synchronous and the store has one connection, so
 * while a unit is open the connection is the unit's alone: every other operation of the store, read or
 * write, from any other request, waits until the unit has committed or rolled back. No other request's
 * write slips into the transaction (or is rolled back with it), and no reader sees what the unit has not
 * committed. Units run one at a time, in the order they asked. The unit's own operations are told apart
 * by an AsyncLocalStorage scope; the others wait on a promise, in the event loop, never in SQLite's busy
 * handler, which would block the very thread the unit needs to finish.
 *
 * Group commit: a commit costs two file writes per page the transaction dirtied (the WAL frame's header
 * and the page), and consecutive creates dirty the same pages (the rightmost leaves of the id and date
 * indexes). So a unit that ends does not commit at once: the commit is put off to the end of the event
 * loop's current phase (setImmediate), and the units that ask meanwhile run inside the same SQLite
 * transaction, each in a savepoint of its own, so that one that fails takes back only its own writes.
 * Then one COMMIT writes the pages of all of them. No unit's caller goes on before that commit: each
 * `run` settles only once the group's commit is done (or rejects with the commit's error, when it fails
 * and nothing of the group was kept). Readers outside the group wait for the commit as they wait for a
 * unit, so nobody sees a write that is not committed. A group is closed by its first scheduled commit,
 * so it holds at most the units that asked within one turn of the event loop.
 *
 * A unit holds the store for as long as it runs: its work should only touch the store (fetches, file
 * writes and image processing belong before it), and must not wait for another request's operation,
 * which would wait for the unit in turn.
 */
import { sqlCount } from './sql-count';
import { COUNTERS } from './query';
import { q } from './sqlite-compile';
import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { noteTouched, type Touched, type WriteGenerations } from './generations';

interface OpenUnit {
  /** Settles when the unit has released its savepoint or rolled back. */
  ended: Promise<void>;
}

/** Units sharing one SQLite transaction, committed together. */
interface Group {
  /**
   * Collections its units wrote, each with whether they only inserted: their generations move once more
   * when it ends (a rollback takes back what readers inside it saw, which counts as a change).
   */
  touched: Touched;
  /** Units that ran in it. */
  units: number;
  /** Whether its commit is scheduled. */
  scheduled: boolean;
  /** Whether its commit came due while a unit of it was running: that unit commits it as it ends. */
  due: boolean;
  /**
   * The id counters its units took ids from (SqliteUnits.reserve): each counter's value as the group
   * has moved it, and whether the store's row lags behind it (then written once as the group commits).
   */
  counters: Map<string, { seq: number; behind: boolean }>;
  /** Settles when the group has committed or rolled back; never rejects. */
  ended: Promise<void>;
  /** The commit's error, once it failed. */
  error?: unknown;
  end: () => void;
}

const SAVEPOINT = 'SAVEPOINT unit';
const COUNTER_WRITE = `INSERT INTO ${q(COUNTERS)} (name, seq) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET seq = max(seq, excluded.seq)`;

export class SqliteUnits {
  private readonly scope = new AsyncLocalStorage<OpenUnit>();
  private current: OpenUnit | null = null;
  private group: Group | null = null;
  private counterWrite?: Database.Statement;

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
    if (this.inside()) return null;
    return this.current?.ended ?? this.group?.ended ?? null;
  }

  /**
   * Runs a synchronous operation of the store: at once when no unit is open or the caller is inside it,
   * else once the open unit (and the group it belongs to) has ended. The check is made again after each
   * wait, and the operation runs in the same turn as the check that let it through, so no unit can have
   * begun in between.
   */
  async when<R>(op: () => R): Promise<R> {
    for (let wait = this.turn(); wait; wait = this.turn()) await wait;
    return op();
  }

  /**
   * Reserves `count` ids of a counter for the caller's unit, or returns null outside a unit. The group's
   * first reservation of a counter moves it in the store (`take`, which returns the counter's new
   * value); the later ones move only the group's copy, written back once just before the group commits
   * (writeCounters): creates in one group cost one counter statement, not one each. No other process
   * moves the counter meanwhile, since the group holds the write lock from its BEGIN IMMEDIATE to its
   * commit. The copy only grows, so ids a unit took and then gave back (its savepoint rolled back) are
   * not given again; a group taken back whole takes back every id it gave, as the counter's own
   * statement would.
   */
  reserve(counter: string, count: number, take: (count: number) => number): number | null {
    if (!this.inside()) return null;
    const held = this.group!.counters.get(counter);
    if (held) {
      held.behind = true;
      return (held.seq += count);
    }
    const seq = take(count);
    this.group!.counters.set(counter, { seq, behind: false });
    return seq;
  }

  /** Notes a write of the caller's unit to a collection (nothing outside a unit); `insertOnly` when it only added documents. */
  touch(collection: string, insertOnly = false): void {
    if (this.inside()) noteTouched(this.group!.touched, collection, insertOnly);
  }

  async run<R>(work: () => Promise<R>): Promise<R> {
    // A unit inside a unit is part of it.
    if (this.inside()) return work();
    while (this.current) await this.current.ended;
    const group = this.group ?? this.open();
    // The group's first unit is the transaction itself; the others each take a savepoint in it.
    const first = group.units === 0;
    group.units++;
    let end!: () => void;
    const unit: OpenUnit = { ended: new Promise((resolve) => (end = resolve)) };
    this.current = unit;
    let result: R;
    try {
      if (!first) this.db.exec(SAVEPOINT);
      result = await this.scope.run(unit, work);
      if (!first) this.db.exec('RELEASE unit');
    } catch (e) {
      this.current = null;
      this.undo(group, first, e);
      end();
      // The units before this one still wait for the group's commit, which may have come due meanwhile.
      this.settle(group);
      throw e;
    }
    this.current = null;
    end();
    this.settle(group);
    await group.ended;
    if (group.error !== undefined) throw group.error;
    return result;
  }

  /** A new group: its transaction begins now. */
  private open(): Group {
    // IMMEDIATE takes the write lock now, so another process's write cannot make the commit fail later.
    this.db.exec('BEGIN IMMEDIATE');
    let end!: () => void;
    const group: Group = {
      touched: new Map(),
      counters: new Map(),
      units: 0,
      scheduled: false,
      due: false,
      ended: new Promise((resolve) => (end = resolve)),
      end,
    };
    this.group = group;
    return group;
  }

  /** Takes back a failed unit's writes: its savepoint, or the whole transaction for the group's first unit. */
  private undo(group: Group, first: boolean, cause: unknown): void {
    if (!first && this.db.inTransaction) {
      try {
        this.db.exec('ROLLBACK TO unit');
        this.db.exec('RELEASE unit');
        // What the unit inserted is gone again: the group counts as a change.
        for (const c of group.touched.keys()) group.touched.set(c, false);
        // So may be a counter's first move in the group: each one is written back at the commit.
        for (const held of group.counters.values()) held.behind = true;
        return;
      } catch {
        // The savepoint cannot be gone back to: the whole group is taken back below.
      }
    }
    // The first unit's failure, or an error after which SQLite rolled the whole transaction back itself
    // (a full disk, an I/O error): nothing of the group is kept, and the units before this one learn so.
    this.rollback();
    if (!first) group.error = cause;
    this.close(group, false);
  }

  /** After a unit of the group has ended: the group commits now if its commit came due meanwhile, else at the end of this turn. */
  private settle(group: Group): void {
    if (this.group !== group) return;
    if (group.due) this.commit(group);
    else if (!group.scheduled) this.schedule(group);
  }

  /** Rolls the open transaction back; never throws (there is nothing to take back once the connection has lost it). */
  private rollback(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } catch {
      // The transaction is gone already.
    }
  }

  /** Commits the group once the current turn of the event loop is over, when its last unit has ended. */
  private schedule(group: Group): void {
    group.scheduled = true;
    setImmediate(() => {
      if (this.group !== group) return;
      // A unit of the group still running commits the group as it ends.
      if (this.current) group.due = true;
      else this.commit(group);
    });
  }

  private commit(group: Group): void {
    if (this.group !== group) return;
    try {
      this.writeCounters(group);
      this.db.exec('COMMIT');
      if (sqlCount.on) sqlCount.commits++;
    } catch (e) {
      this.rollback();
      group.error = e;
    }
    this.close(group, group.error === undefined);
  }

  /** Writes the counters the group moved past what the store holds (reserve), each to the larger of the two. */
  private writeCounters(group: Group): void {
    for (const [name, held] of group.counters) {
      if (!held.behind) continue;
      if (sqlCount.on) sqlCount.statements++;
      (this.counterWrite ??= this.db.prepare(COUNTER_WRITE)).run(name, held.seq);
    }
  }

  /** Ends a group, committed or taken back (which removes what its inserts added: a change). */
  private close(group: Group, committed: boolean): void {
    if (this.group === group) this.group = null;
    this.generations.ended(group.touched, committed);
    group.end();
  }

  /** Commits a group whose commit is still to come (the store is closing). */
  flush(): void {
    if (this.group && !this.current) this.commit(this.group);
  }
}
