/**
 * vendor/event-aggregator/v1/sources: import sources, the feeds the service imports itself. A source names an
 * iCalendar feed URL, or carries an uploaded iCalendar or CSV file, with what the imported events get
 * (status, categories, time zone for floating times), how often it runs and what happens to events
 * that leave the feed. Workers run it: at once when created or asked to, then on its schedule. Only
 * administrators (manage_options) see or change sources. The routes answer but stay out of the route
 * indexes, which list the namespace's routes as the reference does (README documents them).
 */
import { isZoneName } from '../../settings/site-settings';
import type { ArgDecl, RouteRegistry } from '../../rest/registry';
import { DELETABLE, EDITABLE } from '../../rest/registry';
import { pageArg, perPageArg } from '../common';
import { endpoint } from '../../rest/params';

export const SOURCES_NS = 'vendor/event-aggregator/v1';
const BASE = `/${SOURCES_NS}`;

export const SOURCE_ORIGINS = ['ical', 'ics', 'csv'] as const;
export type SourceOrigin = (typeof SOURCE_ORIGINS)[number];
export const SOURCE_SCHEDULES = ['once', 'hourly', 'daily', 'weekly'] as const;
export type SourceSchedule = (typeof SOURCE_SCHEDULES)[number];
export const REMOVED_POLICIES = ['keep', 'draft', 'trash'] as const;
export type RemovedPolicy = (typeof REMOVED_POLICIES)[number];
const IMPORT_POST_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

const fields = {
  title: { description: 'A name for the source.', type: 'string', maxLength: 200 },
  origin: {
    description: "ical: an iCalendar feed URL; ics: an uploaded iCalendar file; csv: a CSV file (uploaded, or by URL) with the reference importer's columns.",
    type: 'string',
    enum: [...SOURCE_ORIGINS],
  },
  source: {
    description: 'The URL of the feed (origins ical and csv), http or https.',
    type: 'string',
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
    maxLength: 2048,
  },
  file: { description: 'The content of the file (origins ics and csv), as text.', type: 'string' },
  post_status: { description: 'Status of the events the source creates.', type: 'string', enum: [...IMPORT_POST_STATUSES] },
  categories: { description: 'Event category ids every imported event gets.', type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 50 },
  timezone: {
    description: "Time zone of times the feed gives without one (default: the site's).",
    type: 'string',
    validate: (v) => (v === '' || isZoneName(String(v)) ? true : 'timezone is not a time zone of the zone database.'),
  },
  schedule: { description: 'How often the source runs after its first run.', type: 'string', enum: [...SOURCE_SCHEDULES] },
  on_removed: { description: 'What happens to an imported event that is no longer in the feed.', type: 'string', enum: [...REMOVED_POLICIES] },
  interval: {
    description: "Seconds between runs, instead of the schedule's period (at least IMPORT_MIN_INTERVAL_SECONDS); 0: the schedule's.",
    type: 'integer',
    minimum: 0,
    maximum: 31_536_000,
  },
} satisfies Record<string, ArgDecl>;

const withDefaults = {
  ...fields,
  origin: { ...fields.origin, required: true },
  post_status: { ...fields.post_status, default: 'publish' },
  schedule: { ...fields.schedule, default: 'once' },
  on_removed: { ...fields.on_removed, default: 'keep' },
} satisfies Record<string, ArgDecl>;

const id = { description: 'Unique identifier for the source.', type: 'integer' } satisfies ArgDecl;
/** page and per_page. */
const paging = () => ({ page: pageArg(), per_page: perPageArg() });

/** The sources endpoints, constants the aggregator service binds to; those on a source rely on its id capture. */
export const SOURCE_ENDPOINTS = {
  list: endpoint({ id: 'imports.sources.list', service: 'aggregator', methods: ['GET'], args: paging() }),
  create: endpoint({ id: 'imports.sources.create', service: 'aggregator', methods: ['POST'], args: withDefaults }),
  get: endpoint({ id: 'imports.sources.get', service: 'aggregator', methods: ['GET'], args: { id }, captures: ['id'] }),
  update: endpoint({ id: 'imports.sources.update', service: 'aggregator', methods: EDITABLE, args: { id, ...fields }, captures: ['id'] }),
  delete: endpoint({ id: 'imports.sources.delete', service: 'aggregator', methods: DELETABLE, args: { id }, captures: ['id'] }),
  runs: endpoint({ id: 'imports.sources.runs', service: 'aggregator', methods: ['GET'], args: { id, ...paging() }, captures: ['id'] }),
  run: endpoint({ id: 'imports.sources.run', service: 'aggregator', methods: ['POST'], args: { id }, captures: ['id'] }),
};

export function registerSourceRoutes(registry: RouteRegistry): void {
  const eps = SOURCE_ENDPOINTS;
  registry.add({ namespace: SOURCES_NS, hidden: true, pattern: `${BASE}/sources`, endpoints: [eps.list, eps.create] });
  registry.add({ namespace: SOURCES_NS, hidden: true, pattern: `${BASE}/sources/(?P<id>[\\d]+)`, endpoints: [eps.get, eps.update, eps.delete] });
  registry.add({ namespace: SOURCES_NS, hidden: true, pattern: `${BASE}/sources/(?P<id>[\\d]+)/runs`, endpoints: [eps.runs, eps.run] });
}
