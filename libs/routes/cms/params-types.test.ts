/**
 * The parameter types the cms/v2 endpoints derive from their declarations (libs/rest/params.ts),
 * checked by the compiler (`tsc --noEmit` runs in `npm test`): a declaration that loses its literal
 * shape fails the type-check, not a test run.
 */
import { shared, type InputOf, type Shared } from '../../rest/params';
import { COMMENT_ENDPOINTS } from './comments';
import { DISCOVERY_ENDPOINTS } from './discovery';
import { MEDIA_ENDPOINTS } from './media';
import type { WRITE_STATUSES } from './post-args';
import { POST_ENDPOINTS } from './posts';
import { SEARCH_ENDPOINT } from './search';
import { termEndpoints, type TERM_ORDERBY, type TermEndpoints } from './terms';
import { APP_PASSWORD_ENDPOINTS, USER_ENDPOINTS } from './users';
import { taxonomy } from '../../terms/taxonomies';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

type PostList = InputOf<typeof POST_ENDPOINTS.post.list>;
type PageList = InputOf<typeof POST_ENDPOINTS.page.list>;
type PostWrite = InputOf<typeof POST_ENDPOINTS.post.update>;
type PageWrite = InputOf<typeof POST_ENDPOINTS.page.create>;
type FamilyList = InputOf<Shared<(typeof POST_ENDPOINTS)['post' | 'page']['list']>>;
type FamilyGet = InputOf<Shared<(typeof POST_ENDPOINTS)['post' | 'page']['get']>>;
type Revisions = InputOf<typeof POST_ENDPOINTS.page.revisions.list>;
type MediaCreate = InputOf<typeof MEDIA_ENDPOINTS.create>;
type MediaList = InputOf<typeof MEDIA_ENDPOINTS.list>;
type TermList = InputOf<Shared<TermEndpoints['list']>>;
type TermCreate = InputOf<Shared<TermEndpoints['create']>>;
type TermUpdate = InputOf<Shared<TermEndpoints['update']>>;
type UserCreate = InputOf<typeof USER_ENDPOINTS.create>;
type UserUpdate = InputOf<typeof USER_ENDPOINTS.update>;
type UserDelete = InputOf<typeof USER_ENDPOINTS.me.delete>;
type AppCreate = InputOf<typeof APP_PASSWORD_ENDPOINTS.create>;
type CommentList = InputOf<typeof COMMENT_ENDPOINTS.list>;
type CommentCreate = InputOf<typeof COMMENT_ENDPOINTS.create>;
type CommentUpdate = InputOf<typeof COMMENT_ENDPOINTS.update>;
type Search = InputOf<typeof SEARCH_ENDPOINT>;
type TypeGet = InputOf<typeof DISCOVERY_ENDPOINTS.types.get>;

describe('cms/v2 parameter types derived from declarations', () => {
  it('types posts and pages, each with its own arguments, and the family through what both have', () => {
    is<Equal<PostList['page'], number>>();
    is<Equal<PostList['order'], 'asc' | 'desc'>>();
    is<Equal<PostList['ignore_sticky'], boolean>>();
    is<Equal<PostList['tax_relation'], 'AND' | 'OR' | null | undefined>>();
    is<Equal<PostList['search_columns'], Array<'post_title' | 'post_content' | 'post_excerpt'>>>();
    is<Equal<PageList['menu_order'], number | null | undefined>>();
    is<Equal<PageList['orderby'], PostList['orderby'] | 'menu_order'>>();
    is<Equal<PostWrite['id'], number>>();
    is<Equal<PostWrite['status'], (typeof WRITE_STATUSES)[number] | null | undefined>>();
    is<Equal<PostWrite['comment_status'], 'open' | 'closed' | null | undefined>>();
    is<Equal<PostWrite['sticky'], boolean | null | undefined>>();
    is<Equal<PostWrite['slug'], string | null | undefined>>();
    is<Equal<PostWrite['title'], string | Record<string, unknown> | null | undefined>>();
    is<Equal<PostWrite['date'], string | null | undefined>>();
    is<Equal<PageWrite['parent'], number | null | undefined>>();
    // The family sees what both types declare: not a post's sticky, nor a page's menu_order.
    is<Equal<'sticky' extends keyof FamilyList ? true : false, false>>();
    is<Equal<'menu_order' extends keyof FamilyList ? true : false, false>>();
    is<Equal<FamilyList['orderby'], PageList['orderby']>>();
    is<Equal<FamilyGet['id'], number>>();
    is<Equal<FamilyGet['excerpt_length'], number | null | undefined>>();
    is<Equal<Revisions['parent'], number>>();
    is<Equal<Revisions['per_page'], number | null | undefined>>();
    expect(POST_ENDPOINTS.page.revisions.get.captures).toEqual(['parent', 'id']);
    expect(shared(POST_ENDPOINTS.post.list)).toBe(POST_ENDPOINTS.post.list);
  });

  it('types media, terms, users and application passwords', () => {
    is<Equal<MediaCreate['generate_sub_sizes'], boolean>>();
    is<Equal<MediaCreate['alt_text'], string | null | undefined>>();
    is<Equal<MediaCreate['status'], 'publish' | 'future' | 'draft' | 'pending' | 'private' | null | undefined>>();
    is<Equal<MediaList['status'], Array<'inherit' | 'private' | 'trash'>>>();
    is<Equal<'menu_order' extends keyof MediaList ? true : false, false>>();
    is<Equal<TermList['hide_empty'], boolean>>();
    is<Equal<TermList['orderby'], (typeof TERM_ORDERBY)[number]>>();
    is<Equal<'parent' extends keyof TermList ? true : false, false>>();
    is<Equal<TermCreate['name'], string>>();
    is<Equal<TermUpdate['name'], string | null | undefined>>();
    is<Equal<UserCreate['username'], string>>();
    is<Equal<UserCreate['email'], string>>();
    is<Equal<UserUpdate['username'], string | null | undefined>>();
    is<Equal<UserUpdate['locale'], '' | 'en_US' | null | undefined>>();
    is<Equal<UserDelete['reassign'], number>>();
    is<Equal<UserDelete['force'], boolean>>();
    is<Equal<AppCreate['user_id'], string>>();
    is<Equal<AppCreate['name'], string>>();
    expect(termEndpoints(taxonomy('category')).get.captures).toEqual(['id']);
    expect(APP_PASSWORD_ENDPOINTS.get.captures).toEqual(['user_id', 'uuid']);
  });

  it('types comments, search and discovery', () => {
    is<Equal<CommentList['post'], number[]>>();
    is<Equal<CommentList['status'], string>>();
    is<Equal<CommentList['author'], number[] | null | undefined>>();
    is<Equal<CommentCreate['post'], number>>();
    is<Equal<CommentUpdate['post'], number | null | undefined>>();
    is<Equal<CommentCreate['author_name'], string | null | undefined>>();
    is<Equal<Search['type'], 'post' | 'term' | 'post-format'>>();
    is<Equal<Search['subtype'], string[]>>();
    is<Equal<TypeGet['type'], string>>();
    expect(DISCOVERY_ENDPOINTS.taxonomies.get.captures).toEqual(['taxonomy']);
  });
});
