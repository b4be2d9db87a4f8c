/**
 * The sizes of the benchmark data set (PERFORMANCE.md) and the ids the rows rotate over. Apart from
 * bench/seed.ts and bench/endpoints.ts so the seeders and the rows can use it without an import cycle.
 */
import type { BenchContext } from './endpoints';

/** How many records of each kind to seed. */
export interface SeedSizes {
  events: number;
  posts: number;
  venues: number;
  organizers: number;
  categories: number;
}

/** The data set of PERFORMANCE.md. */
export const DATA_SET: SeedSizes = { events: 10_000, posts: 10_000, venues: 200, organizers: 200, categories: 50 };

/** Every count of the data set times `scale` (at least one of each): BENCH_SCALE and SOAK_SCALE. */
export function scaledDataSet(scale: number): SeedSizes {
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  return {
    events: n(DATA_SET.events),
    posts: n(DATA_SET.posts),
    venues: n(DATA_SET.venues),
    organizers: n(DATA_SET.organizers),
    categories: n(DATA_SET.categories),
  };
}

/** The largest number of ids a seeder names for the rows to rotate over. */
export const ROTATION = 200;

/** `count` indexes spread evenly over [from, to] (all of them when there are fewer), ascending and distinct. */
export function spread(from: number, to: number, count = ROTATION): number[] {
  if (to < from) return [];
  const n = to - from + 1;
  if (n <= count) return Array.from({ length: n }, (_, i) => from + i);
  return Array.from({ length: count }, (_, k) => from + Math.floor((k * (n - 1)) / (count - 1)));
}

/** The most pages a list row rotates over. */
export const PAGES = 20;

/**
 * `url` with `page` = 1, 2, … for the first pages of a list of `total` records at `perPage` a page
 * (at most PAGES, and never past the last full page, which would answer 404).
 */
export function pageUrls(url: string, total: number, perPage = 10): string[] {
  const pages = Math.max(1, Math.min(PAGES, Math.floor(total / perPage)));
  return Array.from({ length: pages }, (_, k) => `${url}${url.includes('?') ? '&' : '?'}page=${k + 1}`);
}

/** `path(id)` under the REST root for each seeded id of `kind` (bench/seed.ts names them). */
export function idUrls(c: BenchContext, kind: string, path: (id: number) => string): string[] {
  return c.seeded.ids[kind].map((id) => `${c.rest}/${path(id)}`);
}
