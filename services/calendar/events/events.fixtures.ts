/**
 * Shared set-up of the vendor event suites (events*.test.ts): an app in America/New_York, a handle on its
 * store, a user of each role, and a loopback server of images.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

export const EVENTS = '/vendor/events/v1/events';
/** Set by useEventsApp's beforeAll: the suite's app, its store, users of each role and an image server. */
export let app: TestApp;
export let store: Store;
export let users: RoleUsers;
let images: http.Server;
export let imageBase: string;

/** A real 2×3 PNG: images given by URL are decoded and copied into the media library. */
export let PNG: Buffer;

export const create = (body: Record<string, unknown>) =>
  app.admin('POST', EVENTS, { body: { title: 'An event', start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00', ...body } });

/** Starts the suite's app and image server before its tests and closes them after. */
export function useEventsApp(): void {
  beforeAll(async () => {
    PNG = await sharp({ create: { width: 2, height: 3, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();
    // The image server is on loopback, which the outbound guard refuses unless the host is allowed.
    app = await startTestApp({ SITE_TIMEZONE: 'America/New_York', OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    store = await openStore({ dataDir: app.config.DATA_DIR });
    users = await createRoleUsers(app, 'events');
    images = http.createServer((req, res) => {
      if (req.url?.endsWith('.png')) {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
        res.end(req.method === 'HEAD' ? undefined : PNG);
      } else if (req.url?.endsWith('.txt')) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('hello');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
    imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    images.close();
    await store.close();
    await app.close();
  });
}
