/**
 * The MongoDB the tests talk to, first that answers: a URL from the environment (TEST_MONGO_URL or
 * MONGO_URL), a `mongo:7` container when a container runtime is reachable, else the MongoDB-wire-compatible
 * test server (@push.rocks/smartmongo's congodb) in a child process. The last one has gaps (no unique index
 * enforcement, ObjectId-only `_id`, no transactions, full scans), which `kind` makes visible.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const RUNTIME_PROBE_MS = 2500;
const START_TIMEOUT_MS = 30000;

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function startContainer() {
  let tc;
  try {
    tc = require('testcontainers');
    // Fails within milliseconds where no docker/podman socket exists; the timeout bounds a hung socket.
    await withTimeout(tc.getContainerRuntimeClient(), RUNTIME_PROBE_MS, 'container runtime probe');
  } catch {
    return null;
  }
  const container = await new tc.GenericContainer('mongo:7')
    .withExposedPorts(27017)
    .withWaitStrategy(tc.Wait.forLogMessage(/Waiting for connections/))
    .start();
  const url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
  return { kind: 'container', url, stop: () => container.stop().then(() => undefined) };
}

function startFallback() {
  return new Promise((resolve, reject) => {
    const script = path.join(__dirname, 'mongo-fallback.mjs');
    // stdin stays a pipe: when this process dies the pipe closes and the child exits with it.
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const fail = (err) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error('MongoDB test server did not start in time')), START_TIMEOUT_MS);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      if (!out.includes('\n')) fail(new Error(`MongoDB test server exited early (${code ?? signal})`));
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      let url;
      try {
        ({ url } = JSON.parse(out.slice(0, nl)));
      } catch (e) {
        fail(new Error(`MongoDB test server printed ${out.slice(0, nl)}`));
        return;
      }
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      // The harness must be free to exit without waiting on the child's handles.
      child.unref();
      child.stdin.unref?.();
      child.stdout.unref?.();
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill('SIGKILL'), 3000);
          force.unref();
          child.once('exit', () => {
            clearTimeout(force);
            done();
          });
          // Held again while stopping, so the caller's process waits for the child to be gone.
          child.ref();
          child.kill('SIGTERM');
        });
      resolve({ kind: 'wire-compatible test server', url, stop });
    });
  });
}

async function startMongo() {
  const url = process.env.TEST_MONGO_URL || process.env.MONGO_URL;
  if (url) return { kind: 'external', url, stop: async () => undefined };
  const container = await startContainer();
  if (container) return container;
  return startFallback();
}

module.exports = { startMongo };
