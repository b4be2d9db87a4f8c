/**
 * Starts the service in cluster mode as separate processes on loopback: one per service, a worker and
 * the gateway, on one MongoDB (TEST_MONGO_URL) and one Redis (TEST_REDIS_URL), each with its own
 * database name and queue prefix. Processes run the TypeScript sources through swc, so no build is
 * needed; each can be killed and started again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { SERVICES, type Role } from '#libs/config/env';
import { ADMIN, makeRequester, type ApiResponse, type RequestOptions } from './app';
import { freePort } from './ports';
import { redisPrefix } from './redis-prefix';

export { freePort };

const ROOT = resolve(__dirname, '../..');
const REGISTER = resolve(ROOT, 'scripts/ts-register.js');

export interface ClusterProcess {
  role: Role;
  name: string;
  port: number;
  child: ChildProcess;
  output: string[];
}

export interface Cluster {
  gatewayUrl: string;
  restRoot: string;
  env: Record<string, string>;
  procs: Map<string, ClusterProcess>;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  admin<T = any>(method: string, path: string, opts?: Omit<RequestOptions, 'auth'>): Promise<ApiResponse<T>>;
  /** Starts another process of a role (e.g. a second worker) under a new name. */
  startProcess(role: Role, name?: string, extraEnv?: Record<string, string>): Promise<ClusterProcess>;
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

async function waitReady(url: string, proc: ClusterProcess, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited with ${proc.child.exitCode}:\n${proc.output.join('')}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${proc.name} did not become ready:\n${proc.output.join('')}`);
}

export async function startCluster(opts: { mongoUrl?: string; redisUrl?: string; env?: Record<string, string> } = {}): Promise<Cluster> {
  const mongoUrl = opts.mongoUrl ?? process.env.TEST_MONGO_URL;
  const redisUrl = opts.redisUrl ?? process.env.TEST_REDIS_URL;
  if (!mongoUrl || !redisUrl) throw new Error('the cluster test needs TEST_MONGO_URL and TEST_REDIS_URL (set by the jest global setup)');
  const tag = randomBytes(4).toString('hex');
  const ports: Record<string, number> = {};
  for (const name of [...SERVICES, 'gateway']) ports[name] = await freePort();
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  const env: Record<string, string> = {
    MONGO_URL: mongoUrl,
    MONGO_DB: `ecs_cluster_${tag}`,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: await redisPrefix('cluster', redisUrl),
    SERVICE_SECRET: randomBytes(32).toString('hex'),
    SITE_URL: gatewayUrl,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_USER: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_APP_PASSWORD: ADMIN.appPassword,
    BATCH_TIMEOUT_MS: '120000',
    // All test clients share 127.0.0.1 (as behind an ingress); the per-address cap is tested on its own.
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    ...opts.env,
  };
  for (const s of SERVICES) env[`${s.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${ports[s]}`;

  const procs = new Map<string, ClusterProcess>();
  const launch = async (role: Role, name: string, port: number, extraEnv: Record<string, string> = {}): Promise<ClusterProcess> => {
    const child = spawn(process.execPath, ['-r', REGISTER, resolve(ROOT, 'services/main.ts'), role], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc: ClusterProcess = { role, name, port, child, output: [] };
    const keep = (b: Buffer) => {
      proc.output.push(b.toString());
      if (proc.output.length > 200) proc.output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    procs.set(name, proc);
    await waitReady(`http://127.0.0.1:${port}`, proc);
    return proc;
  };

  // Content first: it bootstraps the administrator the others rely on.
  await launch('content', 'content', ports.content);
  await Promise.all(SERVICES.filter((s) => s !== 'content').map((s) => launch(s, s, ports[s])));
  await launch('worker', 'worker', await freePort());
  await launch('gateway', 'gateway', ports.gateway);

  const restRoot = `${gatewayUrl}/index.php/cms-json`;
  const request = makeRequester(gatewayUrl, restRoot);

  const kill = async (name: string, signal: NodeJS.Signals = 'SIGTERM') => {
    const p = procs.get(name);
    if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
    const exited = new Promise((r) => p.child.once('exit', r));
    p.child.kill(signal);
    await exited;
  };

  return {
    gatewayUrl,
    restRoot,
    env,
    procs,
    request,
    admin: (method, path, o = {}) => request(method, path, { ...o, auth: [ADMIN.login, ADMIN.appPassword] }),
    async startProcess(role, name = `${role}-${procs.size}`, extraEnv = {}) {
      return launch(role, name, await freePort(), extraEnv);
    },
    kill,
    async stop() {
      await Promise.all([...procs.keys()].map((n) => kill(n, 'SIGTERM')));
    },
  };
}
