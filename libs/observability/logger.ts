import pino from 'pino';

/** One structured JSON logger per process; request handlers log through child loggers with a request id. */
/** The level comes from the validated LOG_LEVEL at start-up; under the test runner it starts silent. */
export const logger = pino({
  level: process.env.JEST_WORKER_ID ? 'silent' : 'info',
  base: { pid: process.pid },
  // A second line of defence: code never logs secrets, and these keys are censored wherever they appear near the top.
  redact: {
    paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'password', '*.password', '*.*.password', 'pass_hash', '*.pass_hash', '*.*.pass_hash', 'app_passwords', '*.app_passwords', '*.*.app_passwords', 'err.config', 'err.request', 'err.response'],
    censor: '[redacted]',
  },
});

export type Logger = typeof logger;
