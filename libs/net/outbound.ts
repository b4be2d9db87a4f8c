/**
 * The one guard for every request the service makes to other sites (oEmbed discovery and the proxy,
 * remote images, feeds, URL details), guarded against server-side request forgery as the
 * reference's wp_safe_remote_get is: http(s) only, no credentials in the URL, the default ports (80,
 * 443 and 8080, as the reference), and no private, loopback, link-local or otherwise non-public address, checked on every address
 * a name resolves to at the moment of connecting (so a name cannot be re-pointed between check and
 * use) and again on every redirect. Hosts listed in OEMBED_ALLOW_HOSTS are exempt from the address and
 * port rules. Each request has one deadline over all its redirects and a cap on the bytes it reads;
 * environment proxies are not used.
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { BlockList } from 'node:net';
import type { Readable } from 'node:stream';
import axios from 'axios';

export interface FetchPolicy {
  /** Lower-case host names or IP addresses exempt from the address and port rules. */
  allowHosts: ReadonlySet<string>;
  /** Ports other hosts may be reached on ('' is the scheme's default). */
  ports: ReadonlySet<string>;
  /** Deadline of one request, redirects included. */
  timeoutMs: number;
  /** Bytes read at most from a response body. */
  maxBytes: number;
  maxRedirects: number;
}

/** The ports the reference's wp_http_validate_url lets through. */
export const SAFE_PORTS: ReadonlySet<string> = new Set(['', '80', '443', '8080']);

/** The URL may not be fetched, or its answer is unusable; no retry can change that. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

export interface Fetched {
  /** The address that answered (after redirects). */
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The same body as bytes (images and other binary answers). */
  bytes: Buffer;
  /** The body was longer than maxBytes and was cut (only when truncation was asked for). */
  truncated: boolean;
  /** Response headers, by lower-case name. */
  headers: Record<string, string>;
}

const NON_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address is on the public internet (IPv4-mapped IPv6 addresses are judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '');

function allowed(policy: FetchPolicy, hostname: string): boolean {
  return policy.allowHosts.has(bare(hostname));
}

/** Checks a URL before it is requested; returns it parsed, or throws RefusedError. */
export function checkUrl(raw: string, policy: FetchPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedError(`the ${url.protocol} scheme is not fetched`);
  if (url.username || url.password) throw new RefusedError('URLs with credentials are not fetched');
  const host = bare(url.hostname);
  if (!host) throw new RefusedError('the URL has no host');
  if (allowed(policy, host)) return url;
  if (!policy.ports.has(url.port)) throw new RefusedError(`port ${url.port} is not fetched`);
  if (net.isIP(host) && !isPublicAddress(host)) throw new RefusedError(`${host} is not a public address`);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A resolver for the agents: every address a name resolves to must be public, unless the name is allowed. */
function guardedLookup(policy: FetchPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!allowed(policy, hostname) && !addresses.every((a) => isPublicAddress(a.address))) {
        const refused: NodeJS.ErrnoException = new RefusedError(`${hostname} resolves to an address that is not public`);
        refused.code = 'EREFUSEDADDRESS';
        return callback(refused, []);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const agents = new WeakMap<FetchPolicy, { http: http.Agent; https: https.Agent }>();
function agentsFor(policy: FetchPolicy) {
  let a = agents.get(policy);
  if (!a) {
    const lookup = guardedLookup(policy) as unknown as http.AgentOptions['lookup'];
    a = { http: new http.Agent({ lookup }), https: new https.Agent({ lookup }) };
    agents.set(policy, a);
  }
  return a;
}

/** Reads a body up to the limit: cut there when `truncate`, else refused. */
function readLimited(stream: Readable, max: number, truncate: boolean): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ bytes: Buffer.concat(chunks).subarray(0, max), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        stream.destroy();
        if (truncate) finish(true);
        else {
          done = true;
          reject(new RefusedError(`the answer is larger than ${max} bytes`));
        }
      }
    });
    stream.on('end', () => finish(false));
    stream.on('error', (err) => {
      if (!done) {
        done = true;
        reject(err);
      }
    });
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A refused address surfaces from the connection as a wrapped error; find it. */
function refusal(err: unknown): RefusedError | null {
  for (let e = err as { code?: string; cause?: unknown; message?: string } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof RefusedError || e.code === 'EREFUSEDADDRESS') return new RefusedError(e.message ?? 'refused');
  }
  return null;
}

/** GETs a URL under the policy, following redirects itself so that each hop is checked. */
export async function guardedGet(raw: string, policy: FetchPolicy, opts: { accept: string; truncate: boolean; userAgent?: string; headers?: Record<string, string> }): Promise<Fetched> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const { http: httpAgent, https: httpsAgent } = agentsFor(policy);
  let url = checkUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    let res;
    try {
      res = await axios.get<Readable>(url.href, {
        responseType: 'stream',
        maxRedirects: 0,
        proxy: false,
        signal,
        httpAgent,
        httpsAgent,
        validateStatus: () => true,
        headers: { ...opts.headers, Accept: opts.accept, 'User-Agent': opts.userAgent ?? 'EventsCalendarContentService' },
      });
    } catch (e) {
      throw refusal(e) ?? e;
    }
    const location = res.headers.location;
    if (REDIRECTS.has(res.status) && typeof location === 'string' && location) {
      res.data.destroy();
      if (hop >= policy.maxRedirects) throw new RefusedError('too many redirects');
      url = checkUrl(new URL(location, url).href, policy);
      continue;
    }
    const { bytes, truncated } = await readLimited(res.data, policy.maxBytes, opts.truncate);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && value !== null) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return { url: url.href, status: res.status, contentType: headers['content-type'] ?? '', body: bytes.toString('utf8'), bytes, truncated, headers };
  }
}
