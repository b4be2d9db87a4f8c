import { logRequest, logTo, logger } from './logger';

describe('the request log line', () => {
  it('is one JSON line with the fields pino writes, quotes escaped, and nothing at warn level', () => {
    const lines: string[] = [];
    const restore = logTo({ write: (line: string) => lines.push(line) });
    try {
      logRequest({ requestId: 'a"b\nc', method: 'GET', path: '/x', route: '/x', status: 404, code: 'rest_no_route', ms: 1.5, user: null });
      logger.info({ requestId: 'r' }, 'request');
      logger.level = 'warn';
      logRequest({ requestId: 'quiet', method: 'GET', path: '/x', route: '/x', status: 200, ms: 1, user: 1 });
    } finally {
      restore();
    }
    expect(lines).toHaveLength(2);
    expect(lines[0].endsWith('\n')).toBe(true);
    const line = JSON.parse(lines[0]);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      requestId: 'a"b\nc',
      method: 'GET',
      path: '/x',
      route: '/x',
      status: 404,
      code: 'rest_no_route',
      ms: 1.5,
      user: null,
      msg: 'request',
    });
    expect(Object.keys(JSON.parse(lines[1])).slice(0, 3)).toEqual(Object.keys(line).slice(0, 3));
  });
});
