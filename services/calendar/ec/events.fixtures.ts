/**
 * Shared set-up of the event endpoint suites (events*.test.ts): one app and a handle on its store, every
 * event trashed before each test, and helpers that create events relative to now.
 */
import { DateTime } from 'luxon';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

export const EVENTS = '/ec/v1/events';
/** Set by useEventsApp's beforeAll: the suite's app and its store. */
export let app: TestApp;
export let store: Store;

export const fmt = (dt: DateTime) => dt.toFormat('yyyy-LL-dd HH:mm:ss');
export const utcNow = () => DateTime.now().setZone('UTC').startOf('second');

export async function create(body: Record<string, unknown>, path = EVENTS): Promise<any> {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
  return res.body;
}

/** An event `days` from now, lasting `hours` hours. */
export const event = (days: number, extra: Record<string, unknown> = {}, hours = 2) =>
  create({ title: `Event in ${days} days`, start_date: fmt(utcNow().plus({ days })), end_date: fmt(utcNow().plus({ days, hours })), ...extra });

/**
 * An event at noon (UTC) `days` days from today, lasting `hours` hours: for tests whose answer depends
 * on the event's day (date filters, multi-day fields), so it never crosses midnight whenever they run.
 */
export const noonEvent = (days: number, extra: Record<string, unknown> = {}, hours = 2) => {
  const at = utcNow().startOf('day').plus({ days, hours: 12 });
  return create({ title: `Event in ${days} days`, start_date: fmt(at), end_date: fmt(at.plus({ hours })), ...extra });
};

/** Trashes every event so each test sees only its own. */
async function clearEvents(): Promise<void> {
  await store.collection('posts').updateMany({ type: 'vendor_events' }, { $set: { status: 'trash' } });
}

export const ids = (res: { body: any }) => (res.body as Array<{ id: number }>).map((e) => e.id);

/** Starts the suite's app before its tests, closes it after, and clears the events before each test. */
export function useEventsApp(): void {
  beforeAll(async () => {
    app = await startTestApp();
    store = await openStore({ dataDir: app.config.DATA_DIR });
  });
  afterAll(async () => {
    await store.close();
    await app.close();
  });
  beforeEach(clearEvents);
}
