/** Which imported events left a feed: by UID, and by occurrence only inside the import window. */
import { COLLECTIONS } from '#libs/data/collections';
import { SqliteStore } from '#libs/store/sqlite';
import { leftFeed, retiringFilter, type FeedContents } from './source-run';

const window = { from: new Date('2026-10-25T00:00:00Z'), to: new Date('2027-11-25T00:00:00Z') };
const feed: FeedContents = {
  keys: new Set(['single@x', 'yoga@x/20261202T090000Z']),
  uids: new Set(['single@x', 'yoga@x']),
  broken: new Set(['broken@x']),
};

it('keeps what the feed holds, and events of a series it could not read', () => {
  expect(leftFeed('single@x', '2030-01-01 10:00:00', feed, window)).toBe(false);
  expect(leftFeed('yoga@x/20261202T090000Z', '2026-12-02 09:00:00', feed, window)).toBe(false);
  expect(leftFeed('broken@x/20261209T090000Z', '2026-12-09 09:00:00', feed, window)).toBe(false);
});

it('takes an event whose UID is gone for one that left, wherever it lies', () => {
  expect(leftFeed('gone@x', '2020-01-01 10:00:00', feed, window)).toBe(true);
  expect(leftFeed('gone-series@x/20200101T100000Z', '2020-01-01 10:00:00', feed, window)).toBe(true);
});

it('takes an occurrence the series no longer produces inside the window, and keeps those outside it', () => {
  expect(leftFeed('yoga@x/20261209T090000Z', '2026-12-09 09:00:00', feed, window)).toBe(true);
  expect(leftFeed('yoga@x/20260901T090000Z', '2026-09-01 09:00:00', feed, window)).toBe(false);
  expect(leftFeed('yoga@x/20300101T090000Z', '2030-01-01 09:00:00', feed, window)).toBe(false);
});

describe("a source's events", () => {
  // The posts table of a store at this size: a run looks its events up by an index, not by reading every post.
  it('are found through an index of the posts, with or without drafts kept', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    try {
      await store.ensure(COLLECTIONS);
      for (const policy of ['trash', 'draft'] as const) {
        const plan = store.explain('posts', retiringFilter(7, policy)).join('\n');
        expect(plan).not.toMatch(/^SCAN t\b/m);
        expect(plan).toMatch(/_vendor_aggregator_record/);
      }
    } finally {
      await store.close();
    }
  });
});
