/**
 * A TCP pass-through on a fixed loopback port, for fault tests: `down()` cuts every connection and
 * refuses new ones (the server behind it looks stopped), `up()` listens again on the same port (it is
 * back, with its data), and `delayMs` holds every chunk from the server for a while (it is slow).
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Milliseconds each chunk from the server waits before it is passed on; order is kept. */
  delayMs: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number, opts: { port?: number; delayMs?: number } = {}): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = opts.port ?? 0;

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
      if (proxy.delayMs <= 0) {
        chain = chain.then(() => void client.write(chunk));
        return;
      }
      chain = chain.then(
        () =>
          new Promise<void>((r) =>
            setTimeout(() => {
              if (!client.destroyed) client.write(chunk);
              r();
            }, proxy.delayMs),
          ),
      );
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
