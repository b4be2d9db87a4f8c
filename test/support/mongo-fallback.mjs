/**
 * Child process for the tests' MongoDB fallback: starts the MongoDB-wire-compatible test server from
 * @push.rocks/smartmongo (its `congodb` part, ESM-only, hence a separate process) on a free port of
 * 127.0.0.1, prints `{"url": ...}` as one JSON line on stdout and stays up until it is killed or its
 * parent goes away (stdin closes).
 */
import net from 'node:net';
// The congodb entry alone: the package root also loads mongodb-memory-server, which is not needed here.
import { CongoServer } from '@push.rocks/smartmongo/dist_ts/congodb/index.js';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function start() {
  // The port is probed then released, so another process can take it in between; retry on a clash.
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
