/**
 * What the calendar keeps between requests stays exact across writes, on both stores: a presented event
 * survives an insert of other records (libs/store/generations.ts, change generations), yet shows at the
 * next read every change that reaches it: a new event moving its category's count, an edit of its venue,
 * an edit of itself; a list answer kept for one caller shows a new event at once; and a create's answer
 * embeds its venue and categories as they are, taken from what is kept only while it is current.
 */
import { appStores, startTestApp, type TestApp } from './support/app';

const EVENTS = '/vendor/events/v1/events';
const VENUES = '/vendor/events/v1/venues';
const DAY = (d: number) => ({ start_date: `2031-03-${String(d).padStart(2, '0')} 10:00:00`, end_date: `2031-03-${String(d).padStart(2, '0')} 11:00:00` });

describe.each(appStores('kept_writes'))('kept calendar answers across writes (%s)', (_name, env) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(env);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  async function created(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const res = await app.admin('POST', path, { body });
    if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
    return res.body;
  }
  const read = async (id: number) => (await app.admin('GET', `${EVENTS}/${id}`)).body;

  it('shows each change that reaches a kept event, and a new event in a kept list, at the next read', async () => {
    const venue = await created(VENUES, { venue: 'Hall A' });
    const first = await created(EVENTS, { title: 'First', venue: venue.id, categories: ['Kept Category'], ...DAY(1) });
    const category = first.categories[0];
    expect(category.count).toBe(1);
    expect((await read(first.id)).venue.venue).toBe('Hall A');
    const window = `${EVENTS}?start_date=2031-03-01&end_date=2031-03-31`;
    expect((await app.admin('GET', window)).body.events.map((e: { id: number }) => e.id)).toEqual([first.id]);

    // An insert that moves nothing the first event shows: its answer stays as it was, and the list shows the new one.
    const second = await created(EVENTS, { title: 'Second', ...DAY(2) });
    expect(await read(first.id)).toEqual(await read(first.id));
    expect((await read(first.id)).categories[0].count).toBe(1);
    expect((await app.admin('GET', window)).body.events.map((e: { id: number }) => e.id)).toEqual([first.id, second.id]);

    // A new event in the same category moves the count the first event embeds.
    await created(EVENTS, { title: 'Third', categories: [category.id], ...DAY(3) });
    expect((await read(first.id)).categories[0].count).toBe(2);

    // An edit of the venue reaches the event that embeds it.
    expect((await app.admin('POST', `${VENUES}/${venue.id}`, { body: { venue: 'Hall B' } })).status).toBe(200);
    expect((await read(first.id)).venue.venue).toBe('Hall B');

    // An edit of the event itself.
    expect((await app.admin('POST', `${EVENTS}/${first.id}`, { body: { title: 'First, renamed' } })).status).toBe(200);
    expect((await read(first.id)).title).toBe('First, renamed');
  });

  it('answers a create with the linked records and terms as they are, whether kept or just changed', async () => {
    const venue = await created(VENUES, { venue: 'Room 1' });
    const first = await created(EVENTS, { title: 'Kept parts', status: 'publish', venue: venue.id, categories: ['Answer Category'], ...DAY(10) });
    const category = first.categories[0];
    // Read: the venue's and the category's presentations are kept.
    expect((await read(first.id)).venue.venue).toBe('Room 1');
    // A create taking both from what is kept: the venue as kept, the category with the count it just moved.
    const second = await created(EVENTS, { title: 'Kept parts 2', status: 'publish', venue: venue.id, categories: [category.id], ...DAY(11) });
    expect(second.venue.venue).toBe('Room 1');
    expect(second.categories[0].count).toBe(2);
    // An edit of the venue: the next create shows it.
    expect((await app.admin('POST', `${VENUES}/${venue.id}`, { body: { venue: 'Room 2' } })).status).toBe(200);
    const third = await created(EVENTS, { title: 'Kept parts 3', status: 'publish', venue: venue.id, categories: [category.id], ...DAY(12) });
    expect(third.venue.venue).toBe('Room 2');
    expect(third.categories[0].count).toBe(3);
    // And the read of the first event agrees with the answers (a single read embeds the venue with its JSON-LD too).
    const { json_ld: _jsonLd, ...reread } = (await read(first.id)).venue;
    expect(reread).toEqual(third.venue);
    expect((await read(first.id)).categories[0]).toEqual(third.categories[0]);
  });
});
