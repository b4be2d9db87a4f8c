/**
 * HTTP Basic authentication with application passwords, as the reference does it: the login or the
 * e-mail plus an application password (spaces and other separators ignored). Presented credentials
 * that fail make the whole request fail with 401, even on public routes. Repeated failures are
 * throttled per client address and per (address, login), never per login alone.
 */
import type { Kept } from '../store/kept';
import { hash, randomBytes } from 'node:crypto';
import { RestError, errors } from '../rest/errors';
import { makeAuthUser, type AuthUser } from './user';
import { normaliseAppPassword } from './passwords';
import type { AppPasswordDoc, CredentialDoc, UsersRepository } from './users';

export function parseBasic(header: string | undefined): { login: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0 || i === decoded.length - 1) return null;
  return { login: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/** How many more failures one address may have over all logins than over one login. */
export const ADDRESS_FACTOR = 5;

/**
 * Counts failed logins in fixed windows per client address and login (`limit`, cleared by that
 * login's success from that address) and per client address over all logins (ADDRESS_FACTOR ×
 * `limit`, against trying many logins; not cleared by a success, so one good account does not reset
 * it). Nothing is counted per login alone: failures from one address never lock the user out from
 * another.
 */
export class FailureThrottle {
  private readonly hits = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private static keys(ip: string, login: string): [string, string] {
    return [`a\u0000${ip}`, `l\u0000${ip}\u0000${login.trim().toLowerCase()}`];
  }

  private wait(key: string, limit: number, now: number): number {
    const h = this.hits.get(key);
    if (!h || h.until <= now) return 0;
    return h.count >= limit ? Math.ceil((h.until - now) / 1000) : 0;
  }

  /** Seconds to wait when the address, or this login from it, is over its limit; else 0. */
  blockedFor(ip: string, login: string, now = Date.now()): number {
    const [address, pair] = FailureThrottle.keys(ip, login);
    return Math.max(this.wait(address, this.limit * ADDRESS_FACTOR, now), this.wait(pair, this.limit, now));
  }

  fail(ip: string, login: string, now = Date.now()): void {
    for (const key of FailureThrottle.keys(ip, login)) {
      const h = this.hits.get(key);
      if (!h || h.until <= now) this.hits.set(key, { count: 1, until: now + this.windowMs });
      else h.count++;
    }
    if (this.hits.size > 20000) for (const [k, v] of this.hits) if (v.until <= now) this.hits.delete(k);
  }

  succeed(ip: string, login: string): void {
    this.hits.delete(FailureThrottle.keys(ip, login)[1]);
  }
}

/** The login a throttle counts for credentials: the user's id when the login or e-mail names one, so every spelling counts alike. */
export function throttleLogin(login: string, user: { id: number } | null | undefined): string {
  return user ? `#${user.id}` : login;
}

/** How long a verified credential is taken on trust from memory; bounds how late another process's revocation is seen. */
export const VERIFIED_TTL_MS = 1000;
const VERIFIED_MAX = 2000;

/**
 * Credentials verified lately, so that a client sending the same credentials on every request is not
 * looked up and checked again each time. An entry is keyed by a MAC, under a key of this process, of the
 * credentials as the reference reads them: the login and the application password without its
 * separators, so every spelling of one credential (spaces or none in the password, the header's own
 * spacing and base64 padding) is one entry. The MAC is a SHA-256 digest of a random key of this process
 * (hex) followed by `login:password` (a login holds no colon, so the input names one credential): one hash
 * per request, no HMAC object. Neither the header nor the password is ever a key, and a lookup's
 * timing tells nothing of the password; only a full verification (the constant-time hash comparison)
 * makes an entry. The entry keeps the caller as authenticated (AuthUser, with its capability set), so
 * a hit builds nothing. It is a Kept value (UsersRepository.kept): dropped as soon as this
 * process writes any user or credential record (a revoked application password, a changed role, a
 * deleted user), or another process does where the store tells, and after VERIFIED_TTL_MS in any case,
 * which bounds how late a write by another process is seen.
 */
class VerifiedCredentials {
  private readonly key = randomBytes(32).toString('hex');
  readonly kept: Kept<{ cred: CredentialDoc; ap: AppPasswordDoc; user: AuthUser }>;

  constructor(users: UsersRepository) {
    this.kept = users.kept(VERIFIED_MAX, VERIFIED_TTL_MS);
  }

  keyOf(creds: { login: string; password: string }): string {
    // crypto.hash: one call, no Hash object (most of the cost of a digest this short).
    return hash('sha256', `${this.key}${creds.login}:${normaliseAppPassword(creds.password)}`, 'base64');
  }
}

/**
 * Authenticates a request from the caller's credential record (libs/auth/credentials.ts): the login,
 * roles and password hashes, never the user's profile, so what a user writes into their profile
 * cannot make their logins cost more.
 */
export class Authenticator {
  private readonly verified: VerifiedCredentials;

  constructor(
    private readonly users: UsersRepository,
    private readonly throttle: FailureThrottle,
  ) {
    this.verified = new VerifiedCredentials(users);
  }

  /** Null for an anonymous request, the user for good credentials; throws RestError for bad ones. */
  async authenticate(authorization: string | undefined, ip: string): Promise<AuthUser | null> {
    const creds = parseBasic(authorization);
    if (!creds) return null;
    const key = this.verified.keyOf(creds);
    const hit = this.verified.kept.peek(key);
    if (hit) {
      // Still subject to the throttle of its address, as a full check is.
      const wait = this.throttle.blockedFor(ip, throttleLogin(creds.login, hit.cred));
      if (wait > 0) throw errors.throttled(wait);
      await this.users.recordUse(hit.cred, hit.ap, ip);
      return hit.user;
    }
    // Taken before the lookup: a write that lands while it runs leaves the entry already stale.
    const stamp = this.verified.kept.stamp();
    const at = Date.now();
    const cred = await this.users.credentialByLoginOrEmail(creds.login);
    const who = throttleLogin(creds.login, cred);
    const wait = this.throttle.blockedFor(ip, who);
    if (wait > 0) throw errors.throttled(wait);
    if (!cred) {
      this.throttle.fail(ip, who);
      throw creds.login.includes('@')
        ? new RestError('invalid_email', 'Unknown email address. Check again or try your username.', 401)
        : new RestError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401);
    }
    const ap = this.users.matchAppPassword(cred, creds.password);
    if (!ap) {
      this.throttle.fail(ip, who);
      throw new RestError('incorrect_password', 'The provided password is an invalid application password.', 401);
    }
    this.throttle.succeed(ip, who);
    await this.users.recordUse(cred, ap, ip);
    const user = makeAuthUser(cred, ap.uuid);
    this.verified.kept.keep(key, { cred, ap, user }, stamp, at);
    return user;
  }
}
