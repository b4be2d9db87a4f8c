/**
 * Creates or updates the administrator named by ADMIN_USER at start-up, so a fresh install has
 * someone who can sign in and create application passwords. ADMIN_APP_PASSWORD, when given, is
 * installed as that administrator's application password named "bootstrap". No password is ever logged.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '#libs/config/env';
import { chunkPassword, generateAppPassword, hashAccountPassword, verifyAccountPassword } from '#libs/auth/passwords';
import { DuplicateKeyError } from '#libs/store/types';
import { logger } from '#libs/observability/logger';
import type { ContentDeps } from './deps';
import { errorCode, errorMessage } from '#libs/observability/error-fields';

/** Where the first start leaves the generated credentials, inside DATA_DIR. */
export const FIRST_RUN_FILE = 'first-run-credentials.txt';

/** Writes the file readable by the service's user only; a file left from an earlier install is replaced. */
function writeCredentials(dataDir: string, text: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = resolve(dataDir, FIRST_RUN_FILE);
  rmSync(file, { force: true });
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  return file;
}

/**
 * With no ADMIN_USER and no user at all (a fresh install), creates `admin` with generated account and
 * application passwords, so the first start is usable without reading docs. The passwords go to
 * DATA_DIR/first-run-credentials.txt (mode 0600), never to the log: the log says where they are. Where
 * that folder cannot be written (a MongoDB deployment on a read-only file system), the log says how to
 * choose the administrator's passwords instead.
 */
async function firstRunAdmin(deps: ContentDeps, config: Pick<Config, 'DATA_DIR' | 'SITE_URL'>): Promise<void> {
  if ((await deps.users.count({})) > 0) return;
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
  const text = [
    `# The administrator created at the first start of ${config.SITE_URL}, because the store had no user.`,
    '# Keep these elsewhere and delete this file; the passwords can be changed through cms/v2/users.',
    'login: admin',
    `account password: ${password}`,
    `application password: ${chunkPassword(appPassword)}`,
    '',
  ].join('\n');
  let line: string;
  try {
    const file = writeCredentials(config.DATA_DIR, text);
    line = `First run: created administrator "admin"; its account and application passwords are in ${file} (readable by this user only).`;
    logger.warn({ login: 'admin', file }, line);
  } catch (e) {
    line =
      `First run: created administrator "admin", but its generated passwords could not be written to ${resolve(config.DATA_DIR, FIRST_RUN_FILE)} (${errorCode(e) ?? errorMessage(e)}). ` +
      'Set ADMIN_USER=admin and ADMIN_PASSWORD (and ADMIN_APP_PASSWORD) and restart to choose them.';
    logger.warn({ login: 'admin' }, line);
  }
  process.stderr.write(`\n${line}\n\n`);
}

export async function bootstrapAdmin(
  deps: ContentDeps,
  config: Pick<Config, 'ADMIN_USER' | 'ADMIN_PASSWORD' | 'ADMIN_EMAIL' | 'ADMIN_APP_PASSWORD' | 'DATA_DIR' | 'SITE_URL'>,
): Promise<void> {
  const login = config.ADMIN_USER;
  if (!login || !config.ADMIN_PASSWORD) return firstRunAdmin(deps, config);
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
    const cred = await deps.users.credentialOf(user.id);
    if (!user.roles.includes('administrator') || !cred?.roles.includes('administrator')) set.roles = [...new Set([...user.roles, 'administrator'])];
    if (!(await verifyAccountPassword(config.ADMIN_PASSWORD, cred?.pass_hash ?? ''))) set.pass_hash = await hashAccountPassword(config.ADMIN_PASSWORD);
    if (config.ADMIN_EMAIL && user.email !== email) set.email = email;
    if (Object.keys(set).length) {
      await deps.users.setAccount(user.id, set);
      logger.info({ login }, 'administrator updated');
    }
  }
  if (config.ADMIN_APP_PASSWORD) {
    const current = await deps.users.appPasswords(user.id);
    if (!deps.users.matchAppPassword({ app_passwords: current }, config.ADMIN_APP_PASSWORD)) {
      const others = current.filter((p) => p.name !== 'bootstrap');
      await deps.users.setAppPasswords(user.id, others);
      await deps.users.addAppPassword(user.id, 'bootstrap', '', config.ADMIN_APP_PASSWORD);
      logger.info({ login }, 'bootstrap application password installed');
    }
  }
}
