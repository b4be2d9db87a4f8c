/**
 * The answer to an event write is presented from what the write read and wrote inside its unit of work
 * (its linked venues and organizers, its terms with their counts after the write) instead of reading
 * them again: it must equal a read of the event right after, field for field (a single GET adds only
 * its JSON-LD), in both dialects and on both stores.
 */
import { startTestApp, type TestApp, appStores } from '../../../test/support/app';

const V1 = '/vendor/events/v1';
const EC = '/ec/v1';
const when = { start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00' };

/** A single GET's answer without the JSON-LD it adds (the event's and its linked records'). */
function withoutJsonLd(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutJsonLd);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === 'json_ld' ? [] : [[k, withoutJsonLd(x)]])));
  return v;
}

describe.each(appStores('written_events'))('the answer to an event write on %s', (_name, env) => {
  let app: TestApp;
  let organizer: number;
  let category: number;
  let venue: number;

  beforeAll(async () => {
    app = await startTestApp(env);
    organizer = (await app.admin('POST', `${V1}/organizers`, { body: { organizer: 'Known Org', email: 'org@example.com' } })).body.id;
    venue = (await app.admin('POST', `${V1}/venues`, { body: { venue: 'Known Hall', city: 'Paris' } })).body.id;
    category = (await app.admin('POST', `${V1}/categories`, { body: { name: 'Known Cat' } })).body.id;
    // Read once, so the caches of linked records and terms hold them before the write moves them.
    await app.admin('POST', `${V1}/events`, { body: { title: 'Warm', ...when, organizer: [organizer], categories: [category] } });
    await app.admin('GET', `${V1}/events?per_page=50`);
  });
  afterAll(() => app.close());

  it('vendor/events/v1: a create with an inline venue, an existing organizer and two categories (one new) answers what a GET then shows', async () => {
    const body = { title: 'Written', ...when, venue: { venue: 'Inline Hall', city: 'Lyon' }, organizer: [organizer], categories: [category, 'Brand New Cat'] };
    const created = await app.admin('POST', `${V1}/events`, { body });
    expect(created.status).toBe(201);
    const read = await app.admin('GET', `${V1}/events/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(created.body.venue.venue).toBe('Inline Hall');
    expect(created.body.organizer.map((o: { id: number }) => o.id)).toEqual([organizer]);
    expect(created.body.categories.map((c: { name: string; count: number }) => [c.name, c.count])).toEqual([
      ['Brand New Cat', 1],
      ['Known Cat', 2],
    ]);
    expect(created.body).toEqual(withoutJsonLd(read.body));

    // An update that changes the terms answers as a read after it does too (counts moved both ways).
    const updated = await app.admin('POST', `${V1}/events/${created.body.id}`, { body: { categories: ['Brand New Cat'], status: 'draft' } });
    expect(updated.status).toBe(200);
    const reread = await app.admin('GET', `${V1}/events/${created.body.id}`);
    expect(updated.body.categories.map((c: { count: number }) => c.count)).toEqual([0]);
    expect(updated.body).toEqual(withoutJsonLd(reread.body));
  });

  it('ec/v1: a create with an existing venue and organizer, and an update, answer what a GET then shows', async () => {
    const created = await app.admin('POST', `${EC}/events`, {
      body: { title: 'Written EC', ...when, venues: [venue], organizers: [organizer], vendor_events_cat: [category] },
    });
    expect([created.status, created.body.error ?? created.body.message]).toEqual([201, undefined]);
    const read = await app.admin('GET', `${EC}/events/${created.body.id}`);
    expect(created.body).toEqual(read.body);
    const updated = await app.admin('PATCH', `${EC}/events/${created.body.id}`, { body: { vendor_events_cat: [category], organizers: [] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual((await app.admin('GET', `${EC}/events/${created.body.id}`)).body);
  });
});
