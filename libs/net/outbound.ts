/**
 * The one guard for every request the service makes to other sites (oEmbed discovery and the proxy,
 * remote images, feeds, URL details), guarded against server-side request forgery as the
 * reference's wp_safe_remote_get is: http(s) only, no credentials in the URL, the default ports (80,
 * 443 and 8080, as the reference), and no private, loopback, link-local or otherwise non-public address, checked on every address
 * a name resolves to at the moment of connecting (so a name cannot be re-pointed between check and
 * use) and again on every redirect. Literal addresses are judged after the URL parser's normalisation
 * (decimal, octal and hex IPv4 forms such as http://2130706433/ or http://0x7f.1/ become 127.0.0.1;
 * IPv4-mapped, -compatible and NAT64 IPv6 forms are blocked with the IPv4 ranges). Cloud metadata
 * names are refused by name as well as by address. Entries of OUTBOUND_ALLOW_HOSTS (`host` for
 * every port, `host:port` for one port) are exempt from the address and port rules; the exemption
 * holds for the exact host and port of each hop, so an allowed host cannot redirect the fetch to
 * another port or address. Each request has one deadline over all its redirects and a cap on the
 * bytes it reads; environment proxies are not used.
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { BlockList } from 'node:net';
import type { Readable } from 'node:stream';
import axios from 'axios';

export interface FetchPolicy {
  /** Allow-list entries (see allowEntry): `host` or `host:port`, exempt from the address and port rules. */
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

/**
 * One allow-list entry in its canonical form: a lower-case host name or IP address (IPv6 without
 * brackets), optionally with `:port` (IPv6 then in brackets); null when it is not one.
 */
export function allowEntry(raw: string): string | null {
  const text = raw.trim().toLowerCase();
  if (net.isIPv6(text)) return text;
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return null;
  const host = m[1].replace(/\.$/, '');
  const v6 = text.startsWith('[');
  if (v6 ? !net.isIPv6(host) : !net.isIPv4(host) && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) return null;
  if (m[2] === undefined) return host;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return v6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A policy over an allow list (entries as OUTBOUND_ALLOW_HOSTS gives them) with the standard ports. */
export function outboundPolicy(allowHosts: readonly string[], limits: { timeoutMs: number; maxBytes: number; maxRedirects: number }): FetchPolicy {
  const entries = allowHosts.map((h) => allowEntry(h)).filter((h): h is string => h !== null);
  return { allowHosts: new Set(entries), ports: SAFE_PORTS, ...limits };
}

/** Names of cloud metadata services, refused whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

const NON_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  // ::/96 holds ::, ::1 and the IPv4-compatible forms; ::ffff:0:0:0/96 the IPv4-translated ones.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address is on the public internet (IPv4-mapped IPv6 addresses are judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const bare = (hostname: string) =>
  hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Whether the URL's host, on this port, is on the allow list. */
function allowed(policy: FetchPolicy, url: URL): boolean {
  const host = bare(url.hostname);
  const port = url.port || DEFAULT_PORTS[url.protocol];
  return policy.allowHosts.has(host) || policy.allowHosts.has(net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`);
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
  if (allowed(policy, url)) return url;
  if (!policy.ports.has(url.port)) throw new RefusedError(`port ${url.port} is not fetched`);
  if (net.isIP(host) && !isPublicAddress(host)) throw new RefusedError(`${host} is not a public address`);
  if (METADATA_NAMES.has(host)) throw new RefusedError(`${host} is a cloud metadata service`);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The resolver of the guarded agents: every address a name resolves to must be public. */
function guardedLookup() {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!addresses.every((a) => isPublicAddress(a.address))) {
        const refused: NodeJS.ErrnoException = new RefusedError(`${hostname} resolves to an address that is not public`);
        refused.code = 'EREFUSEDADDRESS';
        return callback(refused, []);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Agents whose connections reach public addresses only, and agents for allowed hosts (no address check). */
const GUARDED = (() => {
  const lookup = guardedLookup() as unknown as http.AgentOptions['lookup'];
  return { http: new http.Agent({ lookup }), https: new https.Agent({ lookup }) };
})();
const EXEMPT = { http: new http.Agent(), https: new https.Agent() };

/** Reads a body up to the limit: cut there when `truncate`, else refused (the deadline's signal also ends the stream). */
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
export async function guardedGet(
  raw: string,
  policy: FetchPolicy,
  opts: { accept: string; truncate: boolean; userAgent?: string; headers?: Record<string, string> },
): Promise<Fetched> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  let url = checkUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    // The exemption is for this hop's host and port only; a redirect is judged again.
    const { http: httpAgent, https: httpsAgent } = allowed(policy, url) ? EXEMPT : GUARDED;
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
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return { url: url.href, status: res.status, contentType: headers['content-type'] ?? '', body: bytes.toString('utf8'), bytes, truncated, headers };
  }
}
