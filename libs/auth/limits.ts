/**
 * How large a user's record may grow. Every field a user can write is bounded, so no user can make
 * their own record (and each request that reads it) arbitrarily costly. Lengths are counted in
 * characters (Unicode code points, as the reference's mb_strlen counts them), after any filtering the
 * writer applies, as the reference checks them in wp_insert_user.
 *
 * Where the reference refuses a long value with its own error (login, nicename, URL), the same code is
 * answered, with 400 (the reference gives no status, so a 500). Where it has no check (its columns are
 * varchar(100) for the e-mail and varchar(250) for the display name; user meta and application-password
 * names are unbounded there), the limit is this service's and a longer value is `rest_invalid_param`.
 */
import { RestError, invalidParams, ParamError } from '../rest/errors';

export const USER_LIMITS = {
  /** user_login (wp_insert_user: user_login_too_long). */
  login: 60,
  /** user_nicename, the slug (wp_insert_user: user_nicename_too_long). */
  slug: 50,
  /** user_url (wp_insert_user: user_url_too_long). */
  url: 100,
  /** user_email: the reference's column width. */
  email: 100,
  /** display_name: the reference's column width. */
  name: 250,
  /** User meta the reference leaves unbounded: this service's limits. */
  first_name: 250,
  last_name: 250,
  nickname: 250,
  description: 10_000,
} as const;

/** An application password's name (unbounded in the reference). */
export const APP_PASSWORD_NAME_MAX = 100;
/** Application passwords one user may hold (unbounded in the reference); each is checked on a full login. */
export const APP_PASSWORDS_MAX = 50;

export type LimitedField = keyof typeof USER_LIMITS;

/** Whether `s` has more than `max` code points; counts only as far as it must. */
export function longerThan(s: string, max: number): boolean {
  // A code point is one or two UTF-16 units: up to `max` units can never be too long, past 2 × max always is.
  if (s.length <= max) return false;
  if (s.length > 2 * max) return true;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++n > max) return true;
  }
  return false;
}

function tooLong(argument: string, max: number): RestError {
  return invalidParams([[argument, new ParamError('rest_too_long', `${argument} must be at most ${max} characters long.`)]]);
}

/** Each bounded field, the argument cms/v2/users writes it through, and the reference's own error where it has one. */
const RULES: ReadonlyArray<{ field: LimitedField; argument: string; error?: () => RestError }> = [
  { field: 'login', argument: 'username', error: () => new RestError('user_login_too_long', 'Username may not be longer than 60 characters.', 400) },
  { field: 'slug', argument: 'slug', error: () => new RestError('user_nicename_too_long', 'Nicename may not be longer than 50 characters.', 400) },
  { field: 'email', argument: 'email' },
  { field: 'url', argument: 'url', error: () => new RestError('user_url_too_long', 'User URL may not be longer than 100 characters.', 400) },
  { field: 'name', argument: 'name' },
  { field: 'first_name', argument: 'first_name' },
  { field: 'last_name', argument: 'last_name' },
  { field: 'nickname', argument: 'nickname' },
  { field: 'description', argument: 'description' },
];

/** Throws the error a field of a user record gets when it is too long; other keys are not looked at. */
export function checkUserFields(fields: Readonly<Record<string, unknown>>): void {
  for (const { field, argument, error } of RULES) {
    const v = fields[field];
    const max = USER_LIMITS[field];
    if (typeof v === 'string' && longerThan(v, max)) throw error?.() ?? tooLong(argument, max);
  }
}

/**
 * Why an application password of that name may not be added to a user who holds `count` of them (a
 * name too long: `rest_invalid_param`; too many: `application_password_limit_reached`), or null.
 */
export function appPasswordProblem(name: string, count: number | null): RestError | null {
  if (longerThan(name, APP_PASSWORD_NAME_MAX)) return tooLong('name', APP_PASSWORD_NAME_MAX);
  if (count !== null && count >= APP_PASSWORDS_MAX) {
    return new RestError(
      'application_password_limit_reached',
      `A user may hold at most ${APP_PASSWORDS_MAX} application passwords. Revoke one to create another.`,
      409,
    );
  }
  return null;
}
