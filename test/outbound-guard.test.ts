/**
 * Every caller of the outbound guard, through its public route: the oEmbed proxy, URL details, media
 * sideloads, event, venue and organizer images (vendor/events/v1 and ec/v1) and imported event
 * images. A loopback "trap" server counts the requests it gets and must never get one: it is named
 * directly (in every literal form of a loopback address) and reached through redirects of an allowed
 * host. The allowed host is `localhost` on the gate server's port only (OUTBOUND_ALLOW_HOSTS
 * localhost:PORT), so the redirect is an honest one from a reachable site to an address that is
 * not. The gate also serves a positive control (a real image and page, so the routes are shown to
 * fetch at all), an answer that never ends (cut at the caller's limit) and one that never starts
 * (abandoned at the caller's deadline).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestApp, type ApiResponse, type TestApp } from './support/app';
import { AppStore, batchBody, eaEvent } from './support/imports';

let app: TestApp;
let db: AppStore;
let trap: http.Server;
let gate: http.Server;
let trapPort: number;
let gatePort: number;
const trapHits: string[] = [];
/** Bytes the gate wrote per endless answer, by path. */
const sent = new Map<string, number>();
let png: Buffer;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Writes without end, as fast as the reader takes it, until the reader goes away. */
function endless(req: http.IncomingMessage, res: http.ServerResponse, type: string): void {
  res.writeHead(200, { 'Content-Type': type });
  const path = req.url ?? '';
  const chunk = Buffer.alloc(64 * 1024, type.startsWith('text/') ? 'a' : 0);
  if (type.startsWith('text/')) res.write('<html><head>');
  let closed = false;
  res.on('close', () => (closed = true));
  const pump = () => {
    while (!closed) {
      sent.set(path, (sent.get(path) ?? 0) + chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

beforeAll(async () => {
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  trap = http.createServer((req, res) => {
    trapHits.push(req.url ?? '');
    res.end('trapped');
  });
  trapPort = await listen(trap);
  gate = http.createServer((req, res) => {
    const url = req.url ?? '';
    const name = url.split('/').pop() ?? 'x';
    const redirect = (to: string) => {
      res.writeHead(302, { Location: to });
      res.end();
    };
    if (url.startsWith('/to-loopback/')) return redirect(`http://127.0.0.1:${trapPort}/${name}`);
    if (url.startsWith('/to-localhost-other-port/')) return redirect(`http://localhost:${trapPort}/${name}`);
    if (url.startsWith('/to-mapped/')) return redirect(`http://[::ffff:127.0.0.1]:${trapPort}/${name}`);
    if (url.startsWith('/to-decimal/')) return redirect(`http://2130706433:${trapPort}/${name}`);
    if (url.startsWith('/to-metadata/')) return redirect(`http://169.254.169.254/latest/meta-data/${name}`);
    if (url.startsWith('/endless')) return endless(req, res, url.endsWith('.png') ? 'image/png' : 'text/html');
    if (url.startsWith('/silent')) return; // never answers; the socket is closed by the caller's deadline
    if (url.endsWith('.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      return res.end(png);
    }
    if (url.startsWith('/page')) {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<html><head><title>Gate page</title></head><body></body></html>');
    }
    res.statusCode = 404;
    res.end();
  });
  gatePort = await listen(gate);
  app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: `localhost:${gatePort}` });
  db = await AppStore.open(app);
});

afterAll(async () => {
  await db?.close();
  await app?.close();
  for (const s of [gate, trap]) {
    s?.closeAllConnections();
    await new Promise((r) => s?.close(r));
  }
});

let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

interface Caller {
  name: string;
  /** Asks the route to fetch `url`; `fetched` tells whether the answer shows the URL was fetched and kept. */
  call(url: string): Promise<{ res: ApiResponse; fetched: boolean }>;
  /** False for routes that refuse a URL outright (ec/v1 takes attachment ids only): they must never connect. */
  fetches?: false;
}

/** vendor/events/v1 shows the image as `image`, ec/v1 as `featured_media`. */
const hasImage = (res: ApiResponse) => res.status >= 200 && res.status < 300 && (Boolean(res.body?.image) || res.body?.featured_media > 0);

function calendarCaller(name: string, path: string, body: () => Record<string, unknown>): Caller {
  // ec/v1 names the image argument as the cms/v2 posts do, and takes only attachment ids there.
  const ec = path.startsWith('/ec/');
  const arg = ec ? 'featured_media' : 'image';
  return {
    name,
    ...(ec ? { fetches: false as const } : {}),
    async call(url) {
      const res = await app.admin('POST', path, { body: { ...body(), [arg]: url } });
      return { res, fetched: hasImage(res) };
    },
  };
}

const CALLERS: Caller[] = [
  {
    name: 'oembed/1.0/proxy',
    async call(url) {
      const res = await app.admin('GET', `/oembed/1.0/proxy?${new URLSearchParams({ url })}`);
      return { res, fetched: res.status === 200 };
    },
  },
  {
    name: 'cms-block-editor/v1/url-details',
    async call(url) {
      const res = await app.admin('GET', `/cms-block-editor/v1/url-details?${new URLSearchParams({ url })}`);
      return { res, fetched: res.status === 200 };
    },
  },
  {
    name: 'cms/v2/media sideload',
    async call(url) {
      const res = await app.admin('POST', '/cms/v2/media', { body: { url } });
      return { res, fetched: res.status === 201 };
    },
  },
  calendarCaller('vendor/events/v1/events image', '/vendor/events/v1/events', () => ({
    title: `E ${unique()}`,
    start_date: '2031-05-01 10:00:00',
    end_date: '2031-05-01 11:00:00',
  })),
  calendarCaller('vendor/events/v1/venues image', '/vendor/events/v1/venues', () => ({ venue: `V ${unique()}` })),
  calendarCaller('vendor/events/v1/organizers image', '/vendor/events/v1/organizers', () => ({ organizer: `O ${unique()}` })),
  calendarCaller('ec/v1/events image', '/ec/v1/events', () => ({ title: `E ${unique()}`, start_date: '2031-05-02 10:00:00', end_date: '2031-05-02 11:00:00' })),
  calendarCaller('ec/v1/venues image', '/ec/v1/venues', () => ({ title: `V ${unique()}` })),
  calendarCaller('ec/v1/organizers image', '/ec/v1/organizers', () => ({ title: `O ${unique()}` })),
  {
    name: 'event-aggregator import image',
    async call(url) {
      const id = `guard${unique()}`;
      await db.record(id, '2389');
      const res = await app.request('POST', `/vendor/event-aggregator/v1/import/${id}/batch`, { body: batchBody([eaEvent(undefined, { image: url })]) });
      const created = res.body?.activity?.vendor_events?.created ?? [];
      const event = created.length ? await app.request('GET', `/vendor/events/v1/events/${created[0]}`) : null;
      return { res, fetched: Boolean(event && hasImage(event)) };
    },
  },
];

/** The URL a caller is given for a gate path: image callers need an image name, the others a page. */
function gateUrl(caller: Caller, path: string): string {
  const imageCaller = !/oembed|url-details/.test(caller.name);
  return `http://localhost:${gatePort}${path}${imageCaller ? '.png' : ''}`;
}

describe('outbound guard, through every caller', () => {
  it('fetches from the allowed host:port (the control that shows each route fetches at all)', async () => {
    for (const caller of CALLERS.filter((c) => !/oembed/.test(c.name))) {
      const url = gateUrl(caller, `/page-${unique()}`);
      const { res, fetched } = await caller.call(url);
      expect([caller.name, fetched, res.status < 500]).toEqual([caller.name, caller.fetches ?? true, true]);
    }
    // The oEmbed proxy reads the page; it announces no endpoint, so the answer is "not found" after a fetch.
    const before = trapHits.length;
    const oembed = await CALLERS[0].call(gateUrl(CALLERS[0], '/page'));
    expect(oembed.res.status).toBe(404);
    expect(trapHits.length).toBe(before);
  });

  const direct = (port: string) => [
    `http://127.0.0.1${port}/x`,
    `http://localhost${port}/x`,
    `http://2130706433${port}/x`,
    `http://0x7f.1${port}/x`,
    `http://017700000001${port}/x`,
    `http://[::ffff:127.0.0.1]${port}/x`,
    `http://[::1]${port}/x`,
    `http://169.254.169.254${port}/latest/meta-data/x`,
    `http://[fd00:ec2::254]${port}/x`,
    `http://100.64.0.1${port}/x`,
    `http://metadata.google.internal${port}/x`,
  ];

  it('never reaches a loopback, private or metadata address named directly, on its port or a standard one', async () => {
    for (const caller of CALLERS) {
      for (const base of [...direct(`:${trapPort}`), ...direct('')]) {
        const url = /oembed|url-details/.test(caller.name) ? base : `${base}.png`;
        const { res, fetched } = await caller.call(url);
        expect([caller.name, url, fetched]).toEqual([caller.name, url, false]);
        expect(res.status).toBeLessThan(500);
      }
    }
    expect(trapHits).toEqual([]);
  });

  it('never follows the allowed host redirecting to loopback, mapped, decimal or metadata addresses', async () => {
    for (const caller of CALLERS) {
      for (const path of ['/to-loopback/r', '/to-localhost-other-port/r', '/to-mapped/r', '/to-decimal/r', '/to-metadata/r']) {
        const url = gateUrl(caller, `${path}${unique()}`);
        const { res, fetched } = await caller.call(url);
        expect([caller.name, path, fetched]).toEqual([caller.name, path, false]);
        expect(res.status).toBeLessThan(500);
      }
    }
    expect(trapHits).toEqual([]);
  });

  it('cuts or refuses an answer that never ends, and reads only a bounded part of it', async () => {
    for (const caller of CALLERS.filter((c) => c.fetches !== false)) {
      const url = gateUrl(caller, `/endless-${unique()}`);
      const { res, fetched } = await caller.call(url);
      // Pages are cut at the limit and read (url-details answers what the cut head holds); images are refused.
      const page = /oembed|url-details/.test(caller.name);
      expect([caller.name, page || !fetched, res.status < 500]).toEqual([caller.name, true, true]);
      // The limits are 150 KB (pages, cut and read) and MAX_BODY_BYTES (2 MB, images, refused); what
      // the gate wrote beyond that sat in socket buffers when the caller hung up.
      const written = sent.get(new URL(url).pathname) ?? 0;
      expect([caller.name, written > 0, written < 32 * 1024 * 1024]).toEqual([caller.name, true, true]);
    }
  });

  it('abandons an answer that never starts at the deadline', async () => {
    // All at once: the deadlines are 5 s (pages, two attempts for the oEmbed proxy) and 10 s (images).
    const results = await Promise.all(
      CALLERS.filter((c) => c.fetches !== false).map(async (caller) => {
        const started = Date.now();
        const { res, fetched } = await caller.call(gateUrl(caller, `/silent-${unique()}`));
        return { name: caller.name, fetched, status: res.status, seconds: (Date.now() - started) / 1000 };
      }),
    );
    for (const r of results) {
      expect([r.name, r.fetched, r.status < 500, r.seconds < 40]).toEqual([r.name, false, true, true]);
    }
  }, 60_000);
});
