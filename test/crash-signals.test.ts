/**
 * `npm start` as a user runs it (README, "Two commands"): the build, then the all-in-one process. SIGTERM
 * sent to the process the user started (npm) stops the server: it drains, logs a last "stopped" line,
 * and no process of the tree `npm start` created is left (found by process group with ps).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './support/ports';

const ROOT = resolve(__dirname, '..');

let npm: ChildProcess | undefined;
let dataDir: string;
const output: string[] = [];

/** Processes whose process group is `pgid`, as `pid command` lines. */
function group(pgid: number): string[] {
  const lines = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,args='], { encoding: 'utf8' }).split('\n');
  return lines
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 2 && Number(f[1]) === pgid)
    .map((f) => `${f[0]} ${f.slice(2).join(' ')}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(() => {
  // Whatever the test found, nothing of the tree outlives it.
  if (npm?.pid) {
    try {
      process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('SIGTERM to npm start stops the server, logs "stopped" and leaves no process of its tree', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'ecs-signals-'));
  // detached: npm leads a process group of its own, which holds every process it starts.
  npm = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: url,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = npm.pid!;
  npm.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  npm.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  const exited = new Promise<void>((r) => npm!.once('exit', () => r()));

  // The build runs first (prestart), then the server; it answers once it listens.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output.join('')}`);
    if (Date.now() > deadline) throw new Error(`npm start did not answer on ${url}:\n${output.join('')}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(500);
  }
  const tree = group(pgid);
  // npm and the node server (npm's shell execs node, so nothing stands between them to lose the signal).
  expect(tree.some((p) => p.includes('dist/services/main.js all'))).toBe(true);

  process.kill(pgid, 'SIGTERM');
  await exited;
  // The server may still be draining when npm is gone; every process of the group ends.
  const gone = Date.now() + 30_000;
  while (group(pgid).length && Date.now() < gone) await sleep(200);
  expect(group(pgid)).toEqual([]);

  const lines = output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; signal?: string });
  expect(lines.map((l) => l.msg)).toContain('shutting down');
  expect(lines[lines.length - 1]).toMatchObject({ msg: 'stopped', signal: 'SIGTERM' });
  await expect(fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
}, 300_000);
