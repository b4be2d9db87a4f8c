/**
 * Waiting on Redis: a bounded wait that never rejects, and which ioredis errors mean Redis cannot be
 * reached now (the producer answers 503 for those, the worker retries).
 */

/** Resolves true when `p` settles within `ms`, false otherwise; never rejects. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Errors of ioredis that mean Redis is not reachable now: the connection is down or closed, a command
 * timed out, or its retries ran out. A command refused this way did not reach Redis, except a timed-out
 * one, which Redis may still run (only a Redis that stops answering without closing the connection).
 */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  const m = err.message;
  return (
    m.includes("Stream isn't writeable") ||
    m === 'Connection is closed.' ||
    m === 'Command timed out' ||
    /\bECONNREFUSED\b|\bECONNRESET\b|\bEPIPE\b|\bETIMEDOUT\b/.test(m)
  );
}
