/**
 * What a process's HTTP server lets one client hold. Two rules:
 * - a request line and headers must arrive within HEADERS_TIMEOUT_MS of the connection's first byte
 *   (or of connecting, for a connection that sends nothing), checked every quarter of that time, so a
 *   connection that dribbles its headers (or sends none) gets 408 and is closed within about 1.25 of
 *   it; a kept-alive connection waiting for its next request is left to the keep-alive timeout;
 * - processes that clients connect to (the all-in-one process and the gateway) accept at most
 *   MAX_CONNECTIONS_PER_ADDRESS open connections from one address: the connection's own address, as a
 *   connection is refused before any header (X-Forwarded-For) is read. More are answered 429 and closed
 *   at once, so one address cannot hold the server's sockets while others are still served.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '#libs/config/env';
import { logger } from '#libs/observability/logger';

/** Longer than a load balancer's idle timeout (60 s on the common ones), so the balancer closes first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** The whole request, body included (uploads up to MAX_BODY_BYTES on slow links). */
const REQUEST_TIMEOUT_MS = 120_000;

/** The options of http.createServer for a process with this configuration. */
export function serverOptions(config: Pick<Config, 'HEADERS_TIMEOUT_MS'>): ServerOptions {
  const headers = config.HEADERS_TIMEOUT_MS;
  return {
    headersTimeout: headers,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headers),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(250, Math.floor(headers / 4)),
  };
}

const BODY = JSON.stringify({ code: 'rest_too_many_connections', message: 'Too many open connections from your address.', data: { status: 429 } });
const REFUSAL = [
  'HTTP/1.1 429 Too Many Requests',
  'Connection: close',
  'Retry-After: 1',
  'Content-Type: application/json; charset=UTF-8',
  `Content-Length: ${Buffer.byteLength(BODY)}`,
  '',
  BODY,
].join('\r\n');

/** One client's address as its socket gives it (an IPv4 client of a dual-stack socket as IPv4). */
function addressOf(socket: Socket): string | null {
  const a = socket.remoteAddress;
  if (!a) return null;
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

/** Caps the open connections per client address (0: no cap); returns the counts, for tests and metrics. */
export function capConnectionsPerAddress(server: Server, max: number): ReadonlyMap<string, number> {
  const open = new Map<string, number>();
  if (max <= 0) return open;
  let refusedSince = 0;
  server.on('connection', (socket: Socket) => {
    const address = addressOf(socket);
    if (address === null) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      if (refusedSince++ === 0) logger.warn({ address, max }, 'connections refused: too many open from one address');
      // Ended rather than destroyed, so what the client has sent meanwhile does not reset the connection
      // before it reads the answer; a second later it goes whatever the client does.
      socket.end(REFUSAL);
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (open.size === 0) refusedSince = 0;
    });
  });
  return open;
}
