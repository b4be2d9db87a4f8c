/**
 * The Redis the tests use, picked as README.md ("Two commands") says: a URL from the environment, else a
 * container when a container runtime answers, else a Redis on 127.0.0.1:6379, else a redis-server
 * started here on a free port (and stopped by stop()). Tests isolate themselves with key prefixes and
 * never flush, so an external or shared Redis keeps its data.
 */
const net = require('node:net');
const os = require('node:os');
const { spawn } = require('node:child_process');
const { freePort } = require('./ports');
const { ensureDebianPackage } = require('./debian');

const CONTAINER_DETECT_MS = 2500;

/** Sends an inline PING over plain TCP; resolves true when Redis answers +PONG (not e.g. -NOAUTH). */
function pingRedis(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let answer = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function tryContainer() {
  let timer;
  try {
    const { GenericContainer, getContainerRuntimeClient } = require('testcontainers');
    // Without a runtime, detection fails quickly; the timer bounds it on machines where a socket hangs.
    const found = await Promise.race([
      getContainerRuntimeClient().then(() => true),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(false), CONTAINER_DETECT_MS);
      }),
    ]);
    if (!found) return undefined;
    const container = await new GenericContainer('redis:7').withExposedPorts(6379).start();
    return {
      kind: 'container',
      url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function spawnRedis() {
  const bin = ensureDebianPackage('redis-server', 'redis-server', 'the tests (no TEST_REDIS_URL/REDIS_URL, container or Redis on 127.0.0.1:6379)');
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', os.tmpdir()], {
    stdio: 'ignore',
  });
  let exited = false;
  let spawnError;
  child.on('error', (err) => {
    spawnError = err;
  });
  child.on('exit', () => {
    exited = true;
  });
  // A redis-server left behind by a crashed test run would hold the port; end it with this process.
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);

  const deadline = Date.now() + 10000;
  while (!(await pingRedis('127.0.0.1', port, 500))) {
    if (spawnError || exited || Date.now() > deadline) {
      process.removeListener('exit', killOnExit);
      if (!exited) child.kill('SIGKILL');
      const why = spawnError ? spawnError.message : exited ? 'it exited' : 'it did not answer PING within 10 s';
      throw new Error(
        `No Redis for the tests: TEST_REDIS_URL/REDIS_URL is not set, no container runtime was found, nothing answers on 127.0.0.1:6379, and starting redis-server failed (${why}). Install redis-server or set TEST_REDIS_URL.`,
      );
    }
    await sleep(100);
  }
  return {
    kind: 'spawned redis-server',
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

async function startRedis() {
  const fromEnv = process.env.TEST_REDIS_URL || process.env.REDIS_URL;
  if (fromEnv) return { kind: 'external', url: fromEnv, stop: async () => {} };

  const container = await tryContainer();
  if (container) return container;

  if (await pingRedis('127.0.0.1', 6379)) {
    return { kind: 'local redis-server', url: 'redis://127.0.0.1:6379', stop: async () => {} };
  }
  return spawnRedis();
}

module.exports = { startRedis, pingRedis };
