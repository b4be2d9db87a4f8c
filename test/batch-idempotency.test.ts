/**
 * `POST /batch/v1` with an Idempotency-Key, through the whole service on both stores: the batch's
 * result is remembered per user and key, so sending it again answers the same without storing anything
 * twice; a key sent with another body is refused; concurrent sends of one key run it once.
 */
import { startTestApp, type ApiResponse, type TestApp, appStores } from './support/app';
import { createRoleUsers, type RoleUsers } from './support/roles';

const creates = (prefix: string, n = 3) => ({
  requests: Array.from({ length: n }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `${prefix} ${i}`, status: 'publish' } })),
});

describe.each(appStores('batch_keys'))('batches with an Idempotency-Key on %s', (_name, env) => {
  let app: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    app = await startTestApp(env);
    users = await createRoleUsers(app, 'idem');
  });
  afterAll(async () => {
    await app.close();
  });

  const titled = async (prefix: string): Promise<number> => {
    const res = await app.admin('GET', `/cms/v2/posts?search=${encodeURIComponent(prefix)}&search_columns=post_title&status=any&per_page=1`);
    return Number(res.headers.get('x-wp-total'));
  };
  const send = (key: string, body: unknown, who: 'administrator' | 'editor' = 'administrator'): Promise<ApiResponse> =>
    users.as(who, 'POST', '/batch/v1', { body, headers: { 'Idempotency-Key': key } });
  const ids = (res: ApiResponse) => res.body.responses.map((r: { body: { id: number } }) => r.body.id);

  it('answers a batch sent again with the same key as the first time, and stores it once', async () => {
    const first = await send('order-1', creates('Keyed'));
    expect(first.status).toBe(207);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send('order-1', creates('Keyed'));
    expect(again.status).toBe(207);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await titled('Keyed')).toBe(3);
    // Another user's key of the same name is theirs.
    const editor = await send('order-1', creates('Keyed'), 'editor');
    expect(editor.status).toBe(207);
    expect(ids(editor)).not.toEqual(ids(first));
    expect(await titled('Keyed')).toBe(6);
    // Without a key, each request is a new batch.
    await users.as('administrator', 'POST', '/batch/v1', { body: creates('Unkeyed', 1) });
    await users.as('administrator', 'POST', '/batch/v1', { body: creates('Unkeyed', 1) });
    expect(await titled('Unkeyed')).toBe(2);
  });

  it('refuses a key sent with another batch, and a malformed key, storing nothing', async () => {
    await send('order-2', creates('First body', 1));
    const other = await send('order-2', creates('Other body', 1));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'rest_idempotency_key_reused', data: { status: 422 } });
    const malformed = await send('x'.repeat(300), creates('Malformed', 1));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'rest_invalid_idempotency_key', data: { status: 400 } });
    expect(await titled('Other body')).toBe(0);
    expect(await titled('Malformed')).toBe(0);
  });

  it('runs a batch once when requests with one key arrive together, and answers each', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => send('order-3', creates('Together', 5))));
    for (const a of answers) {
      expect(a.status).toBe(207);
      expect(ids(a)).toEqual(ids(answers[0]));
    }
    expect(await titled('Together')).toBe(5);
  });
});
