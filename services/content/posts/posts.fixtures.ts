/** Shared set-up of the post endpoint suites (posts*.test.ts): one app, and helpers to create posts. */
import { startTestApp, type TestApp } from '../../../test/support/app';

/** Set by usePostsApp's beforeAll: the suite's app. */
export let app: TestApp;

/** Starts the suite's app before its tests and closes it after. */
export function usePostsApp(): void {
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });
}

export const sortedKeys = (o: Record<string, unknown>) =>
  Object.keys(o)
    .filter((k) => k !== '_links')
    .sort();
export const future = (days: number) => new Date(Date.now() + days * 86400000).toISOString().slice(0, 19);

export async function post(body: Record<string, unknown>, path = '/cms/v2/posts') {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
