/**
 * The one error type of the REST layer, serialised as `{code, message, data: {status, ...}}` like the
 * reference system. Permission errors whose status depends on login state use `authStatus(user)`
 * (401 for a guest, 403 for a user).
 */
import { isRecord } from './args';

export interface ErrorBody {
  code: string;
  message: string;
  data: ({ status: number } & Record<string, unknown>) | null;
  additional_errors?: ErrorBody[];
  /** Earlier data of the same error code (the reference's WP_Error::add_data keeps them). */
  additional_data?: unknown[];
}

/** The stack depth of errors, as set before a RestError's construction changed it. */
let stackTraceLimit = Error.stackTraceLimit;

/**
 * An answer below 500 (a 404, a permission "no", a bad parameter) is the caller's, not a fault to
 * trace: its RestError is built without capturing a stack, which costs more than the rest of the
 * answer (permission checks for `Allow` build them for every method a guest may not use). The
 * constructor restores the depth right after.
 */
function withoutStackBelow500(status: number, message: string): string {
  stackTraceLimit = Error.stackTraceLimit;
  if (status < 500) Error.stackTraceLimit = 0;
  return message;
}

export class RestError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly status: number,
    public readonly data: Record<string, unknown> = {},
    public readonly additionalData?: unknown[],
  ) {
    super(withoutStackBelow500(status, message));
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'RestError';
  }

  toJSON(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
    if (this.additionalData?.length) body.additional_data = this.additionalData;
    return body;
  }

  static fromBody(body: ErrorBody, status?: number): RestError {
    const { status: s, ...rest } = body.data ?? { status: status ?? 500 };
    return new RestError(body.code, body.message, status ?? s ?? 500, rest, body.additional_data);
  }
}

/** 401 when nobody is logged in, 403 when somebody is (rest_authorization_required_code). */
export function authStatus(user: unknown): 401 | 403 {
  return user ? 403 : 401;
}

/** Seconds a 503 answer asks the client to wait before trying again (`Retry-After`, `data.retry_after`). */
export const RETRY_AFTER_SECONDS = 5;

/** PHP's json_last_error() code for each json_last_error_msg() the reference reports. */
export const JSON_ERROR_CODES = {
  'Maximum stack depth exceeded': 1,
  'Syntax error': 4,
  'Malformed UTF-8 characters, possibly incorrectly encoded': 5,
  'Single unpaired UTF-16 surrogate in unicode escape': 10,
} as const;
export type JsonErrorMessage = keyof typeof JSON_ERROR_CODES;

export const errors = {
  noRoute: () => new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404),
  invalidJson: (message: JsonErrorMessage = 'Syntax error') =>
    new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: JSON_ERROR_CODES[message] ?? 4, json_error_message: message }),
  missingParams: (names: string[]) => new RestError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names }),
  forbidden: (user: unknown, message = 'Sorry, you are not allowed to do that.') => new RestError('rest_forbidden', message, authStatus(user)),
  bodyTooLarge: (limit: number) =>
    new RestError('rest_request_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413, { max_bytes: limit }),
  internal: () => new RestError('rest_internal_error', 'The server could not complete the request.', 500),
  unavailable: (what: string, retryAfter = RETRY_AFTER_SECONDS) =>
    new RestError('rest_service_unavailable', `${what} is not available right now; try again later.`, 503, { retry_after: retryAfter }),
  throttled: (seconds: number) =>
    new RestError('too_many_failed_logins', 'Too many failed login attempts from this address. Try again later.', 429, { retry_after: seconds }),
};

/** MongoDB driver errors that mean the store cannot be reached now (not that the request is wrong). */
const STORE_DOWN = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
  'MongoOperationTimeoutError',
  'MongoStalePrimaryError',
]);

/**
 * The driver's labels for a failure of the connection rather than of the request: a transaction cut
 * off mid-way (TransientTransactionError), a write that may be retried once the server is back, a pool
 * reset by a network error.
 */
const STORE_DOWN_LABELS = ['TransientTransactionError', 'RetryableWriteError', 'ResetPool', 'NoWritesPerformed'];

/**
 * Server error codes that say the server is unreachable, shutting down or stepping down (the
 * driver's retryable codes): HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress,
 * PrimarySteppedDown, ExceededTimeLimit, SocketException, NotWritablePrimary, InterruptedAtShutdown,
 * InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary.
 */
const STORE_DOWN_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

function storeDown(e: Error): boolean {
  if (STORE_DOWN.has(e.name)) return true;
  if ('code' in e && e.code === 'SQLITE_BUSY') return true;
  if (!e.name.startsWith('Mongo')) return false;
  const labels = (e as { errorLabels?: unknown }).errorLabels;
  if (Array.isArray(labels) && labels.some((l) => STORE_DOWN_LABELS.includes(String(l)))) return true;
  return 'code' in e && typeof e.code === 'number' && STORE_DOWN_CODES.has(e.code);
}

/**
 * The 503 for an error that says a backing service is down (the store, the job queue), or undefined
 * for any other error. Matched by name, labels and code, so the REST layer does not load the MongoDB
 * driver; an error that wraps another (`cause`) is looked through, a few levels deep.
 */
export function unavailableFor(e: unknown): RestError | undefined {
  for (let depth = 0; depth < 4 && e instanceof Error; depth++, e = e.cause) {
    if (storeDown(e)) return errors.unavailable('The data store');
    if (e.name === 'QueueUnavailableError') return errors.unavailable('The job queue');
  }
  return undefined;
}

/** The RestError an unexpected failure is answered with: 503 when a backing service is down, else 500. */
export function asRestError(e: unknown): RestError {
  if (e instanceof RestError) return e;
  return unavailableFor(e) ?? errors.internal();
}

/** `Retry-After` for an error answer (429, 503) whose envelope says when to try again. */
export function retryAfterHeader(status: number, body: unknown): Record<string, string> {
  if (status !== 429 && status !== 503) return {};
  const data = isRecord(body) ? body.data : undefined;
  const seconds = isRecord(data) ? data.retry_after : undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? { 'Retry-After': String(Math.ceil(seconds)) } : {};
}

/** A validation failure of one argument: becomes an entry of `rest_invalid_param`. */
export class ParamError {
  constructor(
    public readonly code: string,
    public readonly message: string,
    public readonly data: unknown = null,
  ) {}
}

/** Builds the `rest_invalid_param` error from per-argument failures, in the order found. */
export function invalidParams(failures: Array<[name: string, error: ParamError | string]>): RestError {
  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string; data: unknown }> = {};
  for (const [name, err] of failures) {
    if (typeof err === 'string') {
      params[name] = err;
    } else {
      params[name] = err.message;
      details[name] = { code: err.code, message: err.message, data: err.data };
    }
  }
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, { params, details });
}
