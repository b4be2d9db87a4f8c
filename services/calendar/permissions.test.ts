/** The permission matrix of vendor/events/v1 (reference §2.15) for every role, and validation before permission. */
import { startTestApp, type TestApp } from '../../test/support/app';
import { createRoleUsers, type RoleUsers, type Who } from '../../test/support/roles';

const V1 = '/vendor/events/v1';
let app: TestApp;
let users: RoleUsers;

const WHO: Who[] = ['guest', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];
const event = (extra: Record<string, unknown> = {}) => ({ title: 'Matrix', start_date: 'tomorrow 10am', end_date: 'tomorrow 11am', ...extra });

async function adminEvent(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.admin('POST', `${V1}/events`, { body: event(extra) });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

/** Status per caller, in the order of WHO. */
async function matrix(run: (who: Who) => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (const who of WHO) out.push((await run(who)).status);
  return out;
}

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app, 'perm');
});
afterAll(async () => {
  await app.close();
});

describe('events', () => {
  it('anyone reads the archive and published events; drafts need read rights', async () => {
    const published = await adminEvent();
    const draft = await adminEvent({ status: 'draft' });
    expect(await matrix((who) => users.as(who, 'GET', `${V1}/events`))).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await matrix((who) => users.as(who, 'GET', `${V1}/events/${published}`))).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await matrix((who) => users.as(who, 'GET', `${V1}/events/${draft}`))).toEqual([403, 403, 403, 403, 200, 200]);
  });

  it('create: contributors and up (a contributor publishing gets pending)', async () => {
    const statuses: string[] = [];
    const codes = await matrix(async (who) => {
      const res = await users.as(who, 'POST', `${V1}/events`, { body: event({ status: 'publish' }) });
      if (res.status === 201) statuses.push(res.body.status);
      return res;
    });
    expect(codes).toEqual([401, 403, 201, 201, 201, 201]);
    expect(statuses).toEqual(['pending', 'publish', 'publish', 'publish']);
  });

  it("update and delete of an administrator's event: editors and administrators only", async () => {
    const id = await adminEvent();
    expect(await matrix((who) => users.as(who, 'PUT', `${V1}/events/${id}`, { body: { title: 'Changed' } }))).toEqual([401, 403, 403, 403, 200, 200]);
    const ids = await Promise.all(WHO.map(() => adminEvent()));
    expect(await Promise.all(WHO.map((who, i) => users.as(who, 'DELETE', `${V1}/events/${ids[i]}?force=true`).then((r) => r.status)))).toEqual([
      401, 403, 403, 403, 200, 200,
    ]);
  });

  it('own events: a contributor edits and deletes its drafts but not its published events; an author both', async () => {
    const ownDraft = (await users.as('contributor', 'POST', `${V1}/events`, { body: event() })).body.id;
    expect((await users.as('contributor', 'PUT', `${V1}/events/${ownDraft}`, { body: { title: 'Mine' } })).status).toBe(200);
    expect((await users.as('contributor', 'DELETE', `${V1}/events/${ownDraft}`)).status).toBe(200);
    const ownPublished = await adminEvent({ author: users.ids.contributor });
    expect((await users.as('contributor', 'PUT', `${V1}/events/${ownPublished}`, { body: { title: 'Mine' } })).status).toBe(403);
    expect((await users.as('contributor', 'DELETE', `${V1}/events/${ownPublished}`)).status).toBe(403);
    const authors = await adminEvent({ author: users.ids.author });
    expect((await users.as('author', 'PUT', `${V1}/events/${authors}`, { body: { title: 'Mine' } })).status).toBe(200);
    expect((await users.as('author', 'DELETE', `${V1}/events/${authors}`)).status).toBe(200);
  });

  it('missing events: 404 for those with the general right, 401/403 for the others', async () => {
    expect(await matrix((who) => users.as(who, 'POST', `${V1}/events/2389999`, { body: { title: 'x' } }))).toEqual([401, 403, 404, 404, 404, 404]);
    expect(await matrix((who) => users.as(who, 'DELETE', `${V1}/events/2389999`))).toEqual([401, 403, 404, 404, 404, 404]);
  });

  it('parameter validation answers before permissions', async () => {
    expect(await matrix((who) => users.as(who, 'POST', `${V1}/events`, { body: { title: 'x' } }))).toEqual([400, 400, 400, 400, 400, 400]);
    expect(await matrix((who) => users.as(who, 'POST', `${V1}/events`, { body: event({ venue: 2389999 }) }))).toEqual([400, 400, 400, 400, 400, 400]);
  });

  it('Allow lists the methods the caller may use', async () => {
    const id = await adminEvent();
    expect((await users.as('guest', 'GET', `${V1}/events/${id}`)).headers.get('allow')).toBe('GET');
    expect((await users.as('editor', 'GET', `${V1}/events/${id}`)).headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    expect((await users.as('contributor', 'GET', `${V1}/events`)).headers.get('allow')).toBe('GET, POST');
  });
});

describe('venues and organizers', () => {
  for (const [plural, key] of [
    ['venues', 'venue'],
    ['organizers', 'organizer'],
  ] as const) {
    it(`${plural}: create from contributor up; an administrator's record is edited and deleted by editors only`, async () => {
      expect(await matrix((who) => users.as(who, 'POST', `${V1}/${plural}`, { body: { [key]: `New ${who}` } }))).toEqual([401, 403, 201, 201, 201, 201]);
      const id = (await app.admin('POST', `${V1}/${plural}`, { body: { [key]: `Admin's ${key}` } })).body.id;
      expect(await matrix((who) => users.as(who, 'PUT', `${V1}/${plural}/${id}`, { body: { description: 'x' } }))).toEqual([401, 403, 403, 403, 200, 200]);
      expect(await matrix((who) => users.as(who, 'DELETE', `${V1}/${plural}/2389999`))).toEqual([400, 400, 400, 400, 400, 400]);
      const ids: number[] = [];
      for (const who of WHO) ids.push((await app.admin('POST', `${V1}/${plural}`, { body: { [key]: `To delete for ${who}` } })).body.id);
      expect(await Promise.all(WHO.map((who, i) => users.as(who, 'DELETE', `${V1}/${plural}/${ids[i]}`).then((r) => r.status)))).toEqual([
        401, 403, 403, 403, 200, 200,
      ]);
    });
  }
});

describe('categories and tags', () => {
  // Event categories are managed with publish_vendor_events (authors too), tags with manage_categories.
  for (const [plural, author] of [
    ['categories', true],
    ['tags', false],
  ] as const) {
    it(`${plural}: created and updated by whoever edits events and manages the taxonomy's terms`, async () => {
      const ok = (status: number) => [401, 403, 403, author ? status : 403, status, status];
      expect(await matrix((who) => users.as(who, 'POST', `${V1}/${plural}`, { body: { name: `Term by ${who}` } }))).toEqual(ok(201));
      const id = (await app.admin('POST', `${V1}/${plural}`, { body: { name: `Shared ${plural}` } })).body.id;
      expect(await matrix((who) => users.as(who, 'POST', `${V1}/${plural}/${id}`, { body: { description: `by someone` } }))).toEqual(ok(200));
      expect(await matrix((who) => users.as(who, 'DELETE', `${V1}/${plural}/2389999`))).toEqual([400, 400, 400, 400, 400, 400]);
      expect(await matrix((who) => users.as(who, 'GET', `${V1}/${plural}/${id}`))).toEqual([200, 200, 200, 200, 200, 200]);
    });
  }
});

describe('linked records in an event', () => {
  it('an event shows a venue or organizer only to callers who may read it (as their own single reads decide)', async () => {
    const venue = (await app.admin('POST', `${V1}/venues`, { body: { venue: 'Secret venue', address: '1 Hidden street', status: 'draft' } })).body.id;
    const organizer = (await app.admin('POST', `${V1}/organizers`, { body: { organizer: 'Secret organizer', status: 'private' } })).body.id;
    const id = await adminEvent({ venue, organizer: [organizer] });
    const shown = async (who: Who, path: string) => {
      const res = await users.as(who, 'GET', path);
      const e = res.body.events ? res.body.events.find((x: { id: number }) => x.id === id) : res.body;
      return [Array.isArray(e.venue) ? e.venue.length : e.venue.id === venue ? 1 : 0, e.organizer.length];
    };
    for (const path of [`${V1}/events/${id}`, `${V1}/events?include=${id}`]) {
      expect(await Promise.all(WHO.map((who) => shown(who, path)))).toEqual([
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [1, 1],
        [1, 1],
      ]);
    }
    // The same callers are refused the venue itself.
    expect(await matrix((who) => users.as(who, 'GET', `${V1}/venues/${venue}`))).toEqual([403, 403, 403, 403, 200, 200]);
  });
});

describe('writing as someone else', () => {
  it('naming another author needs the right to edit others’ records (contributors and authors are refused)', async () => {
    const adminId = (await app.admin('GET', '/cms/v2/users/me')).body.id;
    const asAdmin = (who: Who) => (who === 'administrator' ? users.ids.editor : adminId);
    expect(await matrix((who) => users.as(who, 'POST', `${V1}/events`, { body: event({ author: asAdmin(who) }) }))).toEqual([401, 403, 403, 403, 201, 201]);
    expect(await matrix((who) => users.as(who, 'POST', `${V1}/venues`, { body: { venue: `Venue as another for ${who}`, author: asAdmin(who) } }))).toEqual([
      401, 403, 403, 403, 201, 201,
    ]);
    // Writing as oneself stays allowed.
    expect((await users.as('contributor', 'POST', `${V1}/events`, { body: event({ author: users.ids.contributor }) })).status).toBe(201);
    // A contributor cannot hand its draft away either; the event keeps its author.
    const own = (await users.as('contributor', 'POST', `${V1}/events`, { body: event() })).body.id;
    const res = await users.as('contributor', 'POST', `${V1}/events/${own}`, { body: { author: adminId } });
    expect([res.status, res.body.code]).toEqual([403, 'rest_forbidden']);
    expect((await app.admin('GET', `${V1}/events/${own}`)).body.author).toBe(String(users.ids.contributor));
  });
});

describe('terms of an event', () => {
  it('the term archives list the terms of an event only to callers who may read the event', async () => {
    const draft = await adminEvent({ status: 'draft', categories: ['Draft-only category'], tags: ['Draft-only tag'] });
    const published = await adminEvent({ categories: ['Public category'] });
    for (const plural of ['categories', 'tags']) {
      const refused = await matrix((who) => users.as(who, 'GET', `${V1}/${plural}?event=${draft}&hide_empty=false`));
      expect(refused).toEqual([401, 403, 403, 403, 200, 200]);
      const res = await users.as('guest', 'GET', `${V1}/${plural}?post=${draft}&hide_empty=false`);
      expect(res.body).toEqual({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to view terms for this post.', data: { status: 401 } });
    }
    const open = await users.as('guest', 'GET', `${V1}/categories?event=${published}&hide_empty=false`);
    expect(open.body.categories.map((c: { name: string }) => c.name)).toEqual(['Public category']);
    // A missing event is still a bad argument first.
    expect((await users.as('guest', 'GET', `${V1}/categories?event=2389999`)).status).toBe(400);
  });
});
