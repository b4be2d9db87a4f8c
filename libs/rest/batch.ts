/**
 * The batch executor (`POST /batch/v1`) as the reference runs it: a first pass matches and validates
 * every sub-request (no permission checks), `require-all-validate` stops there when any failed, then
 * the requests run in order through the same pipeline as direct requests. Each sub-request carries an
 * idempotency key derived from the batch (its ledger entry: batch-ledger.ts), so a job run again finds
 * what was already done.
 */
import type { AuthUser } from '../auth/user';
import { RestError } from './errors';
import { endpointFor } from './registry';
import type { RestInput, RestOutput, RestServer } from './server';
import { normalisePath } from './server';

export interface BatchRequestItem {
  method?: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

export interface BatchJob {
  validation: 'require-all-validate' | 'normal';
  requests: BatchRequestItem[];
  user: AuthUser | null;
  requestId: string;
  /** The batch's entry in the ledger (batch-ledger.ts) and the run this job is; absent on jobs queued before there was one. */
  ledger?: { id: string; run: number };
}

export interface BatchItemResponse {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

export interface BatchResult {
  failed?: 'validation';
  responses: Array<BatchItemResponse | null>;
}

function errorItem(err: RestError): BatchItemResponse {
  return { body: err.toJSON(), status: err.status, headers: {} };
}

/** Splits `/cms/v2/posts/5?x=1` into path and query; null when it is not a route path. */
function parsePath(path: string): { path: string; query: Record<string, unknown> } | null {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return null;
  try {
    const u = new URL(path, 'http://batch.invalid');
    return { path: decodeURIComponent(u.pathname), query: Object.fromEntries(u.searchParams) };
  } catch {
    return null;
  }
}

function canonicalHeaders(headers: BatchRequestItem['headers']): Record<string, string | string[]> {
  // Built from entries, so a "__proto__" header name stays a name and never becomes a prototype.
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Runs a batch; its sub-requests' idempotency keys are `batch:<keyBase>:<index>`, so running it again repeats nothing. */
export async function runBatch(server: RestServer, job: BatchJob, keyBase: string): Promise<BatchResult> {
  const inputs: Array<RestInput & { requestId: string }> = [];
  const failures: Array<BatchItemResponse | null> = [];

  for (const [i, item] of job.requests.entries()) {
    const parsed = parsePath(item.path);
    const method = (item.method ?? 'POST').toUpperCase();
    const input = {
      method,
      path: parsed?.path ?? item.path,
      query: parsed?.query ?? {},
      body: item.body ?? {},
      bodyType: 'json' as const,
      headers: canonicalHeaders(item.headers),
      user: job.user,
      requestId: `${job.requestId}:${i}`,
      idempotencyKey: `batch:${keyBase}:${i}`,
    };
    inputs.push(input);
    if (!parsed) {
      failures.push(errorItem(new RestError('parse_path_failed', 'Could not parse the path.', 400)));
      continue;
    }
    const match = server.registry.match(normalisePath(parsed.path), job.user);
    const endpoint = match && endpointFor(match.route, method);
    if (!match || !endpoint) {
      failures.push(errorItem(new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404)));
      continue;
    }
    if (!endpoint.allowBatch) {
      failures.push(errorItem(new RestError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400)));
      continue;
    }
    const checked = server.validate(endpoint, input, match.params);
    failures.push(checked instanceof RestError ? errorItem(checked) : null);
  }

  if (job.validation === 'require-all-validate' && failures.some((f) => f !== null)) {
    return { failed: 'validation', responses: failures };
  }

  const responses: BatchItemResponse[] = [];
  for (const [i, input] of inputs.entries()) {
    const failed = failures[i];
    if (failed) {
      responses.push(failed);
      continue;
    }
    const out: RestOutput = await server.dispatch(input);
    responses.push({ body: out.body, status: out.status, headers: out.headers });
  }
  return { responses };
}
