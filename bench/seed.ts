/**
 * Loads the benchmark data set of PERFORMANCE.md straight into the embedded store, through the same
 * store port and collection declarations the service uses. Each resource adds its own seeder here.
 */
import { hashAccountPassword } from '../libs/auth/passwords';
import { COLLECTIONS } from '../libs/data/collections';
import { openStore } from '../libs/store';
import type { Store } from '../libs/store/types';
import { seedEvents } from './events';
import { seedPosts } from './posts';

export interface Seeded {
  counts: Record<string, number>;
  /** Ids the endpoint definitions pick from. */
  ids: Record<string, number[]>;
}

type Seeder = (store: Store, scale: number, out: Seeded) => Promise<void>;

/** Authors for the records: 20 users with author-ish roles (the administrator is created at start-up). */
const seedUsers: Seeder = async (store, _scale, out) => {
  const users = store.collection('users');
  const hash = await hashAccountPassword('bench-user-password');
  const roles = ['editor', 'author', 'contributor', 'subscriber'];
  const docs = [];
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
      pass_hash: hash,
      registered: new Date(Date.UTC(2024, 0, 1 + i)),
      app_passwords: [],
    });
  }
  await users.insertMany(docs);
  out.counts.users = docs.length;
  out.ids.users = docs.map((d) => d.id);
};

export const SEEDERS: Seeder[] = [seedUsers, seedPosts, seedEvents];

export async function seed(dataDir: string, scale: number): Promise<Seeded> {
  const store = await openStore({ dataDir });
  try {
    await store.ensure(COLLECTIONS);
    const out: Seeded = { counts: {}, ids: {} };
    for (const s of SEEDERS) await s(store, scale, out);
    return out;
  } finally {
    await store.close();
  }
}
