/**
 * The benchmarked endpoints with their targets from PERFORMANCE.md (requests/s at 8 connections,
 * p99 ≤ 25 ms). Each resource adds its rows here.
 *
 * Guest rows ask one URL, which the one-second guest reply cache answers after the first request.
 * The authenticated rows (the administrator's application password, which that cache passes by) are
 * served from the store every time, and rotate their URLs: lists over their first pages
 * (`page=k`, k = 1…20), singles over the seeded ids (bench/data-set.ts), the category archive over the
 * category slugs. Rows marked `scaling` make the BENCH_SCALES table.
 */
import { idUrls, pageUrls } from './data-set';
import { EVENT_ENDPOINTS } from './events';
import { POST_ENDPOINTS } from './posts';
import type { Seeded } from './seed';

export interface BenchContext {
  url: string;
  rest: string;
  auth: string;
  /** Basic credentials of an author (no unfiltered_html: what it writes goes through the HTML filter). */
  authorAuth: string;
  seeded: Seeded;
}

export interface BenchRequest {
  /** One URL, or URLs the requests go through in turn. */
  url: string | string[];
  method?: 'GET' | 'POST';
  /** `true`: as the administrator; `author`: as the seeded author. */
  auth?: boolean | 'author';
  /** A fixed body, or a function giving a fresh body per request. */
  body?: unknown | (() => unknown);
}

export interface BenchEndpoint {
  name: string;
  target: number;
  request(ctx: BenchContext): BenchRequest;
  /** Driven for every size of the BENCH_SCALES table (the authenticated reads of the data set and the event create). */
  scaling?: boolean;
}

export const ENDPOINTS: BenchEndpoint[] = [
  { name: 'GET / (site index)', target: 3300, request: (c) => ({ url: `${c.rest}/` }) },
  { name: 'GET / (site index; authenticated)', target: 3300, scaling: true, request: (c) => ({ url: `${c.rest}/`, auth: true }) },
  { name: 'GET cms/v2/users/me (authenticated)', target: 2500, request: (c) => ({ url: `${c.rest}/cms/v2/users/me`, auth: true }) },
  { name: 'GET cms/v2/users?per_page=10 (authenticated)', target: 1800, request: (c) => ({ url: `${c.rest}/cms/v2/users?per_page=10`, auth: true }) },
  ...POST_ENDPOINTS,
  ...EVENT_ENDPOINTS,
  { name: 'GET ec/v1/events?per_page=10', target: 790, request: (c) => ({ url: `${c.rest}/ec/v1/events?per_page=10` }) },
  { name: 'GET ec/v1/events/{id}', target: 2900, request: (c) => ({ url: `${c.rest}/ec/v1/events/${c.seeded.ids.events[0]}` }) },
  // The same for the administrator: past the guest reply cache, so every request is served from the store.
  {
    name: 'GET ec/v1/events?per_page=10&page=k (authenticated)',
    target: 790,
    scaling: true,
    request: (c) => ({ url: pageUrls(`${c.rest}/ec/v1/events?per_page=10`, c.seeded.counts['events ahead']), auth: true }),
  },
  {
    name: 'GET ec/v1/events/{id} (authenticated)',
    target: 2900,
    scaling: true,
    request: (c) => ({ url: idUrls(c, 'events', (id) => `ec/v1/events/${id}`), auth: true }),
  },
];
