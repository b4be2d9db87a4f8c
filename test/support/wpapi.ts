/**
 * The `wpapi` client set up as a user of the reference system would: pointed at the REST root and given
 * the routes of the site index. Its app's site URL is the real address, so links the client follows
 * (paging, created records) reach the process under test.
 */
import { ADMIN, startTestApp, type TestApp } from './app';
import { freePort } from './cluster';

const WPAPI = require('wpapi');

export async function startAppForClients(): Promise<TestApp> {
  const port = await freePort();
  return startTestApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` });
}

/** A wpapi client for a namespace, signed in as the administrator unless `auth` is false. */

export async function wpapiClient(app: TestApp, namespace = 'cms/v2', auth = true): Promise<any> {
  const index = await app.request('GET', '/');
  const wp = new WPAPI({ endpoint: `${app.restRoot}/`, routes: index.body.routes, ...(auth ? { username: ADMIN.login, password: ADMIN.appPassword } : {}) });
  return wp.namespace(namespace);
}
