/**
 * The lists' read rule as a store condition: for every role, capability type, status and owner, the
 * condition readableFilter adds finds exactly the records canReadRecord (the single reads' rule) lets
 * the caller read, on both stores; the two dialects' status rules around it; and the event archive's
 * filter with the author condition stays served by an index.
 */
import { canReadRecord, makeAuthUser, type Caller } from '#libs/auth/user';
import type { CapabilityType, RoleName } from '#libs/auth/roles';
import { COLLECTIONS } from '#libs/data/collections';
import { openStore } from '#libs/store/index';
import { SqliteStore } from '#libs/store/sqlite';
import type { Filter, Store } from '#libs/store/types';
import { listStatuses, readableFilter, readableStatuses } from './access';
import { INVALID } from './errors';
import { eventFilter } from './event-query';

const TYPES: Array<[string, CapabilityType]> = [
  ['vendor_events', 'vendor_event'],
  ['vendor_venue', 'vendor_venue'],
  ['vendor_organizer', 'vendor_organizer'],
];
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
const ROLES: RoleName[] = ['subscriber', 'contributor', 'author', 'editor', 'administrator'];
/** A guest, then one user per role, ids 1 to 5; id 6 writes records nobody here owns. */
const USERS: Caller[] = [null, ...ROLES.map((role, i) => makeAuthUser({ id: i + 1, login: role, roles: [role] }))];
const name = (u: Caller) => u?.roles[0] ?? 'guest';

interface Rec {
  id: number;
  type: string;
  status: string;
  author: number;
}

describe.each([
  ['SQLite', () => openStore({ dataDir: ':memory:' })],
  ['MongoDB', () => openStore({ mongoUrl: process.env.TEST_MONGO_URL, mongoDb: `access_${process.pid}_${Date.now()}`, dataDir: '' })],
] as const)('the lists’ read rule (%s)', (_store, open) => {
  let store: Store;
  const records: Rec[] = [];

  beforeAll(async () => {
    store = await open();
    await store.ensure(COLLECTIONS);
    let id = 0;
    for (const [type] of TYPES) for (const status of STATUSES) for (let author = 1; author <= 6; author++) records.push({ id: ++id, type, status, author });
    await store.collection('posts').insertMany(records.map((r) => ({ ...r, hide_from_listings: false })));
  });
  afterAll(() => store?.close());

  const found = async (type: string, filter: Filter) =>
    (await store.collection<Rec & Record<string, unknown>>('posts').find({ $and: [{ type }, filter] }, { sort: [['id', 1]] })).map((r) => r.id);

  it('finds exactly the records single reads allow, for every role, type, status and owner', async () => {
    for (const user of USERS) {
      for (const [type, cap] of TYPES) {
        const readable = records.filter((r) => r.type === type && canReadRecord(user, cap, r)).map((r) => r.id);
        expect([name(user), type, await found(type, readableFilter(user, cap, STATUSES))]).toEqual([name(user), type, readable]);
        // Asked for fewer statuses, it finds the readable ones among them.
        const some = ['draft', 'private'];
        const readableOfSome = records.filter((r) => r.type === type && some.includes(r.status) && canReadRecord(user, cap, r)).map((r) => r.id);
        expect([name(user), type, await found(type, readableFilter(user, cap, some))]).toEqual([name(user), type, readableOfSome]);
      }
    }
    // No status asked for, nothing found.
    expect(await found('vendor_events', readableFilter(USERS[3], 'vendor_event', []))).toEqual([]);
  });

  it('vendor/events/v1 refuses statuses a caller without edit rights asks for; ec/v1 narrows them to publish', async () => {
    const [guest, subscriber, contributor] = USERS;
    for (const user of [guest, subscriber]) {
      expect(listStatuses(user, 'vendor_event', ['draft'])).toBe(INVALID);
      expect(listStatuses(user, 'vendor_event', ['publish', 'draft'])).toBe(INVALID);
      expect(listStatuses(user, 'vendor_event', undefined)).toEqual({ filter: { status: 'publish' }, echo: 'publish' });
      expect(await found('vendor_events', readableStatuses(user, 'vendor_event', ['draft', 'private']))).toEqual(
        records.filter((r) => r.type === 'vendor_events' && r.status === 'publish').map((r) => r.id),
      );
    }
    expect(listStatuses(contributor, 'vendor_event', ['bogus'])).toBe(INVALID);
    // A contributor's default (any) is every published record and its own in the other statuses it may read.
    const any = listStatuses(contributor, 'vendor_event', undefined);
    if (typeof any === 'string') throw new Error(any);
    expect(any.echo).toBe('any');
    const own = records.filter((r) => r.type === 'vendor_events' && r.status !== 'trash' && (r.status === 'publish' || r.author === contributor!.id));
    expect(await found('vendor_events', any.filter)).toEqual(own.filter((r) => canReadRecord(contributor, 'vendor_event', r)).map((r) => r.id));
  });
});

describe('the event archive with the read rule', () => {
  it('is served by an index for every role (no scan of the posts table)', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure(COLLECTIONS);
    try {
      for (const user of USERS) {
        const status = listStatuses(user, 'vendor_event', undefined);
        if (typeof status === 'string') throw new Error(status);
        const filter = eventFilter({ status: status.filter, listedOnly: true, startsFrom: new Date('2028-01-01'), endsBy: new Date('2028-12-31') });
        const plan = store.explain('posts', filter, { sort: [['event_start', 1]], limit: 10 });
        expect([name(user), plan.filter((l) => /^SCAN t\b/.test(l))]).toEqual([name(user), []]);
      }
    } finally {
      await store.close();
    }
  });
});
