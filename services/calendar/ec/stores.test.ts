import { startTestApp, type TestApp, appStores } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

/** The ec/v1 list queries on both store adapters: the same answers from the embedded store and MongoDB. */
describe.each(appStores('ec_lists'))('ec/v1 lists on %s', (_name, env) => {
  let app: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    app = await startTestApp(env);
    users = await createRoleUsers(app, 'ecstore');
  });
  afterAll(async () => {
    await app.close();
  });

  it('statuses a caller may read, filters on index fields, ordering and totals', async () => {
    const make = async (who: 'administrator' | 'author', body: Record<string, unknown>) => {
      const res = await users.as(who, 'POST', '/ec/v1/events', { body });
      if (res.status !== 201) throw new Error(res.text);
      return res.body.id as number;
    };
    const venue = (await users.as('administrator', 'POST', '/ec/v1/venues', { body: { title: 'V' } })).body.id;
    const a = await make('administrator', { title: 'A', start_date: '2031-01-03 10:00:00', end_date: '2031-01-03 11:00:00', featured: true, venues: [venue] });
    const b = await make('administrator', { title: 'B', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', status: 'draft' });
    const c = await make('author', { title: 'C', start_date: '2031-01-02 10:00:00', end_date: '2031-01-02 11:00:00', status: 'draft' });
    const d = await make('author', { title: 'D', start_date: '2031-01-04 10:00:00', end_date: '2031-01-04 11:00:00' });
    const ids = async (who: 'guest' | 'author' | 'editor', query: string) => {
      const res = await users.as(who, 'GET', `/ec/v1/events?${query}`);
      return { ids: (res.body as Array<{ id: number }>).map((e) => e.id), total: res.headers.get('x-wp-total') };
    };
    expect(await ids('guest', '')).toEqual({ ids: [a, d], total: '2' });
    expect(await ids('editor', 'status=draft,publish')).toEqual({ ids: [b, c, a, d], total: '4' });
    // An author reads every published event and only their own drafts.
    expect(await ids('author', 'status=draft,publish')).toEqual({ ids: [c, a, d], total: '3' });
    expect(await ids('editor', 'status=draft,publish&order=DESC&per_page=2')).toEqual({ ids: [d, a], total: '4' });
    expect(await ids('guest', `featured=true&venue=${venue}`)).toEqual({ ids: [a], total: '1' });
    expect(await ids('guest', 'starts_after=2031-01-03T12:00:00')).toEqual({ ids: [d], total: '1' });
    expect(await ids('guest', 'search=D')).toEqual({ ids: [d], total: '1' });
    const venues = await users.as('guest', 'GET', '/ec/v1/venues?has_events=true');
    expect(venues.body.map((v: { id: number }) => v.id)).toEqual([venue]);
  });
});
