/** Child processes of the benchmarks: waiting for a service, reading its output and memory, stopping them. */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';

/** Peak resident set of a running process (VmHWM), in MiB. */
export function peakRssMiB(pid: number | undefined): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time a running process has used so far, in user mode and in the kernel (seconds), from
 * /proc/<pid>/stat (fields 14 and 15, in the kernel's USER_HZ ticks of 1/100 s); null where that cannot
 * be read.
 */
export function cpuSeconds(pid: number | undefined): { user: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after it follow its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return null;
  }
}

/**
 * The environment the import benchmarks give both the all-in-one process and its import workers: a
 * bare environment (PATH and HOME only) on the embedded store in `dataDir`, jobs on `redisUrl` under
 * their own queue prefix so that runs never share a queue.
 */
export function importBenchEnv(o: { dataDir: string; url: string; redisUrl: string; queuePrefix: string }): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: o.dataDir,
    SITE_URL: o.url,
    LOG_LEVEL: 'warn',
    MONGO_URL: '',
    REDIS_URL: o.redisUrl,
    QUEUE_PREFIX: o.queuePrefix,
  };
}

/** The environment of an all-in-one service a benchmark starts on loopback, on the embedded store. */
export function allInOneEnv(o: { port: number; dataDir: string; adminPassword: string; appPassword: string; redisUrl?: string }): NodeJS.ProcessEnv {
  const url = `http://127.0.0.1:${o.port}`;
  return {
    ...process.env,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    SITE_URL: url,
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: o.adminPassword,
    ADMIN_APP_PASSWORD: o.appPassword,
    LOG_LEVEL: 'warn',
    MONGO_URL: '',
    REDIS_URL: o.redisUrl ?? '',
  };
}

export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  // Generous: a loaded shared machine has taken over a minute to start it.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('service did not become ready');
}

export function collect(child: ChildProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  return { out: () => out, err: () => err };
}

export async function redisReachable(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** Stops the processes, last started first, and waits for each to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const c of [...children].reverse()) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await once(c, 'exit');
    }
  }
}

/** Runs a benchmark as a script: prints its result as JSON, or the error and exits with 1. */
export function runAsMain(bench: () => Promise<unknown>): void {
  bench().then(
    (result) => console.log(JSON.stringify(result)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
