/**
 * Entry point of every process: `node dist/services/main.js <role>` with role all (default),
 * gateway, content, calendar, aggregator, oembed or worker.
 */
import { loadConfig, requireForRole, ROLES } from '#libs/config/env';
import { logger } from '#libs/observability/logger';
import { start } from './runtime';
import { errorMessage } from '#libs/observability/error-fields';

async function main(): Promise<void> {
  const arg = process.argv[2] ?? 'all';
  const role = ROLES.find((r) => r === arg);
  if (!role) {
    process.stderr.write(`Unknown role "${arg}". Use one of: ${ROLES.join(', ')}\n`);
    process.exit(2);
  }
  let config;
  try {
    config = loadConfig();
    requireForRole(config, role);
  } catch (e) {
    process.stderr.write(`${errorMessage(e)}\n`);
    process.exit(2);
  }
  const running = await start(role, config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.warn('shutdown timed out');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 2000);
    force.unref();
    await running.close();
    // The last line of a process that drained and closed everything (the exit flushes the log).
    logger.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  logger.fatal({ err: e }, 'start-up failed');
  process.stderr.write(`start-up failed: ${errorMessage(e)}\n`);
  process.exit(1);
});
