module.exports = async function globalTeardown() {
  const s = globalThis.__ECS_TEST_SERVICES__;
  if (!s) return;
  await Promise.allSettled([s.mongo && s.mongo.stop(), s.redis && s.redis.stop()]);
};
