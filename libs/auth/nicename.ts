/**
 * User slugs (the reference's user_nicename), unique among users, by wp_insert_user's rule: a new
 * user's slug is the one asked for, or its login made URL-safe (at most 50 characters); when another
 * user holds it, `-2`, `-3`, ... is appended, the base cut so the whole stays within 50 characters.
 * An update that asks for another user's slug is refused (the users controller's
 * `rest_user_invalid_slug`), never suffixed. A unique index on the slug backs the rule in both stores.
 */
import type { Collection } from '../store/types';
import { USER_LIMITS } from './limits';

/** The first `n` code points of `s`. */
function head(s: string, n: number): string {
  return Array.from(s).slice(0, n).join('');
}

/** sanitize_title of a login: lower case, accents dropped, other characters dashed, `@` and `.` removed. */
export function slugifyLogin(login: string): string {
  return (
    head(login, USER_LIMITS.slug)
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9_.@-]+/g, '-')
      .replace(/[@.]/g, '')
      .replace(/^-+|-+$/g, '') || 'user'
  );
}

/** The `n`th alternative to a taken slug (n ≥ 2), as wp_insert_user spells it. */
export function suffixedSlug(base: string, n: number): string {
  const suffix = String(n);
  // user_nicename allows 50 characters: one for the dash, the rest for the suffix.
  return `${head(base, USER_LIMITS.slug - 1 - suffix.length)}-${suffix}`;
}

/**
 * The first of `base`, `base-2`, `base-3`, ... that `taken` says no other user holds (the reference
 * counts a slug as free when only the user of that login holds it).
 */
export async function firstFreeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await taken(base))) return base;
  for (let n = 2; ; n++) {
    const alt = suffixedSlug(base, n);
    if (!(await taken(alt))) return alt;
  }
}

/** What renaming duplicate slugs reads and writes of a user. */
interface SlugHolder extends Record<string, unknown> {
  id: number;
  login: string;
  slug: string;
}

/**
 * Gives every user but the first holder of a slug (by id) the next alternative no user holds, as a
 * create would have: what a store written before slugs were unique needs before its unique index can
 * be made. Returns how many users were renamed.
 */
export async function renameDuplicateSlugs(users: Pick<Collection<SlugHolder>, 'find' | 'updateOne'>): Promise<number> {
  const all = await users.find({}, { sort: [['id', 1]], fields: ['login', 'slug'] });
  const held = new Set<string>();
  const later: SlugHolder[] = [];
  for (const u of all) {
    if (held.has(u.slug)) later.push(u);
    else held.add(u.slug);
  }
  for (const u of later) {
    const slug = await firstFreeSlug(u.slug, async (s) => held.has(s));
    held.add(slug);
    await users.updateOne({ id: u.id }, { $set: { slug } });
  }
  return later.length;
}
