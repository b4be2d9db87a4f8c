/**
 * The posts of the benchmark data set (10,000, as PERFORMANCE.md lists) and the cms/v2 post rows:
 * the list of 10, a single post, and a batch of 25 creates.
 */
import { idUrls, pageUrls, spread, type SeedSizes } from './data-set';
import { blockPost } from './kses';
import type { BenchEndpoint } from './endpoints';
import type { Seeded } from './seed';
import { newPostRecord } from '#libs/posts/record';
import type { Store } from '#libs/store/types';

const SITE = { home: 'http://localhost', timezone: 'UTC' };

const CHUNK = 1000;

const WORDS = 'calendar event venue organizer music market festival garden workshop concert theatre river city night morning community'.split(' ');

function sentence(i: number, n: number): string {
  return Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}

/**
 * Published posts (10,000 in the data set) 2.5 hours apart from 2023 (closer when that would pass the
 * present), by the seeded users, in the default category; written a chunk at a time.
 */
export async function seedPosts(store: Store, sizes: SeedSizes, out: Seeded): Promise<void> {
  const total = sizes.posts;
  const categoryId = await store.nextId('terms');
  await store
    .collection('terms')
    .insertOne({ id: categoryId, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', description: '', parent: 0, count: total });
  const authors = out.ids.users?.length ? out.ids.users : [1];
  const first = await store.nextId('posts', total);
  const start = Date.UTC(2023, 0, 1);
  const step = Math.min(2.5 * 3600 * 1000, (Date.now() - 3600 * 1000 - start) / total);
  for (let offset = 0; offset < total; offset += CHUNK) {
    const docs = [];
    for (let i = offset; i < Math.min(total, offset + CHUNK); i++) {
      const id = first + i;
      const at = new Date(start + Math.floor(i * step));
      docs.push(
        newPostRecord(SITE, at, {
          id,
          type: 'post',
          status: 'publish',
          slug: `post-${i}`,
          title: `Post ${i}: ${sentence(i, 4)}`,
          content: `<p>${sentence(i, 40)}</p>\n<p>${sentence(i + 1, 30)}</p>`,
          author: authors[i % authors.length],
          comment_status: 'open',
          ping_status: 'open',
          tax: { category: [categoryId], post_tag: [] },
          terms: [categoryId],
          revision_count: 0,
        }),
      );
    }
    await store.collection('posts').insertMany(docs);
  }
  out.counts.posts = total;
  out.ids.posts = spread(0, total - 1).map((i) => first + i);
}

let batchRun = 0;
let authorRun = 0;
const POST_10KB = blockPost(10 * 1024);

export const POST_ENDPOINTS: BenchEndpoint[] = [
  { name: 'GET cms/v2/posts?per_page=10', target: 1800, request: (c) => ({ url: `${c.rest}/cms/v2/posts?per_page=10` }) },
  // The same list for the administrator: past the guest reply cache, so every request is served from the store;
  // over its first pages.
  {
    name: 'GET cms/v2/posts?per_page=10&page=k (authenticated)',
    target: 1800,
    scaling: true,
    request: (c) => ({ url: pageUrls(`${c.rest}/cms/v2/posts?per_page=10`, c.seeded.counts.posts), auth: true }),
  },
  {
    name: 'GET cms/v2/posts/{id}',
    target: 2500,
    request: (c) => ({ url: `${c.rest}/cms/v2/posts/${c.seeded.ids.posts[Math.floor(c.seeded.ids.posts.length / 2)]}` }),
  },
  {
    name: 'GET cms/v2/posts/{id} (authenticated)',
    target: 2500,
    scaling: true,
    request: (c) => ({ url: idUrls(c, 'posts', (id) => `cms/v2/posts/${id}`), auth: true }),
  },
  {
    // An author's create: no unfiltered_html, so the title and 10 KB of block content go through the HTML filter.
    name: 'POST cms/v2/posts (author; 10 KB of blocks)',
    target: 690,
    request: (c) => ({
      url: `${c.rest}/cms/v2/posts`,
      method: 'POST',
      auth: 'author',
      body: () => ({ title: `Bench author post ${process.pid}-${++authorRun}`, content: POST_10KB, status: 'publish' }),
    }),
  },
  {
    name: 'POST /batch/v1 (25 post creates)',
    // 30× the reference's write rate as for single creates (690/s), in batches of 25.
    target: 28,
    request: (c) => ({
      url: `${c.rest}/batch/v1`,
      method: 'POST',
      auth: true,
      body: () => {
        batchRun++;
        return {
          requests: Array.from({ length: 25 }, (_, i) => ({
            method: 'POST',
            path: '/cms/v2/posts',
            body: { title: `Bench batch ${batchRun}.${i}`, content: 'Created in a batch.', status: 'publish' },
          })),
        };
      },
    }),
  },
];
