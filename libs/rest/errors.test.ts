import { RETRY_AFTER_SECONDS, RestError, asRestError, errors, retryAfterHeader, unavailableFor } from './errors';

function named(name: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error('x'), { name, ...extra });
}

describe('backing services that are down', () => {
  test.each(['MongoNetworkError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoPoolClearedError', 'QueueUnavailableError'])(
    '%s is a 503 with retry_after',
    (name) => {
      const err = unavailableFor(named(name))!;
      expect(err.toJSON()).toMatchObject({ code: 'rest_service_unavailable', data: { status: 503, retry_after: RETRY_AFTER_SECONDS } });
      expect(asRestError(named(name)).status).toBe(503);
    },
  );

  test('a driver error labelled or coded as a lost connection, or wrapping one, is a 503', () => {
    expect(unavailableFor(named('MongoServerError', { errorLabels: ['TransientTransactionError'], code: 251 }))?.status).toBe(503);
    expect(unavailableFor(named('MongoServerError', { code: 91 }))?.status).toBe(503);
    expect(unavailableFor(named('MongoServerClosedError'))?.status).toBe(503);
    expect(unavailableFor(new Error('outer', { cause: named('MongoNetworkError') }))?.status).toBe(503);
    // A request the server refused stays a 500 (duplicate key, bad update), and labels on a non-driver error mean nothing.
    expect(unavailableFor(named('MongoServerError', { code: 11000 }))).toBeUndefined();
    expect(unavailableFor(named('TypeError', { errorLabels: ['TransientTransactionError'] }))).toBeUndefined();
  });

  test('SQLITE_BUSY is a 503; any other error stays a 500 and a RestError stays itself', () => {
    expect(unavailableFor(named('SqliteError', { code: 'SQLITE_BUSY' }))?.status).toBe(503);
    expect(unavailableFor(new TypeError('boom'))).toBeUndefined();
    expect(asRestError(new TypeError('boom')).toJSON()).toEqual(errors.internal().toJSON());
    const own = new RestError('x', 'y', 409);
    expect(asRestError(own)).toBe(own);
  });

  test('Retry-After comes from the envelope of a 429 or 503 only', () => {
    expect(retryAfterHeader(503, errors.unavailable('The store').toJSON())).toEqual({ 'Retry-After': String(RETRY_AFTER_SECONDS) });
    expect(retryAfterHeader(429, errors.throttled(12.2).toJSON())).toEqual({ 'Retry-After': '13' });
    expect(retryAfterHeader(500, { data: { status: 500, retry_after: 3 } })).toEqual({});
    expect(retryAfterHeader(503, { data: { status: 503 } })).toEqual({});
    expect(retryAfterHeader(503, null)).toEqual({});
  });
});

describe('RestError stacks', () => {
  it('captures no stack for an answer below 500, and keeps one for a server error, leaving the depth as it was', () => {
    const depth = Error.stackTraceLimit;
    const no = new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', 403);
    expect(no.stack).toBe('RestError: Sorry, you are not allowed to do that.');
    expect(new RestError('internal', 'Broken', 500).stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(depth);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});
