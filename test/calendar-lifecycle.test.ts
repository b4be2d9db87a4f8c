/** Trash and permanent deletion of events, venues and organizers carry their comments along. */
import { CommentsRepository, type CommentDoc } from '#libs/comments/repository';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let store: Store;
let comments: CommentsRepository;

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
  comments = new CommentsRepository(store);
});
afterAll(async () => {
  await store.close();
  await app.close();
});

async function created(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
  return res.body.id;
}

async function commentOn(post: number, approved: string): Promise<number> {
  const id = await comments.nextId();
  const at = new Date();
  const doc: CommentDoc = {
    id,
    post,
    parent: 0,
    author: 0,
    author_name: 'Ann',
    author_email: 'ann@example.org',
    author_url: '',
    author_ip: '127.0.0.1',
    agent: 'test',
    date: '2026-01-01 10:00:00',
    date_gmt: at,
    content: `On ${post}`,
    approved,
    type: 'comment',
    meta: {},
  };
  await comments.insert(doc);
  return id;
}

const states = async (post: number) => (await comments.find({ post }, { sort: [['id', 1]] })).map((c) => c.approved);

const eventBody = { title: 'Talk', start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 11:00:00' };

it('vendor/events/v1: a trashed event hides its comments; ec/v1 deleting it for good removes them', async () => {
  const id = await created('/vendor/events/v1/events', eventBody);
  await commentOn(id, '1');
  await commentOn(id, '0');
  expect((await app.admin('DELETE', `/vendor/events/v1/events/${id}`)).status).toBe(200);
  expect(await states(id)).toEqual(['post-trashed', 'post-trashed']);
  expect((await app.admin('DELETE', `/ec/v1/events/${id}?force=true`)).status).toBe(200);
  expect(await states(id)).toEqual([]);
});

it('ec/v1: venues and organizers trashed or deleted take their comments along; others are untouched', async () => {
  const venue = await created('/ec/v1/venues', { title: 'Hall' });
  const organizer = await created('/vendor/events/v1/organizers', { organizer: 'Org' });
  const bystander = await created('/vendor/events/v1/events', eventBody);
  await commentOn(venue, '1');
  await commentOn(organizer, 'spam');
  await commentOn(bystander, '1');

  expect((await app.admin('DELETE', `/ec/v1/venues/${venue}`)).status).toBe(200);
  expect(await states(venue)).toEqual(['post-trashed']);
  expect((await app.admin('DELETE', `/vendor/events/v1/organizers/${organizer}`)).status).toBe(200);
  expect(await states(organizer)).toEqual(['post-trashed']);

  expect((await app.admin('DELETE', `/ec/v1/venues/${venue}?force=true`)).status).toBe(200);
  expect((await app.admin('DELETE', `/ec/v1/organizers/${organizer}?force=true`)).status).toBe(200);
  expect(await states(venue)).toEqual([]);
  expect(await states(organizer)).toEqual([]);
  expect(await states(bystander)).toEqual(['1']);
});
