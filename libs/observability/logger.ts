import pino from 'pino';

/** One structured JSON logger per process; request handlers log through child loggers with a request id. */
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.NODE_ENV === 'test' || process.env.JEST_WORKER_ID ? 'silent' : 'info'),
  base: { pid: process.pid, role: process.env.ECS_ROLE },
  redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.password'], censor: '[redacted]' },
});

export type Logger = typeof logger;
