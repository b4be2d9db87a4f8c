/**
 * Gateway-to-service calls in cluster mode: the ServiceRequest travels as JSON over HTTP (axios with
 * keep-alive), signed with the shared SERVICE_SECRET so that a service accepts only requests the
 * gateway (or a worker) made. The signature covers a timestamp and the body; stale ones are refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance } from 'axios';
import { isRecord } from './args';
import type { Dispatch, ServiceRequest, ServiceResponse, UploadPayload } from './service';

/** Bytes of an upload travel as base64 in the signed JSON (bounded by the body limit). */
type WireUpload = Omit<UploadPayload, 'raw' | 'files'> & { raw?: string; files?: Record<string, { name: string; type: string; data: string }> };

export function encodeUpload(u: UploadPayload): WireUpload {
  const out: WireUpload = { ...u, raw: u.raw?.toString('base64'), files: undefined };
  if (u.files) out.files = Object.fromEntries(Object.entries(u.files).map(([k, f]) => [k, { name: f.name, type: f.type, data: f.data.toString('base64') }]));
  return out;
}

export function decodeUpload(w: WireUpload): UploadPayload {
  const out: UploadPayload = { ...w, raw: typeof w.raw === 'string' ? Buffer.from(w.raw, 'base64') : undefined, files: undefined };
  if (w.files)
    out.files = Object.fromEntries(
      Object.entries(w.files).map(([k, f]) => [k, { name: String(f.name), type: String(f.type), data: Buffer.from(String(f.data), 'base64') }]),
    );
  return out;
}

export const DISPATCH_PATH = '/_service/dispatch';
export const SIGNATURE_HEADER = 'x-ecs-signature';
export const TIMESTAMP_HEADER = 'x-ecs-timestamp';
const MAX_SKEW_SECONDS = 300;

export function sign(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** Checks a signed request; false for a bad, missing or stale signature. */
export function verifySignature(secret: string, timestamp: string | undefined, signature: string | undefined, body: string, now = Date.now()): boolean {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const expected = Buffer.from(sign(secret, timestamp, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export function remoteDispatch(baseUrl: string, secret: string, timeoutMs = 30000): Dispatch {
  const client: AxiosInstance = axios.create({
    baseURL: baseUrl,
    timeout: timeoutMs,
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 256 }),
    // Every status is an answer to relay; only transport failures throw.
    validateStatus: () => true,
    transformResponse: (d) => d,
    maxContentLength: 256 * 1024 * 1024,
  });
  return async (req: ServiceRequest): Promise<ServiceResponse> => {
    const body = JSON.stringify(req.upload ? { ...req, upload: encodeUpload(req.upload) } : req);
    const ts = String(Math.floor(Date.now() / 1000));
    let res;
    try {
      res = await client.post<string>(DISPATCH_PATH, body, {
        headers: { 'Content-Type': 'application/json', [TIMESTAMP_HEADER]: ts, [SIGNATURE_HEADER]: sign(secret, ts, body), 'X-Request-Id': req.requestId },
      });
    } catch (e) {
      // A transport failure's own error carries the request (parameters such as passwords, the
      // signature); what is logged of it is only where and how it failed.
      const err: Record<string, unknown> = isRecord(e) ? e : {};
      throw Object.assign(new Error(`service at ${baseUrl} did not answer: ${err.code ?? err.message ?? 'unknown error'}`), { code: err.code });
    }
    if (res.status !== 200) throw new Error(`service at ${baseUrl} answered ${res.status}`);
    // The answer of a service that signed requests with the same secret: JSON of a ServiceResponse.
    return JSON.parse(res.data);
  };
}
