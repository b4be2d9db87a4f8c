/**
 * A redis-server of a test's own on a fixed port, keeping its data in an append-only file (synced at
 * every write) in a folder of the test's: started again on the same folder and port, it comes back with
 * its data. `stop()` is Redis' orderly shutdown (SIGTERM), `kill()` a crash (SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ensureDebianPackage } from './debian';
const { pingRedis } = require('./redis-server');

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export async function startPrivateRedis(dir: string, port: number): Promise<PrivateRedis> {
  const bin = ensureDebianPackage('redis-server', 'redis-server', 'the Redis restart tests');
  const child: ChildProcess = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10000;
  while (!(await pingRedis('127.0.0.1', port, 500))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the private redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  };
  return { url: `redis://127.0.0.1:${port}`, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
