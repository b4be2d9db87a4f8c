/**
 * Shared set-up of the single page suites (pages.test.ts, links.test.ts): an app whose site URL is its
 * own address (so the pages' absolute links can be followed), events made through vendor/events/v1,
 * and a guest's page fetch.
 */
import sharp from 'sharp';
import { freePort } from '../../../test/support/ports';
import { startTestApp, basic, ADMIN, type TestApp } from '../../../test/support/app';

export const EVENTS = '/vendor/events/v1/events';

export async function startPagesApp(timezone = 'UTC'): Promise<TestApp> {
  const port = await freePort();
  return startTestApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, SITE_TIMEZONE: timezone, SITE_NAME: 'Riverside Arts Centre' });
}

/** Creates an event as the administrator; the answer's record. */
export async function makeEvent(app: TestApp, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await app.admin('POST', EVENTS, { body: { start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00', ...body } });
  if (res.status !== 201) throw new Error(`event ${String(body.title)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An image in the media library; its id. */
export async function makeImage(app: TestApp, name: string): Promise<number> {
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  const res = await app.admin('POST', '/cms/v2/media', {
    raw: png,
    contentType: 'image/png',
    headers: { 'Content-Disposition': `attachment; filename="${name}.png"` },
  });
  if (res.status !== 201) throw new Error(`image: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
}

/** A site address (absolute, or a path of the app), fetched as a guest (or as the administrator) without following redirects. */
export async function page(app: TestApp, pathOrUrl: string, as: 'guest' | 'admin' = 'guest'): Promise<Fetched> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${app.url}${pathOrUrl}`;
  const headers: Record<string, string> = as === 'admin' ? { Authorization: basic(ADMIN.login, ADMIN.appPassword) } : {};
  const res = await fetch(url, { redirect: 'manual', headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The JSON-LD blocks of a page, parsed. */
export function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

/** Every href of a page, entities decoded as a browser reads them. */
export function hrefsOf(html: string): string[] {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) =>
    m[1]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#039;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
}
