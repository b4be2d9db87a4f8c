import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS } from '../data/collections';
import { siteFrom } from '../rest/site';
import { openStore } from '../store';
import type { Store } from '../store/types';
import { parsePermalink, permalinkOf, resolvePermalink } from './permalink';
import { PostsRepository } from './repository';
import type { PostDoc } from './types';

const site = siteFrom({ SITE_URL: 'http://example.test/blog', SITE_NAME: 'T', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });

function post(over: Partial<PostDoc>): PostDoc {
  return {
    id: 0,
    type: 'post',
    status: 'publish',
    slug: '',
    title: '',
    content: '',
    excerpt: '',
    author: 1,
    parent: 0,
    menu_order: 0,
    password: '',
    date: '2024-01-01 00:00:00',
    date_gmt: new Date('2024-01-01T00:00:00Z'),
    modified: '2024-01-01 00:00:00',
    modified_gmt: new Date('2024-01-01T00:00:00Z'),
    comment_status: 'open',
    ping_status: 'open',
    template: '',
    format: '',
    sticky: false,
    featured_media: 0,
    guid: '',
    tax: {},
    terms: [],
    meta: {},
    ...over,
  };
}

describe('permalinkOf', () => {
  it('prints posts, nested pages and calendar records as the reference does', () => {
    expect(permalinkOf(site, post({ id: 3, slug: 'hello' }))).toBe('http://example.test/blog/hello/');
    expect(permalinkOf(site, post({ id: 3, slug: 'hello', status: 'draft' }))).toBe('http://example.test/blog/?p=3');
    expect(permalinkOf(site, post({ id: 3, slug: 'hello', status: 'future' }))).toBe('http://example.test/blog/?p=3');
    expect(permalinkOf(site, post({ id: 4, type: 'page', slug: '' }))).toBe('http://example.test/blog/?page_id=4');
    const parents = new Map([[5, { slug: 'about', parent: 0 }]]);
    expect(permalinkOf(site, post({ id: 6, type: 'page', slug: 'team', parent: 5 }), parents)).toBe('http://example.test/blog/about/team/');
    expect(permalinkOf(site, post({ id: 7, type: 'vendor_events', slug: 'gig' }))).toBe('http://example.test/blog/event/gig/');
    expect(permalinkOf(site, post({ id: 7, type: 'vendor_venue', slug: '' }))).toBe('http://example.test/blog/?post_type=vendor_venue&p=7');
  });
});

describe('parsePermalink', () => {
  it('reads ids, calendar paths and slug paths of this site only', () => {
    expect(parsePermalink(site, 'http://example.test/blog/?p=12')).toEqual({ id: 12 });
    expect(parsePermalink(site, 'https://www.example.test/blog/?page_id=4')).toEqual({ id: 4, type: 'page' });
    expect(parsePermalink(site, 'http://example.test/blog/?post_type=vendor_events&p=9')).toEqual({ id: 9, type: 'vendor_events' });
    expect(parsePermalink(site, 'http://example.test/blog/event/gig/#x')).toEqual({ type: 'vendor_events', slug: 'gig' });
    expect(parsePermalink(site, 'http://example.test/blog/about/team')).toEqual({ path: ['about', 'team'] });
    expect(parsePermalink(site, 'http://example.test/blog/caf%C3%A9/')).toEqual({ path: ['café'] });
  });

  it('refuses other hosts, other paths, other schemes, the home page and garbage', () => {
    for (const url of [
      'http://other.test/blog/hello/',
      'http://example.test:8080/blog/hello/',
      'http://example.test/elsewhere/hello/',
      'ftp://example.test/blog/hello/',
      'http://example.test/blog/',
      'not a url',
      'http://example.test/blog/%E0%A4%A/',
    ]) {
      expect(parsePermalink(site, url)).toBeNull();
    }
  });
});

describe('resolvePermalink', () => {
  let dir: string;
  let store: Store;
  let posts: PostsRepository;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'permalink-'));
    store = await openStore({ dataDir: dir });
    await store.ensure(COLLECTIONS);
    posts = new PostsRepository(store);
    await posts.create(post({ id: 1, slug: 'hello' }));
    await posts.create(post({ id: 2, type: 'page', slug: 'about' }));
    await posts.create(post({ id: 3, type: 'page', slug: 'team', parent: 2 }));
    await posts.create(post({ id: 4, type: 'page', slug: 'team' }));
    await posts.create(post({ id: 5, type: 'vendor_events', slug: 'gig' }));
    await posts.create(post({ id: 6, slug: 'secret', status: 'draft' }));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds what every printed address names', async () => {
    for (const id of [1, 2, 3, 4, 5, 6]) {
      const doc = (await posts.byId(id))!;
      const parents = new Map([[2, { slug: 'about', parent: 0 }]]);
      const found = await resolvePermalink(posts, site, permalinkOf(site, doc, parents));
      expect(found?.id).toBe(id);
    }
  });

  it('tells nested pages apart and refuses wrong types and unknown slugs', async () => {
    expect((await resolvePermalink(posts, site, 'http://example.test/blog/about/team/'))?.id).toBe(3);
    expect((await resolvePermalink(posts, site, 'http://example.test/blog/team/'))?.id).toBe(4);
    expect(await resolvePermalink(posts, site, 'http://example.test/blog/other/team/')).toBeNull();
    expect(await resolvePermalink(posts, site, 'http://example.test/blog/?page_id=1')).toBeNull();
    expect(await resolvePermalink(posts, site, 'http://example.test/blog/venue/gig/')).toBeNull();
    expect(await resolvePermalink(posts, site, 'http://example.test/blog/nothing-here/')).toBeNull();
    expect(await resolvePermalink(posts, site, 'http://example.test/blog/?p=999')).toBeNull();
  });
});
