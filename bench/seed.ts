/**
 * Loads the benchmark data set of PERFORMANCE.md straight into the embedded store, through the same
 * store port and collection declarations the service uses. Each resource adds its own seeder here.
 */
import { randomUUID } from 'node:crypto';
import { hashAccountPassword, hashAppPassword } from '#libs/auth/passwords';
import { COLLECTIONS } from '#libs/data/collections';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { seedEvents } from './events';
import { seedPosts } from './posts';
import { scaledDataSet, type SeedSizes } from './data-set';

export interface Seeded {
  counts: Record<string, number>;
  /**
   * Ids the endpoint definitions pick from: `events` up to 200 events inside the default window (the
   * first a week ahead, the rest spread to the window's end), `posts` up to 200 posts spread over all,
   * `eventCategories` every category (slug `bench-category-{index}`), `users` the seeded authors.
   */
  ids: Record<string, number[]>;
}

type Seeder = (store: Store, sizes: SeedSizes, out: Seeded) => Promise<void>;

/** The application password of `user1`, an author: the rows a writer without unfiltered_html sends use it. */
export const AUTHOR_LOGIN = 'user1';
export const AUTHOR_APP_PASSWORD = 'authorBENCHauthor1234ABC';

/** Authors for the records: 20 users with author-ish roles (the administrator is created at start-up). */
const seedUsers: Seeder = async (store, _sizes, out) => {
  const users = store.collection('users');
  const hash = await hashAccountPassword('bench-user-password');
  const roles = ['editor', 'author', 'contributor', 'subscriber'];
  const docs = [];
  const credentials = [];
  const first = await store.nextId('users', 20);
  for (let i = 0; i < 20; i++) {
    const id = first + i;
    docs.push({
      id,
      login: `user${i}`,
      email: `user${i}@bench.test`,
      name: `User ${i}`,
      slug: `user${i}`,
      first_name: '',
      last_name: '',
      nickname: `user${i}`,
      description: '',
      url: '',
      locale: 'en_US',
      roles: [roles[i % roles.length]],
      registered: new Date(Date.UTC(2024, 0, 1 + i)),
    });
    // The credential record authentication reads (libs/auth/credentials.ts).
    const appPasswords =
      `user${i}` === AUTHOR_LOGIN
        ? [{ uuid: randomUUID(), app_id: '', name: 'bench', hash: hashAppPassword(AUTHOR_APP_PASSWORD), created: new Date(), last_used: null, last_ip: null }]
        : [];
    credentials.push({ id, login: `user${i}`, email: `user${i}@bench.test`, roles: [roles[i % roles.length]], pass_hash: hash, app_passwords: appPasswords });
  }
  await users.insertMany(docs);
  await store.collection('credentials').insertMany(credentials);
  out.counts.users = docs.length;
  out.ids.users = docs.map((d) => d.id);
};

export const SEEDERS: Seeder[] = [seedUsers, seedPosts, seedEvents];

/** Seeds a fresh store: the data set times a fraction (`scale`), or the given counts of each kind. */
export async function seed(dataDir: string, sizes: number | SeedSizes): Promise<Seeded> {
  const counts = typeof sizes === 'number' ? scaledDataSet(sizes) : sizes;
  const store = await openStore({ dataDir });
  try {
    await store.ensure(COLLECTIONS);
    const out: Seeded = { counts: {}, ids: {} };
    for (const s of SEEDERS) await s(store, counts, out);
    return out;
  } finally {
    await store.close();
  }
}
