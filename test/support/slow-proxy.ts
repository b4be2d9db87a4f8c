/**
 * An HTTP pass-through that holds every call for a while before passing it on (signed calls between
 * processes pass through unchanged), so a batch is slow enough for a test to act in the middle of it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowProxy {
  url: string;
  close(): void;
}

export function startSlowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const headers = { ...req.headers };
        delete headers.host;
        const out = http.request(`${target}${req.url}`, { method: req.method, headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}
