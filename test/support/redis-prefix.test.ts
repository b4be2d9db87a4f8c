/** Redis key prefixes of the test suites (redis-prefix.ts): new ones are empty, a used one is refused, clearing empties it. */
import { Redis } from 'ioredis';
import { assertPrefixEmpty, clearRedisPrefix, redisPrefix } from './redis-prefix';

it('gives each suite a prefix of its own, refuses one that holds keys, and clears one', async () => {
  const a = await redisPrefix('prefix-check');
  const b = await redisPrefix('prefix-check');
  expect(a).not.toBe(b);
  expect(a).toMatch(new RegExp(`^test-prefix-check-${process.pid}-[0-9a-f]{8}$`));
  const redis = new Redis(process.env.TEST_REDIS_URL as string);
  try {
    await redis.set(`${a}:queue:one`, '1');
    await expect(assertPrefixEmpty(a)).rejects.toThrow(`Redis already holds keys under the test prefix ${a}: ${a}:queue:one`);
    await expect(assertPrefixEmpty(b)).resolves.toBeUndefined();
    await clearRedisPrefix(a);
    await expect(assertPrefixEmpty(a)).resolves.toBeUndefined();
  } finally {
    await clearRedisPrefix(a);
    redis.disconnect();
  }
});
