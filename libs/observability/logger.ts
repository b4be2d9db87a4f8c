import pino from 'pino';

/** Where log lines are written: standard output, unless `logTo` gave another destination. */
let destination: { write(line: string): unknown } = pino.destination(1);

/** One structured JSON logger per process; request handlers log through child loggers with a request id. */
/** The level comes from the validated LOG_LEVEL at start-up; under the test runner it starts silent. */
export const logger = pino(
  {
    level: process.env.JEST_WORKER_ID ? 'silent' : 'info',
    base: { pid: process.pid },
    // A second line of defence: code never logs secrets, and these keys are censored wherever they appear near the top.
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'password',
        '*.password',
        '*.*.password',
        'pass_hash',
        '*.pass_hash',
        '*.*.pass_hash',
        'app_passwords',
        '*.app_passwords',
        '*.*.app_passwords',
        'err.config',
        'err.request',
        'err.response',
      ],
      censor: '[redacted]',
    },
  },
  { write: (line: string) => destination.write(line) },
);

export type Logger = typeof logger;

/** The fields of a request log line, all known in advance and none secret. */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  code?: string;
  ms: number;
  user: number | null;
}

/**
 * Writes the request log line (info level, message `request`), as pino would write it through
 * `logger`, but without its redaction pass: a line per request is the hottest log call, and its fields
 * are fixed and carry no secret, so the censoring of wildcard paths (a walk of every logged object)
 * only costs there. The same destination and level as `logger`.
 */
export function logRequest(f: RequestLine): void {
  if (!logger.isLevelEnabled('info')) return;
  const code = f.code === undefined ? '' : `,"code":${JSON.stringify(f.code)}`;
  destination.write(
    `{"level":30,"time":${Date.now()},"pid":${process.pid},"requestId":${JSON.stringify(f.requestId)},"method":${JSON.stringify(f.method)},` +
      `"path":${JSON.stringify(f.path)},"route":${JSON.stringify(f.route)},"status":${f.status}${code},"ms":${f.ms},"user":${f.user},"msg":"request"}\n`,
  );
}

/**
 * Writes the log lines (one JSON object each) to `stream` at `level` until the returned function is
 * called, which restores the previous destination and level. Tests read the lines this way.
 */
export function logTo(stream: { write(line: string): unknown }, level: pino.LevelWithSilent = 'info'): () => void {
  const previous = { destination, level: logger.level };
  destination = stream;
  logger.level = level;
  return () => {
    destination = previous.destination;
    logger.level = previous.level;
  };
}
