/**
 * Import fixtures: EA event objects as the remote import service sends them (the reference's
 * Import_Record factory and BatchDataMaker), batch bodies, and direct access to a test app's store to
 * make import records in a given state and read back what a batch stored.
 */
import { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { ImportRecords, RECORD_META, type ImportRecordDoc } from '../../services/aggregator/storage/records';
import type { TestApp } from './app';

let seq = 0;

/** One EA event with a venue and two organizers, each with a global id; `n` makes them unique. */
export function eaEvent(n = ++seq, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const day = `2031-0${1 + (n % 9)}-${String(1 + (n % 28)).padStart(2, '0')}`;
  return {
    title: `Imported event ${n}`,
    description: `Description of imported event ${n}`,
    origin: 'ical',
    source_name: 'Some calendar',
    uid: `uid-${n}@example.com`,
    start_date: day,
    end_date: day,
    start_hour: '10',
    start_minute: '00',
    start_meridian: 'am',
    end_hour: '12',
    end_minute: '30',
    end_meridian: 'pm',
    url: `https://example.com/events/${n}`,
    timezone: 'UTC',
    start_date_utc: `${day} 10:00:00`,
    end_date_utc: `${day} 12:30:00`,
    global_id: `ea.example.com?type=event&id=${n}`,
    categories: ['Music', `Series ${n % 3}`],
    tags: ['imported'],
    organizer: [
      {
        uid: `org-a-${n % 4}`,
        organizer: `Organizer A${n % 4}`,
        phone: '555-0100',
        website: 'https://a.example.com',
        email: 'a@example.com',
        global_id: `ea.example.com?type=organizer&id=a${n % 4}`,
      },
      {
        uid: 'org-b',
        organizer: 'Organizer B',
        phone: '555-0200',
        website: 'https://b.example.com',
        email: 'b@example.com',
        global_id: 'ea.example.com?type=organizer&id=b',
      },
    ],
    venue: {
      uid: `venue-${n % 5}`,
      venue: `Venue ${n % 5}`,
      address: `${n % 5} Main Street`,
      city: 'Springfield',
      stateprovince: 'IL',
      country: 'United States',
      zip: '62701',
      phone: '555-0300',
      global_id: `ea.example.com?type=venue&id=${n % 5}`,
    },
    ...overrides,
  };
}

/** A batch body (the reference's make_batch_data defaults, then the overrides). */
export function batchBody(events: unknown[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    batch_hash: '2389',
    events,
    status: { data: { total: 89, done: 20 }, batch: { per_batch: events.length, total: 9, done: 2 } },
    percentage_complete: 18,
    interval: 10,
    ...overrides,
  };
}

/** A second connection to a test app's embedded store. */
export class AppStore {
  readonly posts: PostsRepository;
  readonly records: ImportRecords;

  private constructor(readonly store: Store) {
    this.posts = new PostsRepository(store);
    this.records = new ImportRecords(this.posts, siteFrom({ SITE_URL: 'http://example.test', SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }));
  }

  static async open(app: TestApp): Promise<AppStore> {
    return new AppStore(await openStore({ dataDir: app.config.DATA_DIR }));
  }

  /** A record in `status` whose stored next hash is `hash` (none when null). */
  async record(importId: string, hash: string | null, status = 'vendor-ea-pending', origin = 'ical'): Promise<ImportRecordDoc> {
    const doc = await this.records.create({ importId, origin, ...(hash ? { batchHash: hash } : {}) });
    const update: Record<string, unknown> = { status };
    if (hash === null) {
      await this.store.collection('posts').updateOne({ id: doc.id }, { $set: update, $unset: { [`meta.${RECORD_META.nextBatchHash}`]: true } });
    } else await this.store.collection('posts').updateOne({ id: doc.id }, { $set: update });
    return (await this.posts.byId(doc.id)) as ImportRecordDoc;
  }

  async reload(record: { id: number }): Promise<ImportRecordDoc> {
    return (await this.posts.byId(record.id)) as ImportRecordDoc;
  }

  ofType(type: string): Promise<PostDoc[]> {
    return this.posts.find({ type }, { sort: [['id', 1]] });
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
