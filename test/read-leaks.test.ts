/**
 * The read side of the authorization matrix: records a guest or a subscriber may not read (drafts,
 * pending, scheduled, private, trashed posts, pages, events, venues and organizers) never show through
 * any read channel: lists (default, `status=`, `search=`, `include=`, `slug=`, `_fields`, `_embed`),
 * the search route, single reads, revisions, autosaves, comments, media, oEmbed, the calendar views'
 * HTML, paging totals and term counts. Every hidden record carries a unique word in its title, content,
 * excerpt and slug; no answer to a guest or a subscriber may contain one. Password-protected records
 * are listed with their content and excerpt blanked, and shown with the right `?password=`.
 *
 * Then every role, from guest to administrator, against calendar records of every owner in every
 * state (test/support/visibility.ts): each vendor/events/v1 and ec/v1 list, its embedded venues and
 * organizers, the iCalendar exports and the calendar abilities show only records the caller's own
 * single read allows, all such records in the statuses asked for, and totals and pages that count
 * exactly what they show.
 *
 * Runs on the embedded store and on MongoDB.
 */
import { startTestApp, type ApiResponse, type TestApp } from './support/app';
import { openAppStore, Tally, WHO } from './support/authz';
import { createRoleUsers, type RoleUsers, type Who } from './support/roles';
import {
  createVisibilityFixtures,
  ecPage,
  icalIds,
  KINDS,
  ReadOracle,
  statusOf,
  v1Page,
  walk,
  WINDOW,
  WORD,
  YEAR,
  filterAsync,
  type Fixture,
  type Kind,
  type Listing,
  type PageRead,
  type VisibilityFixtures,
} from './support/visibility';
import type { Store } from '../libs/store/types';

type Reader = 'guest' | 'subscriber';
const READERS: Reader[] = ['guest', 'subscriber'];
const HIDDEN_STATUSES = ['draft', 'pending', 'future', 'private', 'trash'] as const;
const EVENT_DAY = '2027-06-15';

// Each test walks every role through hundreds of requests; on a loaded 2-core machine the MongoDB-wire
// test server makes that minutes, not seconds. The bound is for a hang, not a speed check.
jest.setTimeout(300_000);
describe.each([
  ['SQLite', {}],
  ['MongoDB', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `authz_reads_${process.pid}_${Date.now()}` }],
] as const)('authorization matrix, read side (%s)', (storeName, env) => {
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

  it('posts and pages: lists, filters, search, include, slug, _fields, _embed and totals show only published records', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        const hidden = Object.values(fx[base]);
        const published = total(await app.admin('GET', `/cms/v2/${base}?status=publish&per_page=1`));
        for (const q of [
          '',
          '?per_page=100',
          '?_embed',
          '?_fields=id,title,content,excerpt,slug,link',
          '?status=publish',
          '?context=embed',
          '?orderby=title&order=asc',
          '?_embed=author,replies,wp:term',
        ]) {
          const res = await read(who, `/cms/v2/${base}${q}`, `${base} lists`, 200);
          if (total(res) !== published) wrong.push(`${who} ${base}${q}: X-WP-Total ${total(res)}, published ${published}`);
        }
        await read(who, `/cms/v2/${base}?include=${hidden.map((h) => h.id).join(',')}`, `${base} lists`, 200).then(
          (r) => r.body.length && wrong.push(`${who} ${base} include: ${r.body.length} records`),
        );
        for (const h of hidden) {
          await read(who, `/cms/v2/${base}?search=${h.word}`, `${base} search`, 200).then(
            (r) => total(r) && wrong.push(`${who} ${base} search ${h.word}: total ${total(r)}`),
          );
          await read(who, `/cms/v2/${base}?slug=${h.slug}`, `${base} slug`, 200).then((r) => r.body.length && wrong.push(`${who} ${base} slug ${h.slug}`));
          await read(who, `/cms/v2/${base}?search=${h.word}&orderby=relevance`, `${base} search`, 200);
        }
        for (const status of [...HIDDEN_STATUSES, 'any', 'publish,draft'])
          await read(who, `/cms/v2/${base}?status=${status}`, `${base} status filter`, 400, 'rest_invalid_param');
        await read(who, `/cms/v2/${base}?context=edit`, `${base} lists`, refusal(who), 'rest_forbidden_context');
      }
      // A guest cannot find protected records by words of their content; a signed-in reader may find
      // them (as the reference's search does) but never sees that content.
      const pw = await read(who, `/cms/v2/posts?search=${fx.protectedPost.word}`, 'posts search', 200);
      if (who === 'guest' && total(pw) !== 0) wrong.push(`guest finds the protected post by its content: ${total(pw)}`);
    }
    finish();
  });

  it('single reads, revisions and autosaves of hidden posts and pages are refused', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        for (const [status, h] of Object.entries(fx[base])) {
          for (const q of ['', '?_embed', '?_fields=id,title', '?context=embed'])
            await read(who, `/cms/v2/${base}/${h.id}${q}`, `${base} single (${status})`, refusal(who), 'rest_forbidden');
          // The reference compares a given password before reading rights: these records have none, so any is wrong.
          await read(who, `/cms/v2/${base}/${h.id}?password=sesame`, `${base} single (${status})`, 403, 'rest_post_incorrect_password');
          await read(who, `/cms/v2/${base}/${h.id}/revisions`, `${base} revisions`, refusal(who), 'rest_cannot_read');
          await read(who, `/cms/v2/${base}/${h.id}/autosaves`, `${base} autosaves`, refusal(who), 'rest_cannot_read');
          const rev = (await app.admin('GET', `/cms/v2/${base}/${h.id}/revisions`)).body;
          if (Array.isArray(rev) && rev[0])
            await read(who, `/cms/v2/${base}/${h.id}/revisions/${rev[0].id}`, `${base} revisions`, refusal(who), 'rest_cannot_read');
        }
        const open = base === 'posts' ? fx.publishedPost : fx.publishedPage;
        await read(who, `/cms/v2/${base}/${open}/revisions`, `${base} revisions`, refusal(who), 'rest_cannot_read');
      }
    }
    finish();
  });

  it('password-protected posts: content and excerpt blanked without the password, shown with it', async () => {
    const { id, word } = fx.protectedPost;
    for (const who of READERS) {
      for (const path of [
        `/cms/v2/posts/${id}`,
        `/cms/v2/posts?include=${id}`,
        `/cms/v2/posts/${id}?_fields=content,excerpt`,
        `/cms/v2/posts?include=${id}&_embed`,
      ]) {
        const res = await read(who, path, 'password-protected', 200);
        const item = Array.isArray(res.body) ? res.body[0] : res.body;
        if (item?.content?.rendered !== '' || item?.content?.protected !== true) wrong.push(`${who} ${path}: content ${JSON.stringify(item?.content)}`);
        if (item?.excerpt?.rendered !== '' || item?.excerpt?.protected !== true) wrong.push(`${who} ${path}: excerpt ${JSON.stringify(item?.excerpt)}`);
      }
      const open = await read(who, `/cms/v2/posts/${id}?password=sesame`, 'password-protected', 200, undefined, [word]);
      if (!String(open.body.content?.rendered).includes(word) || open.body.content?.protected !== true)
        wrong.push(`${who}: the right password does not show the content`);
      await read(who, `/cms/v2/posts/${id}?password=wrong`, 'password-protected', 403, 'rest_post_incorrect_password');
      // The content is not reachable by embedding either.
      await read(who, `/cms/v2/search?search=Locked&_embed`, 'password-protected', 200);
    }
    finish();
  });

  it('the search route, comments, media and users show nothing of hidden records', async () => {
    for (const who of READERS) {
      for (const word of secrets) {
        const res = await read(who, `/cms/v2/search?search=${word}`, 'cms/v2 search', 200);
        if (res.body.length && !(who === 'subscriber' && word === fx.protectedPost.word)) wrong.push(`${who} search ${word}: ${res.body.length} results`);
        if (who === 'guest' && total(res) !== 0) wrong.push(`guest search ${word}: X-WP-Total ${total(res)}`);
        await read(who, `/cms/v2/search?search=${word}&subtype=page`, 'cms/v2 search', 200);
      }
      await read(who, '/cms/v2/search?search=Hidden&_embed&per_page=100', 'cms/v2 search', 200);
      await read(who, '/cms/v2/search?search=Hidden&type=term', 'cms/v2 search', 200);
      await read(who, '/cms/v2/comments?per_page=100', 'comments', 200);
      // Only the open remark is there to see, and to count.
      for (const q of ['?per_page=100', '?search=remark', `?post=${fx.publishedPost}`]) {
        const res = await read(who, `/cms/v2/comments${q}`, 'comments', 200);
        if (total(res) !== 1 || res.body.length !== 1) wrong.push(`${who} comments${q}: X-WP-Total ${total(res)}, shown ${res.body.length}`);
      }
      await read(who, `/cms/v2/comments?post=${fx.protectedPost.id}`, 'comments', refusal(who), 'rest_cannot_read_post');
      await read(who, `/cms/v2/comments?post=${fx.posts.private.id}`, 'comments', refusal(who), 'rest_cannot_read_post');
      await read(who, `/cms/v2/posts/${fx.publishedPost}?_embed=replies`, 'comments', 200);
      await read(who, '/cms/v2/media?per_page=100', 'media', 200);
      await read(who, `/cms/v2/media?parent=${fx.posts.draft.id}`, 'media', 200);
      await read(who, '/cms/v2/media?search=zq', 'media', 200);
      await read(who, `/cms/v2/posts/${fx.publishedPost}?_embed=author`, 'users', 200);
      const list = await read(who, '/cms/v2/users?per_page=100', 'users', 200);
      if (list.body.some((u: { id: number }) => u.id === fx.draftOnlyAuthor)) wrong.push(`${who}: an author with only drafts is listed`);
      await read(who, `/cms/v2/users/${fx.draftOnlyAuthor}`, 'users', refusal(who), 'rest_user_cannot_view');
      await read(who, '/cms/v2/users?slug=rd-author', 'users', 200).then(
        (r) => r.body.length && wrong.push(`${who}: an author with only drafts is found by slug`),
      );
      await read(who, '/cms/v2/users?search=rd-author', 'users', 200).then(
        (r) => r.body.length && wrong.push(`${who}: an author with only drafts is found by search`),
      );
      // Embedded records answer as their own reads: a draft parent, a draft's attachment.
      await read(who, `/cms/v2/pages/${fx.childPage}?_embed`, 'embedded', 200);
      await read(who, `/cms/v2/pages?include=${fx.childPage}&_embed=up`, 'embedded', 200);
      await read(who, `/cms/v2/posts/${fx.featuredPost}?_embed`, 'embedded', 200);
      await read(who, `/cms/v2/posts?_embed=wp:featuredmedia&per_page=100`, 'embedded', 200);
      await read(who, `/cms/v2/media/${fx.draftMedia}`, 'media', refusal(who), 'rest_forbidden');
      await read(who, `/cms/v2/comments/${fx.privateComment}`, 'comments', refusal(who));
      await read(who, `/cms/v2/categories?post=${fx.posts.draft.id}`, 'terms of a hidden post', refusal(who), 'rest_forbidden_context');
      await read(who, `/cms/v2/tags?post=${fx.posts.private.id}`, 'terms of a hidden post', refusal(who), 'rest_forbidden_context');
      await read(who, `/cms/v2/posts?categories=${fx.category}&per_page=100`, 'posts lists', 200).then(
        (r) => total(r) !== 2 && wrong.push(`${who}: posts in the category: ${total(r)}`),
      );
    }
    finish();
  });

  it('oEmbed answers only for public records', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        for (const h of Object.values(fx[base])) await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(h.link)}`, 'oEmbed', 404, 'oembed_invalid_url');
        for (const h of Object.values(fx[base]))
          await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${h.id}`)}`, 'oEmbed', 404, 'oembed_invalid_url');
      }
      await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${fx.protectedPost.id}`)}`, 'oEmbed', [200, 404]);
      for (const link of fx.eventLinks) await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(link)}`, 'oEmbed', 404, 'oembed_invalid_url');
      await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${fx.draftMedia}`)}`, 'oEmbed', 404, 'oembed_invalid_url');
    }
    finish();
  });

  it('term counts count published records only', async () => {
    for (const who of [...READERS, 'administrator'] as const) {
      const cat = await users.as(who, 'GET', `/cms/v2/categories/${fx.category}`);
      // The published post and the published protected post.
      if (cat.body.count !== 2) wrong.push(`${who}: category count ${cat.body.count}, expected 2`);
      const tag = await users.as(who, 'GET', `/cms/v2/tags/${fx.tag}`);
      if (tag.body.count !== 1) wrong.push(`${who}: tag count ${tag.body.count}, expected 1`);
      // The published event and the published protected one.
      const ec = await users.as(who, 'GET', `/vendor/events/v1/categories/${fx.eventCategory}`);
      if (ec.body.count !== 2) wrong.push(`${who}: event category count ${ec.body.count}, expected 2`);
      const ec2 = await users.as(who, 'GET', `/cms/v2/vendor_events_cat/${fx.eventCategory}`);
      if (ec2.body.count !== 2) wrong.push(`${who}: cms/v2 event category count ${ec2.body.count}, expected 2`);
      tally.add('term counts', false);
    }
    finish();
  });

  it('vendor/events/v1: archives, search, include, totals and single reads hide what a reader may not see', async () => {
    const window = `start_date=2027-01-01&end_date=2027-12-31`;
    for (const who of READERS) {
      const published = total(await app.admin('GET', `/vendor/events/v1/events?${window}&status=publish`), 'x-tec-total');
      for (const q of [window, `${window}&per_page=50`, `${window}&status=publish`, `${window}&categories=${fx.eventCategory}`, `${window}&_embed`]) {
        const res = await read(who, `/vendor/events/v1/events?${q}`, 'events v1 archive', 200, undefined, []);
        if (total(res, 'x-tec-total') !== published || res.body.total !== published)
          wrong.push(`${who} events?${q}: total ${res.headers.get('x-tec-total')}/${res.body.total}, published ${published}`);
      }
      await read(
        who,
        `/vendor/events/v1/events?include=${Object.values(fx.events)
          .map((e) => e.id)
          .join(',')}`,
        'events v1 archive',
        200,
      ).then((r) => r.body.events?.length && wrong.push(`${who} events include: ${r.body.events.length}`));
      for (const e of Object.values(fx.events)) {
        await read(who, `/vendor/events/v1/events?${window}&search=${e.word}`, 'events v1 archive', 200).then(
          (r) => r.body.total && wrong.push(`${who} events search ${e.word}: ${r.body.total}`),
        );
      }
      for (const status of ['draft', 'publish,draft', 'private', 'any'])
        await read(who, `/vendor/events/v1/events?status=${status}`, 'events v1 archive', 400, 'rest_invalid_param');
      for (const [status, e] of Object.entries(fx.events)) {
        const code = status === 'trash' ? 'event-no-longer-available' : 'event-not-accessible';
        await read(who, `/vendor/events/v1/events/${e.id}`, 'events v1 single', 403, code);
        await read(who, `/vendor/events/v1/events/by-slug/${e.slug}`, 'events v1 single', [400, 403]);
      }
      // A published event does not show its hidden venue and organizer.
      await read(who, `/vendor/events/v1/events/${fx.publishedEvent}`, 'events v1 single', 200);
      await read(who, `/vendor/events/v1/venues/${fx.draftVenue.id}`, 'venues v1', 403, 'venue-not-accessible');
      for (const [status, e] of Object.entries(fx.events)) {
        for (const plural of ['categories', 'tags'])
          await read(
            who,
            `/vendor/events/v1/${plural}?event=${e.id}&hide_empty=false`,
            `terms of an event (${status})`,
            refusal(who),
            'rest_forbidden_context',
          );
        await read(who, `/cms/v2/vendor_events_cat?post=${e.id}`, `terms of an event (${status})`, refusal(who), 'rest_forbidden_context');
      }
      await read(who, `/vendor/events/v1/organizers/${fx.privateOrganizer.id}`, 'organizers v1', 403, 'organizer-not-accessible');
      for (const [kind, word] of [
        ['venues', fx.draftVenue.word],
        ['organizers', fx.privateOrganizer.word],
      ] as const) {
        for (const q of ['', `?search=${word}`, `?event=${fx.publishedEvent}`, '?has_events=true', '?only_with_upcoming=true']) {
          const res = await read(who, `/vendor/events/v1/${kind}${q}`, `${kind} v1`, [200]);
          if (res.body.total) wrong.push(`${who} ${kind}${q}: total ${res.body.total}`);
        }
        await read(who, `/vendor/events/v1/${kind}?status=draft`, `${kind} v1`, 400, 'rest_invalid_param');
      }
      // Password-protected: the single read asks for the password, the archive blanks the fields.
      await read(who, `/vendor/events/v1/events/${fx.protectedEvent.id}`, 'events v1 password', 403, 'event-password-protected');
      const ok = await read(who, `/vendor/events/v1/events/${fx.protectedEvent.id}?password=sesame`, 'events v1 password', 200, undefined, [
        fx.protectedEvent.word,
      ]);
      if (!String(ok.body.description).includes(fx.protectedEvent.word)) wrong.push(`${who}: the right password does not show the event`);
      await read(who, `/vendor/events/v1/events?include=${fx.protectedEvent.id}`, 'events v1 password', 200).then((r) => {
        const e = r.body.events?.[0];
        if (!e || e.description !== '' || e.excerpt !== '')
          wrong.push(`${who}: protected event in the archive ${JSON.stringify(e && { description: e.description, excerpt: e.excerpt })}`);
      });
      await read(who, `/vendor/events/v1/events?${window}&search=${fx.protectedEvent.word}`, 'events v1 password', 200).then(
        (r) => who === 'guest' && r.body.total && wrong.push(`guest finds the protected event by its content`),
      );
    }
    finish();
  });

  it('ec/v1: lists, totals and single reads hide what a reader may not see', async () => {
    for (const who of READERS) {
      const admin = await app.admin('GET', '/ec/v1/events?status=publish&per_page=100&start_date=2027-01-01&end_date=2027-12-31');
      const published = total(admin);
      for (const q of ['', 'per_page=100', 'status=draft', 'status=publish,draft,pending,private,future', '_embed', '_fields=id,title,content']) {
        const res = await read(who, `/ec/v1/events?${q}&start_date=2027-01-01&end_date=2027-12-31`, 'events ec/v1 list', 200);
        if (total(res) !== published) wrong.push(`${who} ec/v1 events?${q}: X-WP-Total ${total(res)}, published ${published}`);
      }
      for (const e of [...Object.values(fx.events), ...(who === 'guest' ? [fx.protectedEvent] : [])]) {
        await read(who, `/ec/v1/events?search=${e.word}`, 'events ec/v1 list', 200).then(
          (r) => (r.body.length || total(r)) && wrong.push(`${who} ec/v1 search ${e.word}`),
        );
      }
      for (const [status, e] of Object.entries(fx.events))
        await read(who, `/ec/v1/events/${e.id}`, `events ec/v1 single (${status})`, refusal(who), 'rest_forbidden');
      await read(who, `/ec/v1/events/${fx.publishedEvent}`, 'events ec/v1 single', 200);
      await read(who, `/ec/v1/events/${fx.publishedEvent}?_embed`, 'events ec/v1 single', 200);
      await read(who, `/ec/v1/venues/${fx.draftVenue.id}`, 'venues ec/v1', refusal(who), 'rest_forbidden');
      await read(who, `/ec/v1/organizers/${fx.privateOrganizer.id}`, 'organizers ec/v1', refusal(who), 'rest_forbidden');
      for (const kind of ['venues', 'organizers']) {
        for (const q of ['', '?per_page=100', '?status=draft,private', `?event=${fx.publishedEvent}`, '?has_events=true']) {
          const res = await read(who, `/ec/v1/${kind}${q}`, `${kind} ec/v1`, [200, 400]);
          if (res.status === 200 && total(res) !== res.body.length)
            wrong.push(`${who} ec/v1 ${kind}${q}: X-WP-Total ${total(res)} for ${res.body.length} shown`);
        }
      }
      const locked = await read(who, `/ec/v1/events/${fx.protectedEvent.id}`, 'events ec/v1 password', 200);
      if (JSON.stringify(locked.body).includes(fx.protectedEvent.word)) wrong.push(`${who}: ec/v1 protected event shows its content`);
    }
    finish();
  });

  it('the calendar views HTML lists only published events and hides their hidden venues and organizers', async () => {
    for (const who of READERS) {
      const nonce = (await users.as(who, 'GET', '/vendor/events/v1/events')).headers.get('x-view-nonce') ?? '';
      for (const u of [
        '/events/month/2027-06/',
        `/events/list/?tribe-bar-date=2027-06-01`,
        `/events/day/${EVENT_DAY}/`,
        `/events/list/?tribe-bar-date=2027-06-01&tribe-bar-search=Hidden`,
      ]) {
        const res = await read(who, `/vendor/views/v2/html?${new URLSearchParams({ u, tvn1: nonce })}`, 'views HTML', 200);
        if (!u.includes('search') && !res.text.includes('Open event')) wrong.push(`${who} ${u}: the published event is missing (the check would be void)`);
      }
      await read(who, `/vendor/views/v2/html?u=/events/`, 'views HTML', refusal(who));
    }
    finish();
  });

  // Every role reads records of every owner in every state: a list, an export or an ability shows a
  // record only when the caller's own single read allows it, shows every such record in the statuses
  // it asks for, and counts exactly what it shows. Runs after the tests above, which count what a
  // guest sees of the site without these records.
  describe('list versus single read, every role', () => {
    let vis: VisibilityFixtures;
    let oracle: ReadOracle;
    const PER_PAGE = 10;
    const ANY = ['publish', 'future', 'draft', 'pending', 'private'];
    /** Callers with the calendar types' edit capability may ask lists for any status. */
    const editsCalendar = (who: Who) => who !== 'guest' && who !== 'subscriber';

    beforeAll(async () => {
      vis = await createVisibilityFixtures(app, users, store);
      oracle = new ReadOracle(users);
    }, 300_000);

    /**
     * What a list showed, against the rule: each record (and each venue or organizer it embeds) is one
     * the caller's single read allows, and of the fixtures of `kind` it shows exactly the readable ones
     * in `statuses` (without the protected ones when a guest searches).
     */
    async function judge(who: Who, what: string, kind: Kind, ids: number[], embedded: Listing['embedded'], statuses: string[], guestSearch = false) {
      const refused = async (k: Kind, id: number) => !(await oracle.readable(who, k, id));
      for (const id of await filterAsync(ids, (id) => refused(kind, id))) wrong.push(`${who} ${what}: shows ${kind} ${id}, which its single read refuses`);
      for (const e of await filterAsync(embedded, (e) => refused(e.kind, e.id)))
        wrong.push(`${who} ${what}: embeds ${e.kind} ${e.id}, which its single read refuses`);
      const asked = vis.records.filter((r) => r.kind === kind && statuses.includes(statusOf(r.state)) && !(guestSearch && r.state === 'protected'));
      const expected = (await filterAsync(asked, (r) => oracle.readable(who, kind, r.id))).map((r) => r.id);
      const shown = new Set(ids);
      const missing = expected.filter((id) => !shown.has(id));
      if (missing.length) wrong.push(`${who} ${what}: leaves out readable ${kind} ${missing.join(',')}`);
      for (const r of vis.records.filter((f) => shown.has(f.id))) {
        if (!statuses.includes(statusOf(r.state))) wrong.push(`${who} ${what}: shows ${kind} ${r.id}, ${r.state}, not a status it asked for`);
        else if (guestSearch && r.state === 'protected') wrong.push(`${who} ${what}: a guest's search finds protected ${kind} ${r.id}`);
      }
    }

    /** A paged list: walked, judged, its totals checked. A refusal must be the reference's 400. */
    async function list(
      who: Who,
      what: string,
      kind: Kind,
      path: (page: number) => string,
      read: (res: ApiResponse) => PageRead,
      statuses: string[] | 'refused',
      guestSearch = false,
    ) {
      const listed = await walk((page) => users.as(who, 'GET', path(page)), read, PER_PAGE);
      tally.add(`${what.replace(/[?&].*/, '')} (list vs single)`, false);
      if (!('ids' in listed)) {
        if (statuses !== 'refused' || listed.status !== 400 || listed.body?.code !== 'rest_invalid_param')
          wrong.push(`${who} ${what}: ${listed.status} ${listed.body?.code ?? ''}, expected ${statuses === 'refused' ? '400 rest_invalid_param' : 200}`);
        return;
      }
      if (statuses === 'refused') return void wrong.push(`${who} ${what}: listed, where the reference refuses the status`);
      wrong.push(...listed.problems.map((p) => `${who} ${what}: ${p}`));
      await judge(who, what, kind, listed.ids, listed.embedded, statuses, guestSearch);
    }

    /** vendor/events/v1's status rule: exactly `publish` for callers without the edit capability, any status with it. */
    const v1Statuses = (who: Who, q: string): string[] | 'refused' => {
      const asked = /status=([^&]*)/.exec(q)?.[1];
      if (asked === undefined) return editsCalendar(who) ? ANY : ['publish'];
      if (!editsCalendar(who)) return asked === 'publish' ? ['publish'] : 'refused';
      return asked === 'any' ? ANY : asked.split(',');
    };
    const V1_QUERIES = [
      '',
      'status=any',
      'status=publish',
      'status=publish,future,draft,pending,private',
      'status=draft,private',
      'status=future,pending',
      'status=trash',
      `search=${WORD}`,
    ];

    it('vendor/events/v1 lists, with search and embeds: only what single reads allow, all of it, counted right', async () => {
      for (const who of WHO) {
        await Promise.all(
          KINDS.flatMap((kind) => {
            const window = kind === 'events' ? `${WINDOW}&` : '';
            return [...V1_QUERIES, ...(kind === 'events' ? ['_embed'] : [])].map((q) => {
              const path = (page: number) => `/vendor/events/v1/${kind}?${window}per_page=${PER_PAGE}&page=${page}${q ? `&${q}` : ''}`;
              return list(who, `vendor/events/v1/${kind}?${q}`, kind, path, v1Page(kind), v1Statuses(who, q), who === 'guest' && q.startsWith('search'));
            });
          }),
        );
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);

    it('ec/v1 lists, with search and embeds: only what single reads allow, all of it, counted right', async () => {
      for (const who of WHO) {
        await Promise.all(
          KINDS.flatMap((kind) => {
            const window = kind === 'events' ? `${WINDOW}&` : '';
            // ec/v1 narrows what a caller may not ask for to `publish`, silently.
            return ['', 'status=publish,future,draft,pending,private', 'status=draft,private', `search=${WORD}`, '_embed'].map((q) => {
              const asked = /status=([^&]*)/.exec(q)?.[1]?.split(',') ?? ['publish'];
              const path = (page: number) => `/ec/v1/${kind}?${window}per_page=${PER_PAGE}&page=${page}${q ? `&${q}` : ''}`;
              return list(who, `ec/v1/${kind}?${q}`, kind, path, ecPage, editsCalendar(who) ? asked : ['publish'], who === 'guest' && q.startsWith('search'));
            });
          }),
        );
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);

    it('iCalendar exports, the views and the abilities list only events, venues and organizers the caller may read', async () => {
      for (const who of WHO) {
        const exports = [
          ['vendor/events/v1/events/ical', `/vendor/events/v1/events/ical?${WINDOW}`],
          ['venue ical', `/vendor/events/v1/venues/${vis.venue}/ical?${WINDOW}`],
          ['organizer ical', `/vendor/events/v1/organizers/${vis.organizer}/ical?${WINDOW}`],
        ];
        for (const [what, base] of exports) {
          for (const q of ['', 'status=any', 'status=draft,private', 'status=future,pending', 'status=trash', `search=${WORD}`]) {
            const statuses = v1Statuses(who, q);
            const res = await users.as(who, 'GET', `${base}${q ? `&${q}` : ''}`);
            tally.add('iCalendar exports (list vs single)', false);
            if (statuses === 'refused') {
              if (res.status !== 400 || res.body?.code !== 'rest_invalid_param')
                wrong.push(`${who} ${what}?${q}: ${res.status}, expected 400 rest_invalid_param`);
              continue;
            }
            if (res.status !== 200) wrong.push(`${who} ${what}?${q}: ${res.status} ${res.body?.code ?? ''}`);
            else await judge(who, `${what}?${q}`, 'events', icalIds(res.text), [], statuses, who === 'guest' && q.startsWith('search'));
          }
        }
        // The front end's feed is the public archive's, whoever asks.
        const feed = await users.as(who, 'GET', `${app.url}/events/?ical=1&${WINDOW}`);
        tally.add('iCalendar exports (list vs single)', false);
        if (feed.status !== 200) wrong.push(`${who} /events/?ical=1: ${feed.status}`);
        else await judge(who, '/events/?ical=1', 'events', icalIds(feed.text), [], ['publish']);

        // The calendar views show the public archive, with the published venues and organizers of its events, whoever asks:
        // the list view from the fixtures' first day holds every published one (a card names one venue, the hub's first).
        const nonce = (await users.as(who, 'GET', '/vendor/events/v1/events')).headers.get('x-view-nonce') ?? '';
        const u = `/events/list/?tribe-bar-date=${YEAR}-01-01`;
        const view = await users.as(who, 'GET', `/vendor/views/v2/html?${new URLSearchParams({ u, tvn1: nonce })}`);
        tally.add('views HTML (list vs single)', false);
        if (view.status !== 200) wrong.push(`${who} views ${u}: ${view.status}`);
        // A name shows in a card's HTML or in the page's JSON-LD.
        const named = (r: Fixture) => [`<`, `"`].some((end) => view.text.includes(`${WORD} ${r.kind.replace(/s$/, '')} of the ${r.owner} ${r.state}${end}`));
        const shown = vis.records.filter(named);
        for (const r of shown) if (r.state !== 'publish' && r.state !== 'protected') wrong.push(`${who} views: show ${r.kind} ${r.id} (${r.state})`);
        for (const kind of ['events', 'organizers'] as const)
          for (const r of vis.records.filter((f) => f.kind === kind && f.state === 'publish' && !shown.includes(f)))
            wrong.push(`${who} views: leave out the published ${kind} ${r.id}`);
        if (!shown.some((r) => r.kind === 'venues')) wrong.push(`${who} views: the hub event shows no venue`);

        // The abilities run the v1 lists as their caller: the same statuses by default.
        for (const [ability, kind] of [
          ['find-events', 'events'],
          ['list-venues', 'venues'],
          ['list-organizers', 'organizers'],
        ] as const) {
          for (const extra of ['', `&input[search]=${WORD}`]) {
            const window = kind === 'events' ? `&input[start_date]=${YEAR}-01-01&input[end_date]=${YEAR}-12-31` : '';
            const path = (page: number) =>
              `/cms-abilities/v1/abilities/events-calendar/${ability}/run?input[per_page]=${PER_PAGE}&input[page]=${page}${window}${extra}`;
            await list(who, `ability ${ability}${extra}`, kind, path, v1Page(kind, false), v1Statuses(who, ''), who === 'guest' && extra !== '');
          }
        }
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);
  });
});
