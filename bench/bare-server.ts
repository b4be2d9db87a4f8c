/**
 * The bare `node:http` server `npm run bench` measures beside the service (PERFORMANCE.md's yardstick:
 * the reference's figures scale by its requests/s): 1 KB of JSON for every request. Run as a child
 * process (`node dist/bench/bare-server.js`, PORT).
 */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ data: 'x'.repeat(1000) }));
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
