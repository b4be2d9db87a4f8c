/**
 * Each suite that writes to the tests' Redis gets a key prefix of its own (`test-<name>-<pid>-<random>`),
 * checked empty when it is taken: a clash with another run, another worker or a leftover shows at once,
 * not as a strange count in the middle of a test. Suites never flush Redis (it may be shared); they remove
 * their own keys with clearRedisPrefix.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

function client(redisUrl: string | undefined): Redis {
  if (!redisUrl) throw new Error('TEST_REDIS_URL is not set (the jest global setup sets it)');
  return new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
}

/** Keys under the prefix (at most `limit` of them). */
async function keysUnder(redis: Redis, prefix: string, limit: number): Promise<string[]> {
  const found: string[] = [];
  const stream = redis.scanStream({ match: `${prefix}*`, count: 500 });
  for await (const keys of stream as AsyncIterable<string[]>) {
    found.push(...keys);
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}

/** Fails when Redis holds a key under the prefix. */
export async function assertPrefixEmpty(prefix: string, redisUrl = process.env.TEST_REDIS_URL): Promise<void> {
  const redis = client(redisUrl);
  try {
    const keys = await keysUnder(redis, prefix, 5);
    if (keys.length) throw new Error(`Redis already holds keys under the test prefix ${prefix}: ${keys.join(', ')}`);
  } finally {
    redis.disconnect();
  }
}

/** A new prefix for this suite, with no key under it yet. */
export async function redisPrefix(name: string, redisUrl = process.env.TEST_REDIS_URL): Promise<string> {
  const prefix = `test-${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
  await assertPrefixEmpty(prefix, redisUrl);
  return prefix;
}

/** Removes every key under the prefix. */
export async function clearRedisPrefix(prefix: string, redisUrl = process.env.TEST_REDIS_URL): Promise<void> {
  const redis = client(redisUrl);
  try {
    const stream = redis.scanStream({ match: `${prefix}*`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  } finally {
    redis.disconnect();
  }
}
