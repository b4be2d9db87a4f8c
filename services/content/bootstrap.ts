/**
 * Creates or updates the administrator named by ADMIN_USER at start-up, so a fresh install has
 * someone who can sign in and create application passwords. ADMIN_APP_PASSWORD, when given, is
 * installed as that administrator's application password named "bootstrap".
 */
import type { Config } from '../../libs/config/env';
import { chunkPassword, generateAppPassword, hashAccountPassword, verifyAccountPassword } from '../../libs/auth/passwords';
import { DuplicateKeyError } from '../../libs/store/types';
import { logger } from '../../libs/observability/logger';
import type { ContentDeps } from './deps';

/**
 * With no ADMIN_USER and no user at all (a fresh install), creates `admin` with generated account and
 * application passwords and prints them once, so the first start is usable without reading docs.
 */
async function firstRunAdmin(deps: ContentDeps): Promise<void> {
  if ((await deps.users.users.count({})) > 0) return;
  const password = generateAppPassword();
  const appPassword = generateAppPassword();
  try {
    const user = await deps.users.create({ login: 'admin', email: 'admin@localhost.localdomain', password, roles: ['administrator'], name: 'admin' });
    await deps.users.addAppPassword(user.id, 'first run', '', appPassword);
  } catch (e) {
    // Another replica created it first.
    if (e instanceof DuplicateKeyError) return;
    throw e;
  }
  const line = `First run: created administrator "admin" with account password ${password} and application password "${chunkPassword(appPassword)}". They are shown only now.`;
  logger.warn({ login: 'admin' }, line);
  process.stderr.write(`\n${line}\n\n`);
}

export async function bootstrapAdmin(deps: ContentDeps, config: Pick<Config, 'ADMIN_USER' | 'ADMIN_PASSWORD' | 'ADMIN_EMAIL' | 'ADMIN_APP_PASSWORD'>): Promise<void> {
  const login = config.ADMIN_USER;
  if (!login || !config.ADMIN_PASSWORD) return firstRunAdmin(deps);
  const email = (config.ADMIN_EMAIL ?? `${login}@localhost.localdomain`).toLowerCase();
  let user = await deps.users.byLogin(login);
  if (!user) {
    try {
      user = await deps.users.create({ login, email, password: config.ADMIN_PASSWORD, roles: ['administrator'], name: login });
      logger.info({ login }, 'administrator created');
    } catch (e) {
      // Several replicas starting together: one creates, the others find it.
      if (!(e instanceof DuplicateKeyError)) throw e;
      user = (await deps.users.byLogin(login))!;
    }
  } else {
    const set: Record<string, unknown> = {};
    if (!user.roles.includes('administrator')) set.roles = [...new Set([...user.roles, 'administrator'])];
    if (!(await verifyAccountPassword(config.ADMIN_PASSWORD, user.pass_hash))) set.pass_hash = await hashAccountPassword(config.ADMIN_PASSWORD);
    if (config.ADMIN_EMAIL && user.email !== email) set.email = email;
    if (Object.keys(set).length) {
      await deps.users.users.updateOne({ id: user.id }, { $set: set });
      logger.info({ login }, 'administrator updated');
    }
  }
  if (config.ADMIN_APP_PASSWORD) {
    const fresh = (await deps.users.byId(user.id))!;
    if (!deps.users.matchAppPassword(fresh, config.ADMIN_APP_PASSWORD)) {
      const others = (fresh.app_passwords ?? []).filter((p) => p.name !== 'bootstrap');
      await deps.users.users.updateOne({ id: user.id }, { $set: { app_passwords: others } });
      await deps.users.addAppPassword(user.id, 'bootstrap', '', config.ADMIN_APP_PASSWORD);
      logger.info({ login }, 'bootstrap application password installed');
    }
  }
}
