import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkUrl, guardedGet, isPublicAddress, RefusedError, SAFE_PORTS, type FetchPolicy } from './outbound';

const policy = (allow: string[] = [], over: Partial<FetchPolicy> = {}): FetchPolicy => ({ allowHosts: new Set(allow), ports: SAFE_PORTS, timeoutMs: 2000, maxBytes: 1024, maxRedirects: 2, ...over });

describe('addresses and URLs', () => {
  it('knows public from private, loopback, link-local and reserved addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect([a, isPublicAddress(a)]).toEqual([a, true]);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::', 'not-an-ip']) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
  });

  it('refuses schemes, credentials, ports and private literals unless the host is allowed', () => {
    for (const url of ['ftp://example.org/', 'file:///etc/passwd', 'http://user:pw@example.org/', 'http://example.org:22/', 'http://127.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/', 'http://0x7f000001/', 'nonsense']) {
      expect(() => checkUrl(url, policy())).toThrow(RefusedError);
    }
    expect(checkUrl('https://example.org:8080/x', policy()).href).toBe('https://example.org:8080/x');
    expect(checkUrl('http://127.0.0.1:9999/x', policy(['127.0.0.1'])).href).toBe('http://127.0.0.1:9999/x');
    expect(checkUrl('http://[::1]:9999/x', policy(['::1'])).href).toBe('http://[::1]:9999/x');
  });
});

describe('guardedGet against a local server', () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];

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
      if (req.url === '/slow') {
        const timer = setTimeout(() => res.end('late'), 3000);
        return res.on('close', () => clearTimeout(timer));
      }
      res.statusCode = 404;
      res.end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
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

  it('gives up at the deadline', async () => {
    const started = Date.now();
    await expect(guardedGet(`http://127.0.0.1:${port}/slow`, policy(['127.0.0.1'], { timeoutMs: 300 }), opts)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
