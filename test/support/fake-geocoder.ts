/**
 * A fake Nominatim-compatible geocoder on 127.0.0.1 for tests (`/search?format=jsonv2&limit=1&q=...`,
 * and Google's `/maps/api/geocode/json?address=...&key=...`). Places are found by their normalised
 * address; `script` makes the next answers for an address something else (a 429 with Retry-After, a
 * 500). Every request is recorded with its time, so a test can count them and measure their spacing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { normaliseAddress } from '#libs/geocode/address';

export type Scripted = { status: number; retryAfter?: string } | 'hang';

export interface FakeGeocoder {
  base: string;
  /** Nominatim's search URL (GEOCODER_URL). */
  searchUrl: string;
  hits: Array<{ q: string; at: number }>;
  /** Adds a known place. */
  place(address: string, lat: number, lng: number): void;
  /** The next answers for an address, in order, before the normal one. */
  script(address: string, ...answers: Scripted[]): void;
  /** Requests made for an address. */
  asked(address: string): number;
  close(): Promise<void>;
}

export async function startFakeGeocoder(): Promise<FakeGeocoder> {
  const places = new Map<string, { lat: number; lng: number }>();
  const scripts = new Map<string, Scripted[]>();
  const hits: FakeGeocoder['hits'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const google = url.pathname.endsWith('/geocode/json');
    const q = url.searchParams.get(google ? 'address' : 'q') ?? '';
    hits.push({ q, at: Date.now() });
    const key = normaliseAddress(q);
    const next = scripts.get(key)?.shift();
    if (next === 'hang') return;
    if (next) {
      res.statusCode = next.status;
      if (next.retryAfter !== undefined) res.setHeader('Retry-After', next.retryAfter);
      return res.end('busy');
    }
    const at = places.get(key);
    res.setHeader('Content-Type', 'application/json');
    if (google) {
      return res.end(JSON.stringify(at ? { status: 'OK', results: [{ geometry: { location: at } }] } : { status: 'ZERO_RESULTS', results: [] }));
    }
    res.end(JSON.stringify(at ? [{ place_id: 1, lat: String(at.lat), lon: String(at.lng), display_name: q }] : []));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    searchUrl: `${base}/search`,
    hits,
    place: (address, lat, lng) => void places.set(normaliseAddress(address), { lat, lng }),
    script: (address, ...answers) => void scripts.set(normaliseAddress(address), [...(scripts.get(normaliseAddress(address)) ?? []), ...answers]),
    asked: (address) => hits.filter((h) => normaliseAddress(h.q) === normaliseAddress(address)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
