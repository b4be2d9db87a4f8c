/** The service under test: a fresh store seeded with the data set, and the all-in-one service on it. */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SeedSizes } from './data-set';
import type { BenchContext } from './endpoints';
import { SERVICE_LOG_LEVEL } from './options';
import { allInOneEnv, peakRssMiB, stopAll, waitReady } from './processes';
import { AUTHOR_APP_PASSWORD, AUTHOR_LOGIN, seed, type Seeded } from './seed';

export const ADMIN_APP_PASSWORD = 'benchBENCHbench1234ABCDE';

const isCustom = (s: number | SeedSizes | CustomData): s is CustomData => typeof s === 'object' && 'seed' in s;
const env = process.env;

/** A service a benchmark started on a fresh, seeded store. */
export interface Service {
  ctx: BenchContext;
  pid: number | undefined;
  /** A copy of the store as seeded (empty unless asked for), and one for a BENCH_BASELINE service. */
  copyDir: string;
  baselineDir: string;
  seeded: Seeded;
  seedSeconds: number;
  /** Peak RSS of the service so far (MiB). */
  peakRss(): number | null;
  /** Stops the service and removes its store. */
  stop(): Promise<void>;
}

/** Another data set than PERFORMANCE.md's (bench/geoloc.ts): its seeder, its label, and the service's extra environment. */
export interface CustomData {
  label: string;
  seed(dataDir: string): Promise<Seeded>;
  env?: NodeJS.ProcessEnv;
}

/**
 * Seeds a fresh store in a temporary folder and starts the all-in-one service on it, on `port`; with
 * `copy`, the seeded store is first copied to a folder of its own (`copyDir`), for the minimal app.
 */
export async function startService(sizes: number | SeedSizes | CustomData, port: number, copy = false): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecs-bench-'));
  const copyDir = copy ? mkdtempSync(join(tmpdir(), 'ecs-bench-minimal-')) : '';
  const baselineDir = copy && env.BENCH_BASELINE ? mkdtempSync(join(tmpdir(), 'ecs-bench-baseline-')) : '';
  const removeStore = () => {
    for (const dir of [dataDir, copyDir, baselineDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    // BENCH_COUNT_SQL: the store counts its statements and commits, and /metrics shows them (the limit table's SQL/req).
    const serviceEnv = {
      ...allInOneEnv({ port, dataDir, adminPassword: 'bench-admin-password', appPassword: ADMIN_APP_PASSWORD, redisUrl: env.BENCH_REDIS_URL }),
      BENCH_COUNT_SQL: '1',
      LOG_LEVEL: SERVICE_LOG_LEVEL,
      ...(isCustom(sizes) ? sizes.env : {}),
    };

    const what = typeof sizes === 'number' ? `scale ${sizes}` : isCustom(sizes) ? sizes.label : `${sizes.events} events, ${sizes.posts} posts`;
    console.log(`seeding the data set (${what}) into ${dataDir} ...`);
    const t0 = Date.now();
    const seeded = isCustom(sizes) ? await sizes.seed(dataDir) : await seed(dataDir, sizes);
    const seedSeconds = Number(((Date.now() - t0) / 1000).toFixed(1));
    console.log(
      `seeded in ${seedSeconds} s: ${Object.entries(seeded.counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );
    for (const dir of [copyDir, baselineDir])
      if (dir) for (const f of readdirSync(dataDir)) if (f.startsWith('store.sqlite')) copyFileSync(join(dataDir, f), join(dir, f));

    // BENCH_PROFILE: a CPU profile of the service, one file per service started, for finding where a row's time goes.
    const profile = env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(env.BENCH_PROFILE)}`] : [];
    const child = spawn(process.execPath, [...profile, resolve(__dirname, '../services/main.js'), 'all'], {
      env: serviceEnv,
      // At the info level the request log goes to standard output, which nobody reads here.
      stdio: ['ignore', SERVICE_LOG_LEVEL === 'warn' || SERVICE_LOG_LEVEL === 'error' ? 'inherit' : 'ignore', 'inherit'],
    });
    const stop = async () => {
      try {
        await stopAll([child]);
      } finally {
        removeStore();
      }
    };
    try {
      await waitReady(url, child);
    } catch (e) {
      await stop();
      throw e;
    }
    return {
      ctx: {
        url,
        rest: `${url}/index.php/cms-json`,
        auth: `Basic ${Buffer.from(`admin:${ADMIN_APP_PASSWORD}`).toString('base64')}`,
        authorAuth: `Basic ${Buffer.from(`${AUTHOR_LOGIN}:${AUTHOR_APP_PASSWORD}`).toString('base64')}`,
        seeded,
      },
      pid: child.pid,
      copyDir,
      baselineDir,
      seeded,
      seedSeconds,
      peakRss: () => peakRssMiB(child.pid),
      stop,
    };
  } catch (e) {
    removeStore();
    throw e;
  }
}
