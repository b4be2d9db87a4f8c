/**
 * A TCP pass-through on a fixed loopback port, for fault tests: `down()` cuts every connection and
 * refuses new ones (the server behind it looks stopped), `up()` listens again on the same port (it is
 * back, with its data), `delayMs` holds every chunk from the server for a while (it is slow), and
 * `hold()` stops passing the server's chunks on until `release()` (a call in flight never gets its
 * answer: the client is stuck where it is).
 */
import net from 'node:net';
import { freePort } from './ports';

export interface TcpProxy {
  port: number;
  /** Milliseconds each chunk from the server waits before it is passed on; order is kept. */
  delayMs: number;
  /** From now on, chunks from the server (those already on their way included) wait until release(). */
  hold(): void;
  release(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number, opts: { port?: number; delayMs?: number } = {}): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  // Reserved for the whole test (ports.js), so that up() finds it free after down().
  let port = opts.port ?? (await freePort());
  let gate: { opened: Promise<void>; open: () => void } | null = null;
  /** Passes a chunk on once no hold is in force, keeping the order of the chunks. */
  const pass = async (client: net.Socket, chunk: Buffer) => {
    while (gate) await gate.opened;
    if (!client.destroyed) client.write(chunk);
  };

  const onConnection = (client: net.Socket) => {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    let chain = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const delayMs = proxy.delayMs;
      chain = chain.then(async () => {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        await pass(client, chunk);
      });
    });
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer(onConnection);
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        proxy.port = port;
        server = s;
        resolve();
      });
    });

  const proxy: TcpProxy = {
    port,
    delayMs: opts.delayMs ?? 0,
    hold() {
      if (gate) return;
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      gate = { opened, open };
    },
    release() {
      const g = gate;
      gate = null;
      g?.open();
    },
    async down() {
      const s = server;
      server = undefined;
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
    async up() {
      if (server) return;
      // The port was released a moment ago; retry briefly if the system still holds it.
      for (let attempt = 0; ; attempt++) {
        try {
          return await listen();
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 20) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    async close() {
      proxy.release();
      await proxy.down();
    },
  };
  await listen();
  return proxy;
}

/** Host and port of a mongodb:// or redis:// URL with one host. */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}
