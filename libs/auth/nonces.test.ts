import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS } from '../data/collections';
import { openStore } from '../store';
import type { Store } from '../store/types';
import { NONCE_LIFETIME_SECONDS, Nonces } from './nonces';

const HOUR = 3600 * 1000;

describe('nonces', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nonces-'));
    store = await openStore({ dataDir: dir });
    await store.ensure(COLLECTIONS);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bind the action and the user, and live 12 to 24 hours', async () => {
    let now = Date.UTC(2025, 0, 1, 1, 0, 0);
    const nonces = await Nonces.open(store, 'a-service-secret-of-at-least-32-characters', () => now);
    const n = nonces.create('_view_rest', 7);
    expect(n).toMatch(/^[0-9a-f]{16}$/);
    expect(nonces.verify(n, '_view_rest', 7)).toBe(1);
    expect(nonces.verify(n, '_tec_wizard', 7)).toBe(0);
    expect(nonces.verify(n, '_view_rest', 8)).toBe(0);
    expect(nonces.verify(n, '_view_rest', 0)).toBe(0);
    // The tick is 12 h; a nonce made at 01:00 is in its second tick after 12:00, and gone after 24:00.
    now += 11.5 * HOUR;
    expect(nonces.verify(n, '_view_rest', 7)).toBe(2);
    now += 12 * HOUR;
    expect(nonces.verify(n, '_view_rest', 7)).toBe(0);
    expect(NONCE_LIFETIME_SECONDS).toBe(86400);
  });

  it('refuse anything that is not a nonce', async () => {
    const nonces = await Nonces.open(store, 'a-service-secret-of-at-least-32-characters');
    for (const bad of [undefined, null, 12, '', 'abc', 'zzzzzzzzzzzzzzzz', ['x'], 'é'.repeat(16)]) expect(nonces.verify(bad, '_view_rest', 0)).toBe(0);
  });

  it('derive one key from SERVICE_SECRET, or share one stored key between processes', async () => {
    const a = await Nonces.open(store, 'a-service-secret-of-at-least-32-characters');
    const b = await Nonces.open(store, 'a-service-secret-of-at-least-32-characters');
    const other = await Nonces.open(store, 'another-service-secret-of-32-characters!');
    expect(b.verify(a.create('x', 1), 'x', 1)).toBe(1);
    expect(other.verify(a.create('x', 1), 'x', 1)).toBe(0);

    const [p1, p2] = await Promise.all([Nonces.open(store, undefined), Nonces.open(store, undefined)]);
    expect(p2.verify(p1.create('x', 1), 'x', 1)).toBe(1);
    expect(await store.collection('options').count({ id: 'nonce_key' })).toBe(1);
    const p3 = await Nonces.open(store, undefined);
    expect(p3.verify(p1.create('x', 1), 'x', 1)).toBe(1);
    expect(a.verify(p1.create('x', 1), 'x', 1)).toBe(0);
  });
  it('bind a session when given one, and leave the nonces of no session as they were', () => {
    const now = Date.UTC(2025, 0, 1, 1, 0, 0);
    const nonces = Nonces.fromSecret('a-service-secret-of-at-least-32-characters', () => now);
    const a = nonces.create('authorize_application_password', 0, 'session-a');
    expect(nonces.verify(a, 'authorize_application_password', 0, 'session-a')).toBe(1);
    expect(nonces.verify(a, 'authorize_application_password', 0, 'session-b')).toBe(0);
    expect(nonces.verify(a, 'authorize_application_password', 0)).toBe(0);
    const none = nonces.create('authorize_application_password', 0);
    expect(nonces.verify(none, 'authorize_application_password', 0, 'session-a')).toBe(0);
    // A session-free nonce hashes tick, action and user only, as before sessions existed.
    const key = createHmac('sha256', 'a-service-secret-of-at-least-32-characters').update('nonce-key').digest();
    const tick = Math.ceil(now / 1000 / (NONCE_LIFETIME_SECONDS / 2));
    expect(none).toBe(createHmac('sha256', key).update(`${tick}|authorize_application_password|0`).digest('hex').slice(0, 16));
  });
});
