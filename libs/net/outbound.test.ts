import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config/env';
import { allowEntry, checkUrl, guardedGet, isPublicAddress, outboundPolicy, RefusedError, SAFE_PORTS, type FetchPolicy } from './outbound';

const policy = (allow: string[] = [], over: Partial<FetchPolicy> = {}): FetchPolicy => ({
  allowHosts: new Set(allow),
  ports: SAFE_PORTS,
  timeoutMs: 2000,
  maxBytes: 1024,
  maxRedirects: 2,
  ...over,
});

describe('addresses and URLs', () => {
  it('knows public from private, loopback, link-local and reserved addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect([a, isPublicAddress(a)]).toEqual([a, true]);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not-an-ip',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
  });

  it('refuses schemes, credentials, ports and private literals unless the host is allowed', () => {
    for (const url of [
      'ftp://example.org/',
      'file:///etc/passwd',
      'http://user:pw@example.org/',
      'http://example.org:22/',
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0x7f000001/',
      'nonsense',
    ]) {
      expect(() => checkUrl(url, policy())).toThrow(RefusedError);
    }
    expect(checkUrl('https://example.org:8080/x', policy()).href).toBe('https://example.org:8080/x');
    expect(checkUrl('http://127.0.0.1:9999/x', policy(['127.0.0.1'])).href).toBe('http://127.0.0.1:9999/x');
    expect(checkUrl('http://[::1]:9999/x', policy(['::1'])).href).toBe('http://[::1]:9999/x');
  });

  it('blocks metadata, CGNAT, multicast and every IPv6 form of an IPv4 address', () => {
    for (const a of [
      '169.254.169.254',
      'fd00:ec2::254',
      '100.64.0.1',
      '100.127.255.254',
      '239.255.255.250',
      'ff02::1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::a00:1',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
    expect(isPublicAddress('100.128.0.1')).toBe(true);
  });

  it('judges decimal, octal and hex IPv4 literals as the URL parser normalises them', () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://0177.0.0.1/',
      'http://0/',
      'http://%31%32%37.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[fd00:ec2::254]/',
      'http://0xa9.0xfe.0xa9.0xfe/',
    ]) {
      expect(() => checkUrl(url, policy())).toThrow(/is not a public address/);
    }
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
  });

  it('refuses cloud metadata names whatever they resolve to', () => {
    for (const url of ['http://metadata.google.internal/computeMetadata/v1/', 'http://METADATA.google.internal./', 'http://metadata/']) {
      expect(() => checkUrl(url, policy())).toThrow(/cloud metadata/);
    }
  });

  it('reads allow-list entries with and without a port', () => {
    expect(['Intranet.Example.', 'localhost:8081', '10.0.0.5', '::1', '[::1]', '[FD00::1]:8443'].map(allowEntry)).toEqual([
      'intranet.example',
      'localhost:8081',
      '10.0.0.5',
      '::1',
      '::1',
      '[fd00::1]:8443',
    ]);
    for (const bad of ['http://x', 'a b', 'host:0', 'host:99999', '[nothost]:80', 'x:y', '']) expect([bad, allowEntry(bad)]).toEqual([bad, null]);
    const p = outboundPolicy(['localhost:8081', '[::1]:9000', '10.0.0.5'], { timeoutMs: 1, maxBytes: 1, maxRedirects: 0 });
    expect(checkUrl('http://localhost:8081/x', p).port).toBe('8081');
    expect(() => checkUrl('http://localhost:8082/x', p)).toThrow('port 8082 is not fetched');
    expect(() => checkUrl('http://localhost/x', p)).not.toThrow(); // port 80: only the resolver's check can stop it
    expect(checkUrl('http://[::1]:9000/', p).hostname).toBe('[::1]');
    expect(() => checkUrl('http://[::1]:9001/', p)).toThrow(RefusedError);
    expect(checkUrl('http://10.0.0.5:1234/', p).port).toBe('1234');
  });

  it('OUTBOUND_ALLOW_HOSTS is the variable; OEMBED_ALLOW_HOSTS, its former name, still adds hosts', () => {
    expect(loadConfig({ OUTBOUND_ALLOW_HOSTS: 'a.example, localhost:8081' }).OUTBOUND_ALLOW_HOSTS).toEqual(['a.example', 'localhost:8081']);
    expect(loadConfig({ OUTBOUND_ALLOW_HOSTS: 'a.example', OEMBED_ALLOW_HOSTS: 'b.example,a.example' }).OUTBOUND_ALLOW_HOSTS).toEqual([
      'a.example',
      'b.example',
    ]);
    expect(loadConfig({ OEMBED_ALLOW_HOSTS: '127.0.0.1' }).OUTBOUND_ALLOW_HOSTS).toEqual(['127.0.0.1']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_HOSTS: 'http://x/' })).toThrow(/OUTBOUND_ALLOW_HOSTS must list host names/);
    expect(() => loadConfig({ OEMBED_ALLOW_HOSTS: 'bad host' })).toThrow(/in OEMBED_ALLOW_HOSTS/);
  });
});

describe('guardedGet against a local server', () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];
  // A second loopback server that only ever is a redirect target: it must never be reached.
  let other: http.Server;
  let otherPort: number;
  const otherHits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/ok') return res.end('hello');
      if (req.url === '/big') return res.end('x'.repeat(5000));
      if (req.url === '/to-localhost') {
        res.writeHead(302, { Location: `http://localhost:${port}/ok` });
        return res.end();
      }
      if (req.url === '/to-self') {
        res.writeHead(301, { Location: '/ok' });
        return res.end();
      }
      if (req.url === '/loop') {
        res.writeHead(302, { Location: '/loop' });
        return res.end();
      }
      if (req.url === '/to-other-port') {
        res.writeHead(302, { Location: `http://localhost:${otherPort}/ok` });
        return res.end();
      }
      if (req.url === '/trickle') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('x');
        const timer = setInterval(() => res.write('x'), 50);
        return res.on('close', () => clearInterval(timer));
      }
      if (req.url === '/slow') {
        const timer = setTimeout(() => res.end('late'), 3000);
        return res.on('close', () => clearTimeout(timer));
      }
      res.statusCode = 404;
      res.end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    other = http.createServer((req, res) => {
      otherHits.push(req.url ?? '');
      res.end('other');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of [server, other]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  const opts = { accept: '*/*', truncate: false };

  it('refuses the loopback server unless it is allowed, without sending anything', async () => {
    const before = hits.length;
    await expect(guardedGet(`http://127.0.0.1:${port}/ok`, policy(), opts)).rejects.toThrow(RefusedError);
    expect(hits.length).toBe(before);
    const ok = await guardedGet(`http://127.0.0.1:${port}/ok`, policy(['127.0.0.1']), opts);
    expect(ok).toMatchObject({ status: 200, body: 'hello', truncated: false });
  });

  it('checks the resolved address of a name when connecting, and every redirect', async () => {
    // localhost is not a private literal, so only the resolver's check can stop it (the port is let through here).
    const withPort = { ports: new Set([...SAFE_PORTS, String(port)]) };
    const before = hits.length;
    await expect(guardedGet(`http://localhost:${port}/ok`, policy([], withPort), opts)).rejects.toThrow(/localhost resolves to an address that is not public/);
    expect(hits.length).toBe(before);
    await expect(guardedGet(`http://127.0.0.1:${port}/to-localhost`, policy(['127.0.0.1'], withPort), opts)).rejects.toThrow(/not public/);
    await expect(guardedGet(`http://127.0.0.1:${port}/to-localhost`, policy(['127.0.0.1']), opts)).rejects.toThrow(`port ${port} is not fetched`);
    const followed = await guardedGet(`http://127.0.0.1:${port}/to-self`, policy(['127.0.0.1']), opts);
    expect(followed).toMatchObject({ url: `http://127.0.0.1:${port}/ok`, body: 'hello' });
    await expect(guardedGet(`http://127.0.0.1:${port}/loop`, policy(['127.0.0.1']), opts)).rejects.toThrow(/too many redirects/);
  });

  it('caps the body: refused, or cut when truncation is asked for', async () => {
    await expect(guardedGet(`http://127.0.0.1:${port}/big`, policy(['127.0.0.1']), opts)).rejects.toThrow(/larger than 1024 bytes/);
    const cut = await guardedGet(`http://127.0.0.1:${port}/big`, policy(['127.0.0.1']), { accept: '*/*', truncate: true });
    expect(cut.truncated).toBe(true);
    expect(cut.body).toHaveLength(1024);
  });

  it('lets an allowed host:port through, and not its redirect to another port of the same host', async () => {
    const p = outboundPolicy([`localhost:${port}`], { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 2 });
    expect(await guardedGet(`http://localhost:${port}/ok`, p, opts)).toMatchObject({ status: 200, body: 'hello' });
    await expect(guardedGet(`http://localhost:${port}/to-other-port`, p, opts)).rejects.toThrow(`port ${otherPort} is not fetched`);
    // Even with the other port let through as a port, the address check of the resolver stops it.
    const withPort = outboundPolicy([`localhost:${port}`], { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 2 });
    await expect(
      guardedGet(`http://localhost:${port}/to-other-port`, { ...withPort, ports: new Set([...SAFE_PORTS, String(otherPort)]) }, opts),
    ).rejects.toThrow(/not public/);
    expect(otherHits).toEqual([]);
  });

  it('gives up on a body that never ends at the deadline', async () => {
    const started = Date.now();
    await expect(guardedGet(`http://127.0.0.1:${port}/trickle`, policy(['127.0.0.1'], { timeoutMs: 300, maxBytes: 1_000_000 }), opts)).rejects.toThrow(
      /canceled/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    await expect(guardedGet(`http://127.0.0.1:${port}/slow`, policy(['127.0.0.1'], { timeoutMs: 300 }), opts)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
