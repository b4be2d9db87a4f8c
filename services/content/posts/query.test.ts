import { makeAuthUser } from '#libs/auth/user';
import { COLLECTIONS } from '#libs/data/collections';
import { Args } from '#libs/rest/args';
import { KINDS } from '#libs/routes/cms/post-args';
import { SqliteStore } from '#libs/store/sqlite';
import { TermsRepository } from '#libs/terms/repository';
import { parseSearch, planList, relevanceRank } from './query';

const DEFAULTS = {
  context: 'view',
  page: 1,
  per_page: 10,
  order: 'desc',
  orderby: 'date',
  status: ['publish'],
  ignore_sticky: true,
  author: [],
  author_exclude: [],
  include: [],
  exclude: [],
  search_columns: [],
};

describe('list plans', () => {
  let store: SqliteStore;
  let terms: TermsRepository;
  beforeAll(async () => {
    store = new SqliteStore({ dataDir: ':memory:' });
    await store.ensure(COLLECTIONS);
    terms = new TermsRepository(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it('serves every list filter from an index of the posts table (no full scan)', async () => {
    const contributor = makeAuthUser({ id: 7, login: 'c', roles: ['contributor'] });
    const cases: Array<[string, Record<string, unknown>, typeof contributor | null]> = [
      ['default', {}, null],
      ['author', { author: [1, 2] }, null],
      ['author_exclude', { author_exclude: [1] }, null],
      ['include', { include: [1, 2, 3] }, null],
      ['slug', { slug: ['a', 'b'] }, null],
      ['after/before', { after: '2020-01-01T00:00:00', before: '2021-01-01T00:00:00' }, null],
      ['modified_after', { modified_after: '2020-01-01T00:00:00Z' }, null],
      ['categories', { categories: [1, 2] }, null],
      ['categories AND', { categories: { terms: [1, 2], operator: 'AND' } }, null],
      ['tags_exclude', { tags_exclude: [3] }, null],
      ['sticky', { sticky: true }, null],
      ['format', { format: ['aside'] }, null],
      ['search', { search: 'apple pie' }, null],
      ['statuses', { status: ['publish', 'draft', 'pending'] }, makeAuthUser({ id: 1, login: 'a', roles: ['administrator'] })],
      ['own drafts', { status: ['draft', 'pending'] }, contributor],
      ['orderby title', { orderby: 'title', order: 'asc' }, null],
    ];
    for (const [name, params, user] of cases) {
      const plan = await planList({ ...DEFAULTS, ...params }, KINDS.post, user, terms, 'UTC', new Args({ ...DEFAULTS, ...params }));
      const lines = store.explain('posts', plan.filter, { sort: plan.sort, limit: 10 });
      expect([name, lines.filter((l) => /^SCAN t\b/.test(l))]).toEqual([name, []]);
    }
    const pages = await planList({ ...DEFAULTS, parent: [4], menu_order: 2 }, KINDS.page, null, terms, 'UTC', new Args({}));
    expect(store.explain('posts', pages.filter, { sort: pages.sort }).some((l) => /^SCAN t\b/.test(l))).toBe(false);
  });

  it('reads search text as the reference does', () => {
    expect(parseSearch('apple "pie crust" -free a the', [], false).terms).toEqual(['apple', 'pie crust', '-free']);
    expect(parseSearch('the a', [], false).terms).toEqual(['the a']);
    expect(parseSearch('Exact text', ['post_title'], true)).toMatchObject({ terms: ['Exact text'], columns: ['title'], exact: true });
    const s = parseSearch('apple pie', [], false);
    expect(relevanceRank({ title: 'Apple pie', excerpt: '', content: '' }, s)).toBe(1);
    expect(relevanceRank({ title: 'Pie with apple', excerpt: '', content: '' }, s)).toBe(2);
    expect(relevanceRank({ title: 'Apple', excerpt: '', content: '' }, s)).toBe(3);
    expect(relevanceRank({ title: 'x', excerpt: 'apple pie', content: '' }, s)).toBe(4);
    expect(relevanceRank({ title: 'x', excerpt: '', content: 'apple pie' }, s)).toBe(5);
  });
});
