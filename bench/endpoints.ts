/**
 * The benchmarked endpoints with their targets from PERFORMANCE.md (requests/s at 8 connections,
 * p99 ≤ 25 ms). Each resource adds its rows here.
 */
import { EVENT_ENDPOINTS } from './events';
import { POST_ENDPOINTS } from './posts';
import type { Seeded } from './seed';

export interface BenchContext {
  url: string;
  rest: string;
  auth: string;
  seeded: Seeded;
}

export interface BenchRequest {
  url: string;
  method?: 'GET' | 'POST';
  auth?: boolean;
  /** A fixed body, or a function giving a fresh body per request. */
  body?: unknown | (() => unknown);
}

export interface BenchEndpoint {
  name: string;
  target: number;
  request(ctx: BenchContext): BenchRequest;
}

export const ENDPOINTS: BenchEndpoint[] = [
  { name: 'GET / (site index)', target: 3300, request: (c) => ({ url: `${c.rest}/` }) },
  { name: 'GET cms/v2/users/me (authenticated)', target: 2500, request: (c) => ({ url: `${c.rest}/cms/v2/users/me`, auth: true }) },
  { name: 'GET cms/v2/users?per_page=10 (authenticated)', target: 1800, request: (c) => ({ url: `${c.rest}/cms/v2/users?per_page=10`, auth: true }) },
  ...POST_ENDPOINTS,
  ...EVENT_ENDPOINTS,
  { name: 'GET ec/v1/events?per_page=10', target: 790, request: (c) => ({ url: `${c.rest}/ec/v1/events?per_page=10` }) },
  { name: 'GET ec/v1/events/{id}', target: 2900, request: (c) => ({ url: `${c.rest}/ec/v1/events/${c.seeded.ids.events[0]}` }) },
  // The same for the administrator: past the guest reply cache, so every request is served from the store.
  { name: 'GET ec/v1/events?per_page=10 (authenticated)', target: 790, request: (c) => ({ url: `${c.rest}/ec/v1/events?per_page=10`, auth: true }) },
  { name: 'GET ec/v1/events/{id} (authenticated)', target: 2900, request: (c) => ({ url: `${c.rest}/ec/v1/events/${c.seeded.ids.events[0]}`, auth: true }) },
];
