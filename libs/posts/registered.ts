/**
 * The post types, taxonomies and post statuses the service registers, described as the reference's
 * register_post_type / register_taxonomy / register_post_status objects. The discovery routes
 * (types, taxonomies, statuses) present them and the search route takes its subtypes from them, so
 * what a client can discover and what it can search are one list.
 */
import { can, type Caller } from '../auth/user';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '../calendar/meta';

/** What a registered post type and a registered taxonomy both carry (register_post_type / register_taxonomy's common arguments). */
interface RegisteredObject {
  name: string;
  /** Plural label (`name` in REST) and singular label. */
  label: string;
  singular: string;
  description: string;
  hierarchical: boolean;
  public: boolean;
  publiclyQueryable: boolean;
  restBase: string;
  restNamespace: string;
}

export interface PostTypeObject extends RegisteredObject {
  builtin: boolean;
  hasArchive: boolean | string;
  showUi: boolean;
  showInNavMenus: boolean;
  /** The calendar types are shown in REST only to callers who can manage options, as the calendar registers them. */
  showInRest: (user: Caller) => boolean;
  /** Capability type: singular and plural (`post`/`posts`, `vendor_event`/`vendor_events`). */
  capType: [string, string];
  /** Primitive capability for creating, when it is not the plural edit capability. */
  createCap?: string;
  supports: string[];
  icon: string | null;
}

const always = () => true;
const managers = (user: Caller) => can(user, 'manage_options');

/**
 * A post type with what the ones registered here share unless said otherwise: public, publicly
 * queryable, not hierarchical, not built in, without an archive, shown in the UI, in menus and in REST
 * to everyone under cms/v2, with no description.
 */
const postType = (
  t: Pick<PostTypeObject, 'name' | 'label' | 'singular' | 'restBase' | 'capType' | 'supports' | 'icon'> & Partial<PostTypeObject>,
): PostTypeObject => ({
  description: '',
  hierarchical: false,
  public: true,
  publiclyQueryable: true,
  builtin: false,
  hasArchive: false,
  showUi: true,
  showInNavMenus: true,
  showInRest: always,
  restNamespace: 'cms/v2',
  ...t,
});

/** The calendar's venues and organizers: private types with a title and a description, shown in REST to managers. */
function linkedType(name: string, label: string, singular: string, cap: string): PostTypeObject {
  return postType({
    name,
    label,
    singular,
    public: false,
    showInNavMenus: false,
    showInRest: managers,
    restBase: name,
    capType: [cap, `${cap}s`],
    supports: ['title', 'editor'],
    icon: null,
  });
}

export const POST_TYPES: PostTypeObject[] = [
  postType({
    name: 'post',
    label: 'Posts',
    singular: 'Post',
    builtin: true,
    restBase: 'posts',
    capType: ['post', 'posts'],
    supports: ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats', 'autosave'],
    icon: 'dashicons-admin-post',
  }),
  postType({
    name: 'page',
    label: 'Pages',
    singular: 'Page',
    hierarchical: true,
    publiclyQueryable: false,
    builtin: true,
    restBase: 'pages',
    capType: ['page', 'pages'],
    supports: ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions', 'autosave'],
    icon: 'dashicons-admin-page',
  }),
  postType({
    name: 'attachment',
    label: 'Media',
    singular: 'Media',
    builtin: true,
    showInNavMenus: false,
    restBase: 'media',
    capType: ['post', 'posts'],
    createCap: 'upload_files',
    supports: ['title', 'author', 'comments'],
    icon: 'dashicons-admin-media',
  }),
  postType({
    name: EVENT_TYPE,
    label: 'Events',
    singular: 'Event',
    hasArchive: true,
    showInRest: managers,
    restBase: EVENT_TYPE,
    capType: ['vendor_event', 'vendor_events'],
    // The calendar's supports; 'editor' brings 'autosave' (WP_Post_Type::add_supports).
    supports: ['title', 'editor', 'excerpt', 'author', 'thumbnail', 'custom-fields', 'comments', 'revisions', 'autosave'],
    icon: 'dashicons-calendar',
  }),
  linkedType(VENUE_TYPE, 'Venues', 'Venue', 'vendor_venue'),
  linkedType(ORGANIZER_TYPE, 'Organizers', 'Organizer', 'vendor_organizer'),
];

export const postTypeObject = (name: string): PostTypeObject | undefined => POST_TYPES.find((t) => t.name === name);

/** The reference's get_post_type_capabilities for a map_meta_cap type: meta caps, primitives, create_posts. */
export function postTypeCaps(t: PostTypeObject): Record<string, string> {
  const [one, many] = t.capType;
  return {
    edit_post: `edit_${one}`,
    read_post: `read_${one}`,
    delete_post: `delete_${one}`,
    edit_posts: `edit_${many}`,
    edit_others_posts: `edit_others_${many}`,
    delete_posts: `delete_${many}`,
    publish_posts: `publish_${many}`,
    read_private_posts: `read_private_${many}`,
    read: 'read',
    delete_private_posts: `delete_private_${many}`,
    delete_published_posts: `delete_published_${many}`,
    delete_others_posts: `delete_others_${many}`,
    edit_private_posts: `edit_private_${many}`,
    edit_published_posts: `edit_published_${many}`,
    create_posts: t.createCap ?? `edit_${many}`,
  };
}

/** is_post_type_viewable: publicly queryable, or a built-in public type. */
export const isViewable = (t: PostTypeObject): boolean => t.publiclyQueryable || (t.builtin && t.public);

/** Post types shown in REST to this caller, in registration order. */
export const restPostTypes = (user: Caller): PostTypeObject[] => POST_TYPES.filter((t) => t.showInRest(user));

/** Whether the caller can edit records of any type shown to them in REST (the discovery routes' edit-context rule). */
export const canEditAnyType = (user: Caller): boolean => restPostTypes(user).some((t) => can(user, postTypeCaps(t).edit_posts));

export interface TaxonomyObject extends RegisteredObject {
  showUi: boolean;
  showAdminColumn: boolean;
  showInNavMenus: boolean;
  showInQuickEdit: boolean;
  showTagcloud: boolean;
  showInRest: boolean;
  /** Post types the taxonomy is registered for, in the order they were attached. */
  objectType: string[];
  caps: { manage_terms: string; edit_terms: string; delete_terms: string; assign_terms: string };
  /** Path of the term archive, before the (ancestors and) slug. */
  archiveBase: string;
}

/**
 * A taxonomy with what the ones registered here share unless said otherwise: public, publicly
 * queryable, shown everywhere (UI, admin column, menus, quick edit, tag cloud, REST) under cms/v2,
 * with no description.
 */
const taxonomy = (
  t: Pick<TaxonomyObject, 'name' | 'label' | 'singular' | 'hierarchical' | 'restBase' | 'objectType' | 'caps' | 'archiveBase'> & Partial<TaxonomyObject>,
): TaxonomyObject => ({
  description: '',
  public: true,
  publiclyQueryable: true,
  showUi: true,
  showAdminColumn: true,
  showInNavMenus: true,
  showInQuickEdit: true,
  showTagcloud: true,
  showInRest: true,
  restNamespace: 'cms/v2',
  ...t,
});

export const TAXONOMIES: TaxonomyObject[] = [
  taxonomy({
    name: 'category',
    label: 'Categories',
    singular: 'Category',
    hierarchical: true,
    restBase: 'categories',
    objectType: ['post'],
    caps: { manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories' },
    archiveBase: 'category',
  }),
  taxonomy({
    name: 'post_tag',
    label: 'Tags',
    singular: 'Tag',
    hierarchical: false,
    restBase: 'tags',
    objectType: ['post', EVENT_TYPE],
    caps: { manage_terms: 'manage_post_tags', edit_terms: 'edit_post_tags', delete_terms: 'delete_post_tags', assign_terms: 'assign_post_tags' },
    archiveBase: 'tag',
  }),
  // Registered (posts have formats) but not shown in REST, as in the reference.
  taxonomy({
    name: 'post_format',
    label: 'Formats',
    singular: 'Format',
    hierarchical: false,
    showUi: false,
    showAdminColumn: false,
    showInNavMenus: false,
    showInQuickEdit: false,
    showTagcloud: false,
    showInRest: false,
    restBase: 'post_format',
    objectType: ['post'],
    caps: { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' },
    archiveBase: 'type',
  }),
  taxonomy({
    name: CATEGORY_TAXONOMY,
    label: 'Event Categories',
    singular: 'Event Category',
    hierarchical: true,
    showAdminColumn: false,
    restBase: CATEGORY_TAXONOMY,
    objectType: [EVENT_TYPE],
    caps: {
      manage_terms: 'publish_vendor_events',
      edit_terms: 'publish_vendor_events',
      delete_terms: 'publish_vendor_events',
      assign_terms: 'edit_vendor_events',
    },
    archiveBase: 'events/category',
  }),
];

export const taxonomyObject = (name: string): TaxonomyObject | undefined => TAXONOMIES.find((t) => t.name === name);

/**
 * map_meta_cap for the core taxonomies' meta capabilities: managing, editing and deleting terms need
 * manage_categories, assigning needs edit_posts. Other taxonomies name primitive capabilities directly.
 */
export function canTaxonomy(user: Caller, cap: string): boolean {
  switch (cap) {
    case 'manage_categories':
    case 'edit_categories':
    case 'delete_categories':
    case 'manage_post_tags':
    case 'edit_post_tags':
    case 'delete_post_tags':
      return can(user, 'manage_categories');
    case 'assign_categories':
    case 'assign_post_tags':
      return can(user, 'edit_posts');
    default:
      return can(user, cap);
  }
}

/** Taxonomies registered for a post type, in registration order. */
export const taxonomiesOf = (type: string): TaxonomyObject[] => TAXONOMIES.filter((t) => t.objectType.includes(type));

export interface StatusObject {
  name: string;
  label: string;
  public: boolean;
  protected: boolean;
  private: boolean;
  internal: boolean;
  publiclyQueryable: boolean;
  showInAdminAllList: boolean;
  dateFloating: boolean;
}

const status = (name: string, label: string, flags: Partial<StatusObject>): StatusObject => ({
  name,
  label,
  public: false,
  protected: false,
  private: false,
  internal: false,
  publiclyQueryable: false,
  showInAdminAllList: true,
  dateFloating: false,
  ...flags,
});

/**
 * Every registered post status, in registration order. The importer's record statuses are registered
 * without visibility flags, which makes them internal (never listed), as are core's request statuses.
 */
export const STATUSES: StatusObject[] = [
  status('publish', 'Published', { public: true, publiclyQueryable: true }),
  status('future', 'Scheduled', { protected: true }),
  status('draft', 'Draft', { protected: true, dateFloating: true }),
  status('pending', 'Pending', { protected: true, dateFloating: true }),
  status('private', 'Private', { private: true }),
  status('trash', 'Trash', { internal: true, showInAdminAllList: false }),
  status('auto-draft', 'auto-draft', { internal: true, showInAdminAllList: false, dateFloating: true }),
  status('inherit', 'inherit', { internal: true, showInAdminAllList: false }),
  status('request-pending', 'Pending', { internal: true, showInAdminAllList: false }),
  status('request-confirmed', 'Confirmed', { internal: true, showInAdminAllList: false }),
  status('request-failed', 'Failed', { internal: true, showInAdminAllList: false }),
  status('request-completed', 'Completed', { internal: true, showInAdminAllList: false }),
  ...['success', 'failed', 'schedule', 'pending', 'draft'].map((s) =>
    status(`vendor-ea-${s}`, `vendor-ea-${s}`, { internal: true, showInAdminAllList: false }),
  ),
  status('vendor-ignored', 'Ignored', { internal: true, showInAdminAllList: false }),
];

export const statusObject = (name: string): StatusObject | undefined => STATUSES.find((s) => s.name === name);
