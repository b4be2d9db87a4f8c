/** Request headers as one string each. */
import type { IncomingHttpHeaders } from 'node:http';

/** A request header's value as one string: the first of a repeated one, '' when absent. */
export function headerOf(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>, name: string): string {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}
