import { logger } from '../libs/observability/logger';
import { startTestApp, type TestApp } from './support/app';
let app: TestApp;
beforeAll(async () => { logger.level = 'error'; (logger as any).error = (o: any, m: any) => console.error(m, o?.err?.stack ?? o); app = await startTestApp({ LOG_LEVEL: 'error', ...(process.env.SCRATCH_MONGO ? { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: 'scratch' + Date.now() } : {}) }); });
afterAll(async () => app.close());
it('scratch', async () => {
  const reqs: Array<[string, string, any?]> = JSON.parse(process.env.SCRATCH ?? '[]');
  for (const [m, p, o] of reqs) {
    const r = await app.admin(m, p, o);
    console.log(m, p, r.status, r.text.slice(0, 400));
  }
});
