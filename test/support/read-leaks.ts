/**
 * The read side of the authorization matrix (test/read-leaks*.test.ts): the app, a user of each role and
 * the store, the hidden records no guest or subscriber may see (each with a unique word), and the reads
 * that look for those words.
 */
import { startTestApp, type ApiResponse, type TestApp } from './app';
import { openAppStore, Tally } from './authz';
import { createRoleUsers, type RoleUsers } from './roles';
import type { Store } from '#libs/store/types';

export type Reader = 'guest' | 'subscriber';
export const READERS: Reader[] = ['guest', 'subscriber'];
export const HIDDEN_STATUSES = ['draft', 'pending', 'future', 'private', 'trash'] as const;
export const EVENT_DAY = '2027-06-15';

/**
 * Opens the suite's app (with `env`) and the store, writes the hidden and the published records before
 * its tests, prints the tally and closes them after; returns what the tests read with.
 */
export function readLeaksKit(storeName: string, env: Record<string, string | undefined>) {
  let app: TestApp;
  let users: RoleUsers;
  let store: Store;
  const tally = new Tally();
  let seq = 0;
  /** Words only hidden records (and protected content) carry. */
  const secrets: string[] = [];
  const secret = (what: string) => {
    const word = `zq${what.replace(/[^a-z]/g, '')}${++seq}leak`;
    secrets.push(word);
    return word;
  };

  const fx = {
    category: 0,
    tag: 0,
    eventCategory: 0,
    posts: {} as Record<string, { id: number; word: string; link: string; slug: string }>,
    pages: {} as Record<string, { id: number; word: string; link: string; slug: string }>,
    events: {} as Record<string, { id: number; word: string; slug: string }>,
    publishedPost: 0,
    publishedPage: 0,
    protectedPost: { id: 0, word: '' },
    protectedEvent: { id: 0, word: '' },
    publishedEvent: 0,
    draftVenue: { id: 0, word: '' },
    privateOrganizer: { id: 0, word: '' },
    draftOnlyAuthor: 0,
    /** A published page under a draft page, and a published post whose featured image belongs to a draft. */
    childPage: 0,
    featuredPost: 0,
    draftMedia: 0,
    privateComment: 0,
    eventLinks: [] as string[],
  };

  async function made(
    who: 'administrator' | 'editor' | 'author',
    method: string,
    path: string,
    body?: Record<string, unknown>,
    raw?: { raw: Uint8Array; headers: Record<string, string>; contentType: string },
  ): Promise<any> {
    const res = await users.as(who, method, path, raw ?? { body });
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  async function cmsRecord(base: 'posts' | 'pages', status: (typeof HIDDEN_STATUSES)[number]) {
    const word = secret(`${base}${status}`);
    const created = await made('editor', 'POST', `/cms/v2/${base}`, {
      title: `Hidden ${word}`,
      content: `Body of ${word}`,
      excerpt: `Excerpt ${word}`,
      // The slug is not secret: the reference builds a child page's permalink from its ancestors' slugs, whatever their status.
      slug: `${base}-${status}-hidden`,
      status: status === 'trash' ? 'publish' : status,
      ...(status === 'future' ? { date: '2031-01-01T10:00:00' } : {}),
      ...(base === 'posts' ? { categories: [fx.category], tags: [fx.tag] } : {}),
    });
    // A revision, so that the history routes have something to refuse.
    await made('editor', 'POST', `/cms/v2/${base}/${created.id}`, { content: `Changed body of ${word}` });
    if (status === 'trash') await made('editor', 'DELETE', `/cms/v2/${base}/${created.id}`);
    const link = (await app.admin('GET', `/cms/v2/${base}/${created.id}?context=edit`)).body.link;
    return { id: created.id as number, word, link: link as string, slug: `${base}-${status}-hidden` };
  }

  beforeAll(async () => {
    app = await startTestApp({ ...env, SITE_TIMEZONE: 'UTC' });
    users = await createRoleUsers(app, 'rd');
    store = await openAppStore(app);

    fx.category = (await made('administrator', 'POST', '/cms/v2/categories', { name: 'Counted' })).id;
    fx.tag = (await made('administrator', 'POST', '/cms/v2/tags', { name: 'Counted tag' })).id;
    fx.eventCategory = (await made('administrator', 'POST', '/vendor/events/v1/categories', { name: 'Counted events' })).id;

    for (const base of ['posts', 'pages'] as const) for (const status of HIDDEN_STATUSES) fx[base][status] = await cmsRecord(base, status);
    fx.publishedPost = (
      await made('editor', 'POST', '/cms/v2/posts', { title: 'Open post', content: 'Open body', status: 'publish', categories: [fx.category], tags: [fx.tag] })
    ).id;
    fx.publishedPage = (await made('editor', 'POST', '/cms/v2/pages', { title: 'Open page', content: 'Open page body', status: 'publish' })).id;
    const pw = secret('protected');
    fx.protectedPost = {
      id: (
        await made('editor', 'POST', '/cms/v2/posts', {
          title: 'Locked post',
          content: `Locked ${pw}`,
          excerpt: `Locked excerpt ${pw}`,
          status: 'publish',
          password: 'sesame',
          categories: [fx.category],
        })
      ).id,
      word: pw,
    };

    // Comments: one on a private post (hidden with it), one on the published post.
    fx.privateComment = (
      await made('administrator', 'POST', '/cms/v2/comments', { post: fx.posts.private.id, content: `A remark on ${secret('comment')}` })
    ).id;
    await made('administrator', 'POST', '/cms/v2/comments', { post: fx.publishedPost, content: 'An open remark' });
    await made('administrator', 'POST', '/cms/v2/comments', {
      post: fx.protectedPost.id,
      content: `A remark behind the password ${secret('protectedcomment')}`,
    });

    // An attachment of a draft: readable only with its parent.
    const media = secret('media');
    const { default: sharp } = await import('sharp');
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .toBuffer();
    fx.draftMedia = (
      await made('editor', 'POST', `/cms/v2/media?post=${fx.posts.draft.id}&title=${media}&caption=${media}`, undefined, {
        raw: jpeg,
        contentType: 'image/jpeg',
        headers: { 'Content-Disposition': `attachment; filename="${media}.jpg"` },
      })
    ).id;
    fx.featuredPost = (
      await made('editor', 'POST', '/cms/v2/posts', {
        title: 'Open post with a picture',
        content: 'Pictured',
        status: 'publish',
        featured_media: fx.draftMedia,
      })
    ).id;
    fx.childPage = (
      await made('editor', 'POST', '/cms/v2/pages', { title: 'Open child page', content: 'Child', status: 'publish', parent: fx.pages.draft.id })
    ).id;

    // An author whose only post is a draft: not a public author.
    fx.draftOnlyAuthor = users.ids.author;
    await made('author', 'POST', '/cms/v2/posts', { title: `Draft by the author ${secret('authordraft')}` });

    // Calendar: hidden venue and organizer linked to a published event, hidden events of each status.
    fx.draftVenue = { word: secret('venue'), id: 0 };
    fx.draftVenue.id = (
      await made('editor', 'POST', '/vendor/events/v1/venues', {
        venue: `Venue ${fx.draftVenue.word}`,
        address: `${fx.draftVenue.word} street`,
        status: 'draft',
      })
    ).id;
    fx.privateOrganizer = { word: secret('organizer'), id: 0 };
    fx.privateOrganizer.id = (
      await made('editor', 'POST', '/vendor/events/v1/organizers', {
        organizer: `Organizer ${fx.privateOrganizer.word}`,
        email: `${fx.privateOrganizer.word}@example.com`,
        status: 'private',
      })
    ).id;
    const event = (title: string, status: string, extra: Record<string, unknown> = {}) =>
      made('editor', 'POST', '/vendor/events/v1/events', {
        title,
        description: `About ${title}`,
        start_date: `${EVENT_DAY} 10:00:00`,
        end_date: `${EVENT_DAY} 12:00:00`,
        status,
        categories: [fx.eventCategory],
        ...extra,
      });
    fx.publishedEvent = (await event('Open event', 'publish', { venue: fx.draftVenue.id, organizer: [fx.privateOrganizer.id] })).id;
    for (const status of HIDDEN_STATUSES) {
      const word = secret(`event${status}`);
      const e = await event(`Hidden ${word}`, status === 'trash' ? 'publish' : status, {
        slug: `${word}-slug`,
        ...(status === 'future' ? { date: '2031-01-01 10:00:00' } : {}),
      });
      if (status === 'trash') await made('editor', 'DELETE', `/vendor/events/v1/events/${e.id}`);
      fx.events[status] = { id: e.id, word, slug: `${word}-slug` };
      fx.eventLinks.push((await app.admin('GET', `/vendor/events/v1/events/${e.id}`)).body.url ?? `http://example.test/?p=${e.id}`);
    }
    const epw = secret('protectedevent');
    const pe = await event('Locked event', 'publish', { description: `Locked ${epw}`, excerpt: `Locked ${epw}` });
    // The calendar routes take no password on write: the record gets one in the store.
    await store.collection('posts').updateOne({ id: pe.id }, { $set: { password: 'sesame' } });
    fx.protectedEvent = { id: pe.id, word: epw };
  }, 300_000);
  afterAll(async () => {
    tally.print(`authorization matrix, read side (${storeName})`);
    await store?.close();
    await app?.close();
  });

  const wrong: string[] = [];
  const leaks = (text: string) => secrets.filter((w) => text.includes(w));
  /** A read by a guest or subscriber: the answer's status, and no hidden word in it (headers included). */
  async function read(
    who: Reader,
    path: string,
    area: string,
    expectStatus?: number | number[],
    expectCode?: string,
    allow: string[] = [],
  ): Promise<ApiResponse> {
    const res = await users.as(who, 'GET', path);
    const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
    // A word the request itself names may come back in echoed URLs (rest_url, Link): that is no leak.
    const found = leaks(res.text + headers).filter((w) => !allow.includes(w) && !path.includes(w));
    if (found.length) wrong.push(`${who} GET ${path}: leaks ${found.join(', ')}`);
    const statuses = expectStatus === undefined ? [] : Array.isArray(expectStatus) ? expectStatus : [expectStatus];
    if (statuses.length && !statuses.includes(res.status))
      wrong.push(`${who} GET ${path}: expected ${statuses.join('/')} got ${res.status} ${res.body?.code ?? ''}`);
    else if (expectCode && res.body?.code !== expectCode) wrong.push(`${who} GET ${path}: expected ${expectCode} got ${res.body?.code}`);
    tally.add(area, false);
    return res;
  }
  const refusal = (who: Reader) => (who === 'guest' ? 401 : 403);
  const total = (res: ApiResponse, header = 'x-wp-total') => Number(res.headers.get(header));
  const finish = () => {
    const found = wrong.splice(0);
    expect(found).toEqual([]);
  };

  return {
    get app() {
      return app;
    },
    get users() {
      return users;
    },
    get store() {
      return store;
    },
    fx,
    secrets,
    wrong,
    read,
    refusal,
    total,
    finish,
    tally,
  };
}
