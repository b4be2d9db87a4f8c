/**
 * Picks the MongoDB and Redis the tests talk to, as README.md ("Two commands") says: a URL from the environment
 * (TEST_MONGO_URL / TEST_REDIS_URL, or MONGO_URL / REDIS_URL), else a container when a container
 * runtime answers, else a local fallback (the MongoDB-wire-compatible test server; a redis-server on
 * 127.0.0.1). It prints which one it used and exports TEST_MONGO_URL and TEST_REDIS_URL to the tests.
 */
const { startMongo } = require('./mongo-server');
const { startRedis } = require('./redis-server');

module.exports = async function globalSetup() {
  const mongo = await startMongo();
  const redis = await startRedis();
  process.env.TEST_MONGO_URL = mongo.url;
  process.env.TEST_REDIS_URL = redis.url;
  globalThis.__ECS_TEST_SERVICES__ = { mongo, redis };
  process.stdout.write(`\n[test services] MongoDB: ${mongo.kind} (${mongo.url}); Redis: ${redis.kind} (${redis.url})\n`);
};
