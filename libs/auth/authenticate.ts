/**
 * HTTP Basic authentication with application passwords, as the reference does it: the login or the
 * e-mail plus an application password (spaces and other separators ignored). Presented credentials
 * that fail make the whole request fail with 401, even on public routes. Repeated failures from one
 * client address are throttled.
 */
import { RestError, errors } from '../rest/errors';
import { makeAuthUser, type AuthUser } from './user';
import type { UsersRepository } from './users';

export function parseBasic(header: string | undefined): { login: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0 || i === decoded.length - 1) return null;
  return { login: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/** Counts failures per client address in a fixed window. */
export class FailureThrottle {
  private readonly hits = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait when the address is over the limit, else 0. */
  blockedFor(key: string, now = Date.now()): number {
    const h = this.hits.get(key);
    if (!h || h.until <= now) return 0;
    return h.count >= this.limit ? Math.ceil((h.until - now) / 1000) : 0;
  }

  fail(key: string, now = Date.now()): void {
    const h = this.hits.get(key);
    if (!h || h.until <= now) this.hits.set(key, { count: 1, until: now + this.windowMs });
    else h.count++;
    if (this.hits.size > 10000) for (const [k, v] of this.hits) if (v.until <= now) this.hits.delete(k);
  }

  succeed(key: string): void {
    this.hits.delete(key);
  }
}

export class Authenticator {
  constructor(
    private readonly users: UsersRepository,
    private readonly throttle: FailureThrottle,
  ) {}

  /** Null for an anonymous request, the user for good credentials; throws RestError for bad ones. */
  async authenticate(authorization: string | undefined, ip: string): Promise<AuthUser | null> {
    const creds = parseBasic(authorization);
    if (!creds) return null;
    const wait = this.throttle.blockedFor(ip);
    if (wait > 0) throw errors.throttled(wait);
    const user = await this.users.byLoginOrEmail(creds.login);
    if (!user) {
      this.throttle.fail(ip);
      throw creds.login.includes('@')
        ? new RestError('invalid_email', 'Unknown email address. Check again or try your username.', 401)
        : new RestError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401);
    }
    const ap = this.users.matchAppPassword(user, creds.password);
    if (!ap) {
      this.throttle.fail(ip);
      throw new RestError('incorrect_password', 'The provided password is an invalid application password.', 401);
    }
    this.throttle.succeed(ip);
    await this.users.recordUse(user, ap, ip);
    return makeAuthUser(user, ap.uuid);
  }
}
