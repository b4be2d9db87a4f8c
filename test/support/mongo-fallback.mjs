/**
 * Child process for the tests' MongoDB fallback: starts the MongoDB-wire-compatible test server from
 * @push.rocks/smartmongo (its `congodb` part, ESM-only, hence a separate process) on a free port of
 * 127.0.0.1, prints `{"url": ...}` as one JSON line on stdout and stays up until it is killed or its
 * parent goes away (stdin closes).
 */
// The congodb entry alone: the package root also loads mongodb-memory-server, which is not needed here.
import { CongoServer } from '@push.rocks/smartmongo/dist_ts/congodb/index.js';
// Ports reserved with a lock file (ports.js), so that two test runs cannot take the same one.
import ports from './ports.js';

const { freePort } = ports;

async function start() {
  // The port is reserved but released by the probe, so a process outside the tests can take it in between; retry on a clash.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const server = new CongoServer({ port, host: '127.0.0.1', storage: 'memory' });
    try {
      await server.start();
      return server;
    } catch (e) {
      if (e && e.code === 'EADDRINUSE' && attempt < 5) continue;
      throw e;
    }
  }
}

const server = await start();
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await server.stop().catch(() => undefined);
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
// The driver's default server monitoring streams `hello` replies (moreToCome); this server answers each
// `hello` once, so the driver would mark it unknown ("Server ended moreToCome unexpectedly"), clear its
// connection pool and hold every operation until the next heartbeat (500 ms) several times a minute.
// Polling monitors it the way it can answer.
process.stdout.write(`${JSON.stringify({ url: `mongodb://127.0.0.1:${server.port}/?serverMonitoringMode=poll` })}\n`);
