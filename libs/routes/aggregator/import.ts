/**
 * vendor/event-aggregator/v1 (the reference's tribe/event-aggregator/v1): the two inbound endpoints the
 * remote import service pushes to. The argument checks that need only the value run in the gateway
 * (status shape, percentage range, interval type); the ones that need the import record (it exists
 * and is pending, batch_hash equals its stored hash) run first thing in the aggregator service and are
 * reported the same way, as 400 `rest_invalid_param` naming the argument.
 */
import { isRecord } from '../../rest/args';
import { endpoint } from '../../rest/params';
import type { ArgDecl, RouteRegistry } from '../../rest/registry';

export const NS = 'vendor/event-aggregator/v1';
export const BASE = `/${NS}`;

/** The reference's validate_callback returning false. */
export const INVALID = 'Invalid parameter.';

/** PHP's is_numeric for the values JSON and form bodies carry. */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v);
}

/** PHP's (int) cast of a numeric value. */
const int = (v: unknown): number => Math.trunc(Number(v));

/** The reference's is_valid_status_information: numeric totals and done counts, done never above total. */
export function isValidStatusInformation(status: unknown): boolean {
  if (!isRecord(status)) return false;
  const s = status;
  const part = (v: unknown): Record<string, unknown> | null => (isRecord(v) ? v : null);
  const data = part(s.data);
  const batch = part(s.batch);
  if (!data || !batch) return false;
  if (![data.total, data.done, batch.total, batch.done].every(isNumeric)) return false;
  return int(data.done) <= int(data.total) && int(batch.done) <= int(batch.total);
}

/** The reference's is_percentage: numeric, 0 to 100. */
export function isPercentage(v: unknown): boolean {
  return isNumeric(v) && int(v) >= 0 && int(v) <= 100;
}

const importId = { description: 'The import unique ID as provided by Event Aggregator service', type: 'string', required: true } satisfies ArgDecl;
const batchHash = {
  description: 'The hash of the next expected batch, as previously provided by the client',
  type: 'string',
  required: true,
} satisfies ArgDecl;
const percentage = {
  description: 'The percentage of import completed.',
  type: 'integer',
  required: true,
  validate: (v) => (isPercentage(v) ? true : INVALID),
} satisfies ArgDecl;

export const IMPORT_STATUSES = ['success', 'failed', 'pending'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The two inbound endpoints, constants the aggregator service binds to; both rely on the import_id capture. */
export const AGGREGATOR_IMPORT_ENDPOINTS = {
  batch: endpoint({
    id: 'aggregator.import.batch',
    service: 'aggregator',
    methods: ['POST'],
    captures: ['import_id'],
    args: {
      import_id: importId,
      batch_hash: batchHash,
      status: {
        description: 'The current status of the import.',
        type: 'object',
        required: true,
        validate: (v) => (isValidStatusInformation(v) ? true : INVALID),
      },
      percentage_complete: percentage,
      interval: {
        description: 'The current interval, in seconds, between the end of a batch process and the start of the next; as set on the server.',
        type: 'integer',
        required: false,
        validate: (v) => (isNumeric(v) ? true : INVALID),
      },
    },
  }),
  state: endpoint({
    id: 'aggregator.import.state',
    service: 'aggregator',
    methods: ['POST'],
    captures: ['import_id'],
    args: {
      import_id: importId,
      batch_hash: batchHash,
      status: { description: 'The new status of the import.', type: 'string', required: true, enum: [...IMPORT_STATUSES] },
      message: { description: 'The new status message for the user, not localized.', type: 'string', required: true },
      message_slug: { description: 'The new status message slug, to allow for localized messages.', type: 'string', required: true },
      percentage_complete: percentage,
    },
  }),
};

export function registerAggregatorRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: NS, pattern: `${BASE}/import/(?P<import_id>\\w+)/batch`, endpoints: [AGGREGATOR_IMPORT_ENDPOINTS.batch] });
  registry.add({ namespace: NS, pattern: `${BASE}/import/(?P<import_id>\\w+)/state`, endpoints: [AGGREGATOR_IMPORT_ENDPOINTS.state] });
}
