/**
 * An event written through cms/v2 by a writer without unfiltered_html is filtered as every post is.
 * Every role with manage_options (the events route's audience) has unfiltered_html, so the write path
 * is driven directly with such a caller (a manager whose unfiltered_html was taken away).
 */
import { makeAuthUser, type AuthUser } from '#libs/auth/user';
import { UsersRepository } from '#libs/auth/users';
import { COLLECTIONS } from '#libs/data/collections';
import { PostsRepository } from '#libs/posts/repository';
import { Args } from '#libs/rest/args';
import { siteFrom } from '#libs/rest/site';
import { KINDS } from '#libs/routes/cms/post-args';
import { SqliteStore } from '#libs/store/sqlite';
import { TermsRepository } from '#libs/terms/repository';
import { buildCreate, prepare, type WriteDeps, type WriteParams } from './write';

let store: SqliteStore;
let deps: WriteDeps;
beforeAll(async () => {
  store = new SqliteStore({ dataDir: ':memory:' });
  await store.ensure(COLLECTIONS);
  deps = {
    site: siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'Site', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }),
    posts: new PostsRepository(store),
    terms: new TermsRepository(store),
    users: new UsersRepository(store),
    defaultCategory: () => 1,
  };
});
afterAll(async () => {
  await store.close();
});

const request = (user: AuthUser, input: WriteParams & Readonly<Record<string, unknown>>) => ({
  input,
  args: new Args(input),
  has: (k: string) => k in input,
  user,
});

it('filters the title, content, excerpt and meta of a writer without unfiltered_html, and keeps them for one with it', async () => {
  const admin = makeAuthUser({ id: 1, login: 'admin', roles: ['administrator'] });
  const restricted: AuthUser = { ...admin, caps: admin.caps.filter((c) => c !== 'unfiltered_html') };
  const input = {
    title: 'Gig <script>alert(1)</script>',
    content: '<p onclick="x()">Body</p><script>alert(2)</script>',
    excerpt: '<iframe src="http://evil.test"></iframe>Short',
    meta: { _EventCostDescription: '<script>alert(3)</script>Free' },
  } satisfies WriteParams;
  const kind = KINDS.vendor_events;
  const filtered = await buildCreate(deps, kind, request(restricted, input), await prepare(deps, kind, request(restricted, input), null), 10);
  expect(filtered.type).toBe('vendor_events');
  for (const text of [filtered.title, filtered.content, filtered.excerpt, String(filtered.meta._EventCostDescription)]) {
    expect(text).not.toMatch(/<script|onclick|<iframe/);
  }
  expect(filtered.content).toContain('Body');
  const kept = await buildCreate(deps, kind, request(admin, input), await prepare(deps, kind, request(admin, input), null), 11);
  expect(kept.content).toContain('<script>alert(2)</script>');
  // An event always carries its index fields, derived from its meta (none here).
  expect(filtered).toMatchObject({ event_start: null, event_end: null, venues: [], organizers: [] });
});
