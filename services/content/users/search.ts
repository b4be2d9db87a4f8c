/**
 * What `cms/v2/users?search=` searches, as the reference's users controller and WP_User_Query do:
 *
 * - The term is matched anywhere in a column (the controller wraps it in `*`), case-insensitively and
 *   literally (never a pattern or operator: the store's `$icontains`); `*` at either end is dropped.
 *   The ID column is compared whole, with a numeric term.
 * - A caller without `list_users` searches only ID, login, slug and display name, never the e-mail or
 *   URL, whatever `search_columns` asks.
 * - A caller with it searches the `search_columns` asked for (id, username, slug, email, name); without
 *   them, the columns follow the term: an `@` searches the e-mail, a number the login and ID, an
 *   `http(s)://` address the URL, anything else login, URL, e-mail, slug and display name.
 */
import type { SEARCH_COLUMNS } from '#libs/routes/cms/users';
import type { Filter } from '#libs/store/types';

/** A value of the `search_columns` argument. */
export type SearchColumnArg = (typeof SEARCH_COLUMNS)[number];

/** A searched column: the stored field of a users column of the reference. */
type Column = 'id' | 'login' | 'email' | 'url' | 'slug' | 'name';

const FROM_ARG: Record<SearchColumnArg, Column> = { id: 'id', username: 'login', slug: 'slug', email: 'email', name: 'name' };
/** What a caller without list_users may search. */
const PUBLIC: readonly Column[] = ['id', 'login', 'slug', 'name'];
/** What `search_columns` may name for a caller with list_users. */
const LISTED: readonly Column[] = ['id', 'login', 'slug', 'email', 'name'];

/** PHP's is_numeric: an optionally signed decimal or float, whitespace allowed around it. */
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The columns a search reads, for a caller who may list users or not. */
export function searchColumns(term: string, asked: readonly SearchColumnArg[], mayList: boolean): readonly Column[] {
  const allowed = mayList ? LISTED : PUBLIC;
  const chosen = asked.map((a) => FROM_ARG[a]).filter((c) => allowed.includes(c));
  if (chosen.length) return [...new Set(chosen)];
  if (!mayList) return PUBLIC;
  if (term.includes('@')) return ['email'];
  if (NUMERIC.test(term)) return ['login', 'id'];
  if (/^https?:\/\//.test(term)) return ['url'];
  return ['login', 'url', 'email', 'slug', 'name'];
}

/** The store filter of a search, or null when it matches every user (no term, or only `*`). */
export function userSearchFilter(search: string, asked: readonly SearchColumnArg[], mayList: boolean): Filter | null {
  const term = search.trim().replace(/^\*+|\*+$/g, '');
  if (!term) return null;
  const or: Filter[] = [];
  for (const column of searchColumns(term, asked, mayList)) {
    if (column !== 'id') or.push({ [column]: { $icontains: term } });
    else if (NUMERIC.test(term) && Number.isSafeInteger(Number(term)) && Number(term) > 0) or.push({ id: Number(term) });
  }
  // Only the ID column, with a term that is no ID: nothing matches.
  return { $or: or.length ? or : [{ id: { $in: [] } }] };
}
