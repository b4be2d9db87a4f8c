/**
 * Slow connections against the all-in-one process: 1,000 connections from one address that dribble
 * their headers cannot hold the server. All but MAX_CONNECTIONS_PER_ADDRESS are answered 429 at once,
 * the ones held get 408 and are closed once HEADERS_TIMEOUT_MS has passed, and a client at another
 * address is served all along.
 */
import net from 'node:net';
import { loadConfig } from '#libs/config/env';
import { startTestApp, type TestApp } from '../../test/support/app';

const SLOW = 1000;
const CAP = 20;
const HEADERS_TIMEOUT_MS = 1000;

let app: TestApp;
let port: number;

beforeAll(async () => {
  app = await startTestApp({ HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), MAX_CONNECTIONS_PER_ADDRESS: String(CAP) });
  port = Number(new URL(app.url).port);
});
afterAll(async () => {
  await app.close();
});

interface Slow {
  socket: net.Socket;
  /** The status line the server answered with, if any. */
  status: string | null;
  closedAt: number | null;
}

/** A connection from `from` that sends a request line and then one header line every 200 ms, never ending them. */
function slowConnection(from: string): Slow {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  const slow: Slow = { socket, status: null, closedAt: null };
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write('GET /healthz HTTP/1.1\r\nHost: slow.example\r\n');
    timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
  });
  socket.on('data', (d: Buffer) => {
    slow.status ??= d.toString('latin1').split('\r\n')[0];
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearInterval(timer);
    slow.closedAt = Date.now();
  });
  return slow;
}

/** A whole request from another address, over a connection of its own. */
function getFrom(from: string, path: string): Promise<{ status: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: text.split('\r\n')[0], ms: Date.now() - started }));
  });
}

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('slow connections', () => {
  it('cannot hold the server: refused past the cap, closed after the header timeout, others served', async () => {
    const started = Date.now();
    const slow: Slow[] = [];
    for (let i = 0; i < SLOW; i++) slow.push(slowConnection('127.0.0.1'));
    const refused = () => slow.filter((s) => s.status?.startsWith('HTTP/1.1 429')).length;
    // All but a few are refused at once: the cap, and the ones taking the places of those cut at each header
    // timeout that passed while the connections were made (a loaded machine takes seconds to make 1,000).
    const held = () => CAP * (Math.floor((Date.now() - started) / HEADERS_TIMEOUT_MS) + 2);
    await until('all but the held ones are refused', () => refused() >= SLOW - held(), 30_000);

    // Another address is served while they hang. On a slow machine the ones held at first may all have
    // been cut by now: then a fresh few take their places and hang.
    const hanging = () => slow.some((s) => s.closedAt === null && s.status === null && s.socket.readyState === 'open');
    if (!hanging()) {
      for (let i = 0; i < CAP; i++) slow.push(slowConnection('127.0.0.1'));
      await until('a fresh slow connection is held', hanging, 10_000);
    }
    expect(slow.some((s) => s.closedAt === null)).toBe(true);
    const other = await getFrom('127.0.0.2', '/healthz');
    expect(other.status).toBe('HTTP/1.1 200 OK');

    // None is kept: the refused ones are closed, the held ones cut once their headers took too long (with a
    // 408 the client may not get to read, as the server closes while it is still sending).
    await until('every slow connection is closed', () => slow.every((s) => s.closedAt !== null), 30_000);
    const statuses = new Set(slow.map((s) => s.status ?? 'reset'));
    expect([...statuses].filter((s) => s !== 'HTTP/1.1 408 Request Timeout' && s !== 'HTTP/1.1 429 Too Many Requests' && s !== 'reset')).toEqual([]);
    expect(slow.filter((s) => s.status === 'HTTP/1.1 408 Request Timeout').length).toBeGreaterThan(0);

    // And the address may connect again.
    expect((await getFrom('127.0.0.1', '/healthz')).status).toBe('HTTP/1.1 200 OK');
  }, 90_000);
});

describe('configuration', () => {
  it('caps 128 connections per address by default, none behind trusted proxies (they carry every client)', () => {
    expect(loadConfig({}).MAX_CONNECTIONS_PER_ADDRESS).toBe(128);
    expect(loadConfig({ TRUST_PROXY_HOPS: '1' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(0);
    expect(loadConfig({ TRUST_PROXY_HOPS: '1', MAX_CONNECTIONS_PER_ADDRESS: '300' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(300);
    expect(loadConfig({}).HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '66000' })).toThrow(/HEADERS_TIMEOUT_MS must be between 1000 and 60000/);
  });
});
