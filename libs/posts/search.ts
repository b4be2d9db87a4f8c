/**
 * What every search of post records adds for a caller who is not signed in: only records without a
 * password match, as the reference's WP_Query::parse_search adds `post_password = ''` for logged-out
 * requests. Otherwise a guest could test whether a word appears in protected content.
 */
import type { Caller } from '../auth/user';
import type { Filter } from '../store/types';

export function searchPrivacy(user: Caller): Filter | null {
  return user ? null : { password: '' };
}
