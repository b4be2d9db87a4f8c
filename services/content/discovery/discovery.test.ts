/**
 * cms/v2 types, statuses and taxonomies over HTTP, against the reference's post types, post statuses
 * and taxonomies controllers: records per context, who sees which, unknown names, the type filter.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

let app: TestApp;
let users: RoleUsers;

beforeAll(async () => {
  app = await startTestApp();
  users = await createRoleUsers(app);
});
afterAll(async () => {
  await app.close();
});

const root = () => `http://example.test/index.php/cms-json`;

describe('types', () => {
  it('lists the core types to a guest, in view context, keyed by name', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/types');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['post', 'page', 'attachment']);
    const post = res.body.post;
    expect(Object.keys(post)).toEqual([
      'description',
      'hierarchical',
      'has_archive',
      'name',
      'slug',
      'icon',
      'taxonomies',
      'rest_base',
      'rest_namespace',
      'template',
      'template_lock',
      '_links',
    ]);
    expect(post).toMatchObject({
      description: '',
      hierarchical: false,
      has_archive: false,
      name: 'Posts',
      slug: 'post',
      icon: 'dashicons-admin-post',
      taxonomies: ['category', 'post_tag'],
      rest_base: 'posts',
      rest_namespace: 'cms/v2',
      template: [],
      template_lock: false,
    });
    expect(post._links).toEqual({
      collection: [{ href: `${root()}/cms/v2/types` }],
      'wp:items': [{ href: `${root()}/cms/v2/posts` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
    expect(res.body.page).toMatchObject({ hierarchical: true, taxonomies: [], rest_base: 'pages' });
    expect(res.body.attachment).toMatchObject({ name: 'Media', rest_base: 'media' });
  });

  it('shows the calendar types only to those who manage options', async () => {
    const admin = await app.admin('GET', '/cms/v2/types');
    expect(Object.keys(admin.body)).toEqual(['post', 'page', 'attachment', 'vendor_events', 'vendor_venue', 'vendor_organizer']);
    expect(admin.body.vendor_events).toMatchObject({
      name: 'Events',
      slug: 'vendor_events',
      rest_base: 'vendor_events',
      rest_namespace: 'cms/v2',
      taxonomies: ['post_tag', 'vendor_events_cat'],
      has_archive: true,
    });
    expect((await users.as('editor', 'GET', '/cms/v2/types')).body.vendor_events).toBeUndefined();
    const guest = await users.as('guest', 'GET', '/cms/v2/types/vendor_events');
    expect(guest.status).toBe(401);
    expect(guest.body.code).toBe('rest_cannot_read_type');
    expect((await users.as('editor', 'GET', '/cms/v2/types/vendor_events')).status).toBe(403);
    expect((await app.admin('GET', '/cms/v2/types/vendor_events')).body.slug).toBe('vendor_events');
  });

  it('gives edit-context records (capabilities, labels, supports, visibility, viewable) to editors of the type', async () => {
    const res = await users.as('author', 'GET', '/cms/v2/types/post?context=edit');
    expect(res.status).toBe(200);
    expect(res.body.capabilities).toMatchObject({
      edit_post: 'edit_post',
      edit_posts: 'edit_posts',
      publish_posts: 'publish_posts',
      create_posts: 'edit_posts',
      read: 'read',
    });
    expect(res.body.labels).toMatchObject({ name: 'Posts', singular_name: 'Post', add_new_item: 'Add New Post', parent_item_colon: null });
    expect(res.body.supports).toMatchObject({ title: true, editor: true, 'post-formats': true });
    expect(res.body.visibility).toEqual({ show_in_nav_menus: true, show_ui: true });
    expect(res.body.viewable).toBe(true);
    // An author cannot edit pages: the page type in edit context is forbidden, and left out of the list.
    const page = await users.as('author', 'GET', '/cms/v2/types/page?context=edit');
    expect(page.status).toBe(403);
    expect(page.body.code).toBe('rest_forbidden_context');
    const list = await users.as('author', 'GET', '/cms/v2/types?context=edit');
    expect(Object.keys(list.body)).toEqual(['post', 'attachment']);
    expect((await app.admin('GET', '/cms/v2/types/attachment?context=edit')).body.capabilities.create_posts).toBe('upload_files');
  });

  it('refuses edit context to those who edit nothing, and embed context trims the record', async () => {
    const guest = await users.as('guest', 'GET', '/cms/v2/types?context=edit');
    expect([guest.status, guest.body.code]).toEqual([401, 'rest_cannot_view']);
    const sub = await users.as('subscriber', 'GET', '/cms/v2/types?context=edit');
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_cannot_view']);
    const embed = await users.as('guest', 'GET', '/cms/v2/types/page?context=embed');
    expect(Object.keys(embed.body)).toEqual(['name', 'slug', 'icon', 'rest_base', 'rest_namespace', 'template', 'template_lock', '_links']);
  });

  it('answers 404 rest_type_invalid for an unknown type, and posts link to their type', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/types/nope');
    expect([res.status, res.body.code]).toEqual([404, 'rest_type_invalid']);
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Typed', status: 'publish' } });
    expect(post.body._links.about).toEqual([{ href: `${root()}/cms/v2/types/post` }]);
  });
});

describe('statuses', () => {
  it('shows guests only the public status', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/statuses');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      publish: {
        name: 'Published',
        public: true,
        queryable: true,
        slug: 'publish',
        date_floating: false,
        _links: { archives: [{ href: `${root()}/cms/v2/posts` }] },
      },
    });
    expect(Object.keys((await users.as('subscriber', 'GET', '/cms/v2/statuses')).body)).toEqual(['publish']);
  });

  it('shows the non-internal statuses and trash to those who edit posts', async () => {
    const res = await users.as('contributor', 'GET', '/cms/v2/statuses');
    expect(Object.keys(res.body)).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash']);
    expect(res.body.draft).toMatchObject({
      name: 'Draft',
      public: false,
      date_floating: true,
      _links: { archives: [{ href: `${root()}/cms/v2/posts?status=draft` }] },
    });
    const edit = await users.as('contributor', 'GET', '/cms/v2/statuses/private?context=edit');
    expect(edit.body).toMatchObject({
      name: 'Private',
      private: true,
      protected: false,
      public: false,
      queryable: false,
      show_in_list: true,
      slug: 'private',
      date_floating: false,
    });
    expect((await users.as('contributor', 'GET', '/cms/v2/statuses/trash?context=edit')).body.show_in_list).toBe(false);
  });

  it('answers 404 for an unknown status and 401/403 for one the caller may not see', async () => {
    expect((await users.as('guest', 'GET', '/cms/v2/statuses/nope')).body.code).toBe('rest_status_invalid');
    expect((await users.as('guest', 'GET', '/cms/v2/statuses/nope')).status).toBe(404);
    const draft = await users.as('guest', 'GET', '/cms/v2/statuses/draft');
    expect([draft.status, draft.body.code]).toEqual([401, 'rest_cannot_read_status']);
    expect((await users.as('subscriber', 'GET', '/cms/v2/statuses/draft')).status).toBe(403);
    // Internal statuses (the importer's record statuses among them) are never shown.
    expect((await app.admin('GET', '/cms/v2/statuses/vendor-ea-success')).status).toBe(403);
    expect((await app.admin('GET', '/cms/v2/statuses/inherit')).status).toBe(403);
    expect((await users.as('guest', 'GET', '/cms/v2/statuses?context=edit')).status).toBe(401);
  });
});

describe('taxonomies', () => {
  it('lists the taxonomies shown in REST, in view context', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/taxonomies');
    expect(Object.keys(res.body)).toEqual(['category', 'post_tag', 'vendor_events_cat']);
    expect(res.body.category).toEqual({
      name: 'Categories',
      slug: 'category',
      description: '',
      types: ['post'],
      hierarchical: true,
      rest_base: 'categories',
      rest_namespace: 'cms/v2',
      _links: {
        collection: [{ href: `${root()}/cms/v2/taxonomies` }],
        'wp:items': [{ href: `${root()}/cms/v2/categories` }],
        curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
      },
    });
    expect(res.body.post_tag).toMatchObject({ rest_base: 'tags', types: ['post', 'vendor_events'], hierarchical: false });
    expect(res.body.vendor_events_cat).toMatchObject({ rest_base: 'vendor_events_cat', types: ['vendor_events'] });
  });

  it('filters by type', async () => {
    expect(Object.keys((await users.as('guest', 'GET', '/cms/v2/taxonomies?type=post')).body)).toEqual(['category', 'post_tag']);
    expect(Object.keys((await users.as('guest', 'GET', '/cms/v2/taxonomies?type=vendor_events')).body)).toEqual(['post_tag', 'vendor_events_cat']);
    const none = await users.as('guest', 'GET', '/cms/v2/taxonomies?type=page');
    expect([none.status, none.text]).toEqual([200, '{}']);
  });

  it('gives edit context to those who may assign the terms', async () => {
    const res = await users.as('contributor', 'GET', '/cms/v2/taxonomies/category?context=edit');
    expect(res.status).toBe(200);
    expect(res.body.capabilities).toEqual({
      manage_terms: 'manage_categories',
      edit_terms: 'edit_categories',
      delete_terms: 'delete_categories',
      assign_terms: 'assign_categories',
    });
    expect(res.body.visibility).toMatchObject({ public: true, show_ui: true, show_in_quick_edit: true });
    expect(res.body.show_cloud).toBe(true);
    expect(res.body.labels).toMatchObject({ name: 'Categories', parent_item: 'Parent Category', popular_items: null });
    // Subscribers assign nothing.
    const sub = await users.as('subscriber', 'GET', '/cms/v2/taxonomies/category?context=edit');
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_forbidden_context']);
    expect((await users.as('subscriber', 'GET', '/cms/v2/taxonomies?context=edit')).body.code).toBe('rest_cannot_view');
    expect(Object.keys((await users.as('contributor', 'GET', '/cms/v2/taxonomies?context=edit')).body)).toEqual(['category', 'post_tag', 'vendor_events_cat']);
  });

  it('answers 404 rest_taxonomy_invalid for an unknown taxonomy', async () => {
    const res = await users.as('guest', 'GET', '/cms/v2/taxonomies/nope');
    expect([res.status, res.body.code]).toEqual([404, 'rest_taxonomy_invalid']);
    // post_format is registered but not shown in REST.
    const format = await users.as('guest', 'GET', '/cms/v2/taxonomies/post_format');
    expect([format.status, format.body.code]).toEqual([401, 'rest_forbidden']);
    expect((await app.admin('GET', '/cms/v2/taxonomies/post_format')).status).toBe(403);
  });
});

describe('schemas and global parameters', () => {
  it('answers OPTIONS with the record schema and Allow: GET', async () => {
    for (const [path, title] of [
      ['/cms/v2/types', 'type'],
      ['/cms/v2/statuses/publish', 'status'],
      ['/cms/v2/taxonomies', 'taxonomy'],
      ['/cms/v2/search', 'search-result'],
      ['/cms/v2/settings', 'settings'],
    ]) {
      const res = await app.request('OPTIONS', path);
      expect(res.status).toBe(200);
      expect(res.body.schema.title).toBe(title);
    }
    expect((await app.request('OPTIONS', '/cms/v2/types')).headers.get('allow')).toBe('GET');
    expect((await app.request('OPTIONS', '/cms/v2/types')).body.schema.properties.template_lock.enum).toEqual(['all', 'insert', 'contentOnly', false]);
  });

  it('applies _fields to a record', async () => {
    const res = await app.request('GET', '/cms/v2/types/post?_fields=slug,rest_base');
    expect(res.body).toEqual({ slug: 'post', rest_base: 'posts' });
  });
});

describe('the index', () => {
  it('lists the discovery routes in the reference order within cms/v2', async () => {
    const routes = Object.keys((await app.request('GET', '/cms/v2')).body.routes);
    const at = (r: string) => routes.indexOf(r);
    expect(at('/cms/v2/types')).toBeGreaterThan(at('/cms/v2/pages/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)'));
    expect(at('/cms/v2/types')).toBeLessThan(at('/cms/v2/types/(?P<type>[\\w-]+)'));
    expect(at('/cms/v2/statuses')).toBeGreaterThan(at('/cms/v2/types/(?P<type>[\\w-]+)'));
    expect(at('/cms/v2/taxonomies')).toBeGreaterThan(at('/cms/v2/statuses/(?P<status>[\\w-]+)'));
    expect(at('/cms/v2/users')).toBeGreaterThan(at('/cms/v2/taxonomies/(?P<taxonomy>[\\w-]+)'));
    expect(at('/cms/v2/search')).toBeGreaterThan(at('/cms/v2/users'));
    expect(at('/cms/v2/settings')).toBeGreaterThan(at('/cms/v2/search'));
  });
});
