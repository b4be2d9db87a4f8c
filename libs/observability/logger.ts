import pino from 'pino';

/** One structured JSON logger per process; request handlers log through child loggers with a request id. */
/** The level comes from the validated LOG_LEVEL at start-up; under the test runner it starts silent. */
export const logger = pino({
  level: process.env.JEST_WORKER_ID ? 'silent' : 'info',
  base: { pid: process.pid },
  redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.password'], censor: '[redacted]' },
});

export type Logger = typeof logger;
