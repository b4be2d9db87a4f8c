/**
 * Roles and capabilities as the reference system ships them, as one table. Calendar post types carry
 * their own capability types (events, venues, organizers) granted like posts.
 */

export type RoleName = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';
export const ROLE_NAMES: RoleName[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

/** Capability types: `post` gives edit_posts, edit_others_posts, ...; `vendor_event` gives edit_vendor_events, ... */
export const CAPABILITY_TYPES = ['post', 'page', 'vendor_event', 'vendor_venue', 'vendor_organizer'] as const;
export type CapabilityType = (typeof CAPABILITY_TYPES)[number];

function typeCaps(type: CapabilityType, verbs: string[]): string[] {
  const plural = `${type}s`;
  return verbs.map((v) => v.replace('{}', plural));
}

const CONTRIBUTOR_VERBS = ['edit_{}', 'delete_{}'];
const AUTHOR_VERBS = [...CONTRIBUTOR_VERBS, 'edit_published_{}', 'publish_{}', 'delete_published_{}'];
const EDITOR_VERBS = [...AUTHOR_VERBS, 'edit_others_{}', 'delete_others_{}', 'read_private_{}', 'edit_private_{}', 'delete_private_{}'];

const calendarTypes: CapabilityType[] = ['vendor_event', 'vendor_venue', 'vendor_organizer'];

const subscriber = ['read'];
const contributor = [...subscriber, ...typeCaps('post', CONTRIBUTOR_VERBS), ...calendarTypes.flatMap((t) => typeCaps(t, CONTRIBUTOR_VERBS))];
const author = [...subscriber, 'upload_files', ...typeCaps('post', AUTHOR_VERBS), ...calendarTypes.flatMap((t) => typeCaps(t, AUTHOR_VERBS))];
const editor = [
  ...subscriber,
  'upload_files',
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'unfiltered_html',
  ...typeCaps('post', EDITOR_VERBS),
  ...typeCaps('page', EDITOR_VERBS),
  ...calendarTypes.flatMap((t) => typeCaps(t, EDITOR_VERBS)),
];
const administrator = [
  ...editor,
  'manage_options',
  'list_users',
  'create_users',
  'edit_users',
  'delete_users',
  'promote_users',
  'remove_users',
  'edit_theme_options',
  'view_site_health_checks',
  'import',
  'export',
];

export const ROLE_CAPS: Record<RoleName, ReadonlySet<string>> = {
  subscriber: new Set(subscriber),
  contributor: new Set(contributor),
  author: new Set(author),
  editor: new Set(editor),
  administrator: new Set(administrator),
};

export function isRole(value: string): value is RoleName {
  return ROLE_NAMES.some((r) => r === value);
}

/** Union of the capabilities of the roles. */
export function capsOf(roles: string[]): string[] {
  const caps = new Set<string>();
  for (const r of roles) if (isRole(r)) for (const c of ROLE_CAPS[r]) caps.add(c);
  return [...caps];
}
