/** A request's body, read whole up to a limit. */
import type { IncomingMessage } from 'node:http';
import { errors } from '../rest/errors';

const EMPTY = Buffer.alloc(0);

/** Reads the body up to the limit; rejects with 413 beyond it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(errors.bodyTooLarge(limit));
  // A request with neither a length nor a chunked encoding has no body (RFC 9112 6.3): nothing to wait for.
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) return Promise.resolve(EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(errors.bodyTooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
