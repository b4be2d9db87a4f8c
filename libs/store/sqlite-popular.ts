/**
 * Which side-table values are "popular" (held by at least POPULAR_MEMBERS records, sqlite-compile.ts),
 * remembered until this process next writes the collection: the answer only chooses a query's shape,
 * never its result, so another process's write seen late costs at most a slower plan. Without it every
 * query on a term read up to POPULAR_MEMBERS index entries before it ran.
 */
import type Database from 'better-sqlite3';
import { POPULAR_MEMBERS, q, sqlNumber, type ColValue } from './sqlite-compile';
import type { WriteGenerations } from './generations';

/** The most values remembered (all forgotten past it). */
const POPULAR_KEPT = 10_000;

export class PopularValues {
  private readonly known = new Map<string, { generation: number; popular: boolean }>();

  constructor(
    private readonly store: { readonly generations: WriteGenerations },
    private readonly stmt: (sql: string) => Database.Statement,
  ) {}

  /** Whether at least POPULAR_MEMBERS records hold the value (an index range read, stopped at the threshold). */
  is(table: string, value: ColValue): boolean {
    const generation = this.store.generations.of(table.slice(0, table.indexOf(':')));
    const key = `${table}\u0000${typeof value}\u0000${String(value)}`;
    const hit = this.known.get(key);
    if (hit && hit.generation === generation) return hit.popular;
    const popular =
      sqlNumber(this.stmt(`SELECT COUNT(*) FROM (SELECT 1 FROM ${q(table)} WHERE value = ? LIMIT ${POPULAR_MEMBERS})`).get(value)) >= POPULAR_MEMBERS;
    if (this.known.size >= POPULAR_KEPT) this.known.clear();
    this.known.set(key, { generation, popular });
    return popular;
  }
}
