/**
 * An event written with inline new venues, organizers and terms is one unit of work (Store.unit): when a
 * write of it fails part-way, nothing it created stays. SQLite runs it as a transaction; the MongoDB the
 * tests use has no transactions, so there the compensation path (the unit's inserts journaled and
 * deleted again) is what runs.
 */
import { EVENT_TYPE } from '#libs/calendar/meta';
import { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { TermsRepository } from '#libs/terms/repository';
import { startTestApp, type TestApp, appStores } from '../../../test/support/app';

const EVENTS = '/vendor/events/v1/events';
const when = { start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00' };

describe.each(appStores('atomic_events'))('event writes with inline records on %s', (_name, env) => {
  let app: TestApp;
  let store: Store;

  beforeAll(async () => {
    app = await startTestApp(env);
    store = await openStore({ mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB, dataDir: app.config.DATA_DIR });
  });
  afterAll(async () => {
    await store.close();
    await app.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const titled = (title: string) => store.collection('posts').count({ title });
  const terms = (name: string) => store.collection('terms').count({ name });
  const original = {
    create: PostsRepository.prototype.create,
    createMany: PostsRepository.prototype.createMany,
    save: PostsRepository.prototype.save,
    moveCounts: TermsRepository.prototype.moveCounts,
  };
  /** The store refuses the insert of one kind of record (by either insert); every other write goes through. */
  const failCreateOf = (type: string) => {
    jest.spyOn(PostsRepository.prototype, 'create').mockImplementation(function (this: PostsRepository, doc: PostDoc) {
      if (doc.type === type) return Promise.reject(new Error('the store refused the write'));
      return original.create.call(this, doc);
    });
    jest.spyOn(PostsRepository.prototype, 'createMany').mockImplementation(function (this: PostsRepository, docs: PostDoc[]) {
      if (docs.some((d) => d.type === type)) return Promise.reject(new Error('the store refused the write'));
      return original.createMany.call(this, docs);
    });
  };

  it('leaves no venue, organizer or term of a create whose event could not be stored', async () => {
    const category = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: `Kept ${_name}` } });
    failCreateOf(EVENT_TYPE);
    const res = await app.admin('POST', EVENTS, {
      body: {
        title: 'Never stored',
        ...when,
        status: 'publish',
        venue: { venue: `Orphan venue ${_name}`, city: 'Lyon' },
        organizer: [{ organizer: `Orphan organizer ${_name}` }, { organizer: `Second orphan ${_name}` }],
        categories: [category.body.id, `Orphan category ${_name}`],
        tags: [`Orphan tag ${_name}`],
      },
    });
    expect(res.status).toBeGreaterThanOrEqual(500);
    jest.restoreAllMocks();
    expect(await titled(`Orphan venue ${_name}`)).toBe(0);
    expect(await titled(`Orphan organizer ${_name}`)).toBe(0);
    expect(await titled(`Second orphan ${_name}`)).toBe(0);
    expect(await terms(`Orphan category ${_name}`)).toBe(0);
    expect(await terms(`Orphan tag ${_name}`)).toBe(0);
    expect((await app.admin('GET', `/vendor/events/v1/categories/${category.body.id}`)).body.count).toBe(0);

    // The same create goes through once the store takes it, and counts its terms once.
    const ok = await app.admin('POST', EVENTS, {
      body: { title: 'Stored', ...when, status: 'publish', venue: { venue: `Orphan venue ${_name}` }, categories: [category.body.id] },
    });
    expect(ok.status).toBe(201);
    expect(await titled(`Orphan venue ${_name}`)).toBe(1);
    expect((await app.admin('GET', `/vendor/events/v1/categories/${category.body.id}`)).body.count).toBe(1);
  });

  it('leaves no organizer of an update whose event could not be saved, and the event as it was', async () => {
    const event = await app.admin('POST', EVENTS, { body: { title: 'Before', ...when } });
    expect(event.status).toBe(201);
    jest.spyOn(PostsRepository.prototype, 'save').mockImplementation(function (this: PostsRepository, id: number, changes: Partial<PostDoc>) {
      if (id === event.body.id) return Promise.reject(new Error('the store refused the write'));
      return original.save.call(this, id, changes);
    });
    const res = await app.admin('POST', `${EVENTS}/${event.body.id}`, {
      body: { title: 'After', organizer: [{ organizer: `Update orphan ${_name}` }], venue: { venue: `Update venue ${_name}` } },
    });
    expect(res.status).toBeGreaterThanOrEqual(500);
    jest.restoreAllMocks();
    expect(await titled(`Update orphan ${_name}`)).toBe(0);
    expect(await titled(`Update venue ${_name}`)).toBe(0);
    const after = await app.admin('GET', `${EVENTS}/${event.body.id}`);
    expect(after.body.title).toBe('Before');
    expect(after.body.organizer).toEqual([]);
  });

  it('leaves no ec/v1 venue whose tag counts could not be moved', async () => {
    const tag = await app.admin('POST', '/cms/v2/tags', { body: { name: `Venue tag ${_name}` } });
    jest.spyOn(TermsRepository.prototype, 'moveCounts').mockImplementation(function (this: TermsRepository, deltas: Map<number, number>) {
      if (deltas.size) return Promise.reject(new Error('the store refused the write'));
      return original.moveCounts.call(this, deltas);
    });
    const res = await app.admin('POST', '/ec/v1/venues', { body: { title: `Tagged venue ${_name}`, status: 'publish', tags: [tag.body.id] } });
    expect(res.status).toBeGreaterThanOrEqual(500);
    jest.restoreAllMocks();
    expect(await titled(`Tagged venue ${_name}`)).toBe(0);
    expect((await app.admin('GET', `/cms/v2/tags/${tag.body.id}`)).body.count).toBe(0);
  });
});
