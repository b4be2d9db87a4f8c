/**
 * Starts the all-in-one process in the test's own process, on a free port with a fresh embedded
 * store (or MongoDB/Redis when asked), and gives a small client for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '#libs/config/env';
import { start, type Running } from '../../services/runtime';

export const ADMIN = { login: 'admin', password: 'admin-account-password', appPassword: 'abcd EFGH ijkl MNOP qrst UVWX' };

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body (sent as is with the given content type); a FormData is sent as multipart/form-data. */
  raw?: string | Uint8Array | FormData;
  contentType?: string;
  /** [login, password] for Basic auth; defaults to none. */
  auth?: [string, string] | null;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  restRoot: string;
  config: Config;
  running: Running;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** Authenticated as the bootstrapped administrator. */
  admin<T = any>(method: string, path: string, opts?: Omit<RequestOptions, 'auth'>): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/**
 * A small HTTP client for a running site: REST routes are relative to the REST root, site paths
 * (`/index.php...`, `/cms-admin...`, health and metrics) and absolute URLs are taken as they are.
 */
export function makeRequester(url: string, restRoot: string) {
  return async function request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | Uint8Array | FormData | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      // fetch writes a multipart body's Content-Type (with its boundary) itself.
      if (!(opts.raw instanceof FormData) || opts.contentType) headers['Content-Type'] = opts.contentType ?? 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    if (opts.auth) headers.Authorization = basic(opts.auth[0], opts.auth[1]);
    const sitePath = /^\/(index\.php|cms-admin|cms-content|healthz|readyz|metrics)\b/.test(path);
    const target = path.startsWith('http') ? path : sitePath ? url + path : restRoot + path;
    const res = await fetch(target, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/** `env.DATA_DIR`, when given, is kept after close (to test restarts); otherwise a temp folder is used and removed. */
/**
 * For `describe.each`: the environment of a test app on each store, by name: the embedded one, and a
 * database of its own (named after `db`) on the MongoDB the test run found.
 */
export const appStores = (db: string) =>
  [
    ['SQLite', {}],
    ['MongoDB', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `${db}_${process.pid}_${Date.now()}` }],
  ] as const;

export async function startTestApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const ownDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'ecs-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SITE_URL: 'http://example.test',
    ADMIN_USER: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_APP_PASSWORD: ADMIN.appPassword,
    LOG_LEVEL: 'silent',
    // Every test client comes from 127.0.0.1; suites that open many connections at once must not meet
    // the per-address cap meant for the open internet (services/gateway/connections.test.ts sets its own).
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    ...env,
  });
  const running = await start('all', config);
  const port = (running.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const restRoot = `${url}/index.php/cms-json`;

  const request = makeRequester(url, restRoot);

  return {
    url,
    restRoot,
    config,
    running,
    request,
    admin: (method, path, opts = {}) => request(method, path, { ...opts, auth: [ADMIN.login, ADMIN.appPassword] }),
    async close() {
      await running.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
