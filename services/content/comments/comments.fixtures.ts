/** Shared set-up of the cms/v2 comments suites (comments*.test.ts): an app, a user of each role and a post open for comments. */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers, type Who } from '../../../test/support/roles';

/** Set by useCommentsApp's beforeAll: the suite's app and a user of each role. */
export let app: TestApp;
export let users: RoleUsers;
/** A published post by the author, open for comments. */
export let open: number;

/** The REST root as the site prints it in links. */
export const ROOT = 'http://example.test/index.php/cms-json';

export const WHO: Who[] = ['guest', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

export type Row = Array<[number, string | null]>;

export async function matrix(run: (who: Who) => Promise<{ status: number; body: { code?: string } }>, expected: Row): Promise<void> {
  const got: Row = [];
  for (const who of WHO) {
    const res = await run(who);
    got.push([res.status, res.status >= 400 ? (res.body.code ?? null) : null]);
  }
  expect(Object.fromEntries(WHO.map((w, i) => [w, got[i]]))).toEqual(Object.fromEntries(WHO.map((w, i) => [w, expected[i]])));
}

export const makePost = async (body: Record<string, unknown>, who: Who = 'editor', set: RoleUsers = users) => {
  const res = await set.as(who, 'POST', '/cms/v2/posts', { body: { status: 'publish', ...body } });
  expect(res.status).toBe(201);
  return res.body.id as number;
};

/** A comment written by the administrator (approved, never throttled). */
export const adminComment = async (post: number, content: string, extra: Record<string, unknown> = {}) => {
  const res = await app.admin('POST', '/cms/v2/comments', { body: { post, content, ...extra } });
  expect(res.status).toBe(201);
  return res.body;
};

export let sets = 0;
/** Another user per role: the flood check stops one person commenting twice within 15 seconds. */
export const freshUsers = () => createRoleUsers(app, `f${++sets}`);

/** Starts the suite's app, a user of each role and an open post before its tests, and closes the app after. */
export function useCommentsApp(): void {
  beforeAll(async () => {
    app = await startTestApp();
    users = await createRoleUsers(app);
    open = await makePost({ title: 'Open for comments' }, 'author');
  });
  afterAll(async () => {
    await app.close();
  });
}
