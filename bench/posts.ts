/**
 * The posts of the benchmark data set (10,000, as PERFORMANCE.md lists) and the cms/v2 post rows:
 * the list of 10, a single post, and a batch of 25 creates.
 */
import type { BenchEndpoint } from './endpoints';
import type { Seeded } from './seed';
import { newPostRecord } from '../libs/posts/record';
import type { Store } from '../libs/store/types';

const SITE = { home: 'http://localhost', timezone: 'UTC' };

const POSTS = 10_000;
const CHUNK = 1000;

const WORDS = 'calendar event venue organizer music market festival garden workshop concert theatre river city night morning community'.split(' ');

function sentence(i: number, n: number): string {
  return Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}


/** 10,000 published posts over the last ~3 years, by the seeded users, in the default category. */
export async function seedPosts(store: Store, scale: number, out: Seeded): Promise<void> {
  const total = Math.max(1, Math.round(POSTS * scale));
  const categoryId = await store.nextId('terms');
  await store.collection('terms').insertOne({ id: categoryId, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', description: '', parent: 0, count: total });
  const authors = out.ids.users?.length ? out.ids.users : [1];
  const first = await store.nextId('posts', total);
  const start = Date.UTC(2023, 0, 1);
  const ids: number[] = [];
  for (let offset = 0; offset < total; offset += CHUNK) {
    const docs = [];
    for (let i = offset; i < Math.min(total, offset + CHUNK); i++) {
      const id = first + i;
      const at = new Date(start + i * 2.5 * 3600 * 1000);
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
      ids.push(id);
    }
    await store.collection('posts').insertMany(docs);
  }
  out.counts.posts = total;
  out.ids.posts = ids;
}

let batchRun = 0;

export const POST_ENDPOINTS: BenchEndpoint[] = [
  { name: 'GET cms/v2/posts?per_page=10', target: 1800, request: (c) => ({ url: `${c.rest}/cms/v2/posts?per_page=10` }) },
  // The same list for the administrator: past the guest reply cache, so every request is served from the store.
  { name: 'GET cms/v2/posts?per_page=10 (authenticated)', target: 1800, request: (c) => ({ url: `${c.rest}/cms/v2/posts?per_page=10`, auth: true }) },
  { name: 'GET cms/v2/posts/{id}', target: 2500, request: (c) => ({ url: `${c.rest}/cms/v2/posts/${c.seeded.ids.posts[Math.floor(c.seeded.ids.posts.length / 2)]}` }) },
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
        return { requests: Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `Bench batch ${batchRun}.${i}`, content: 'Created in a batch.', status: 'publish' } })) };
      },
    }),
  },
];
