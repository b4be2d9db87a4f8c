/**
 * `import.js source <action>`: the import sources of a running service, over its REST API
 * (vendor/event-aggregator/v1/sources), as an administrator with an application password.
 *
 *   source add --origin ical --source <feed URL> | --origin ics|csv --file <path> [--title <name>]
 *       [--schedule once|hourly|daily|weekly] [--interval <seconds>] [--on-removed keep|draft|trash]
 *       [--post-status publish|draft|pending|private] [--timezone <zone>] [--categories 3,7]
 *   source list | source show <id> | source run <id> | source runs <id> | source remove <id>
 *
 * --url is the REST root, as for the other commands. Credentials: --user and --app-password, else
 * IMPORT_USER and IMPORT_APP_PASSWORD. Each action prints
 * the service's answer as JSON on stdout; a refused request prints its error and exits with 1.
 */
import { readFileSync } from 'node:fs';
import { SOURCES_NS } from '#libs/routes/aggregator/sources';

export type Options = Record<string, string | true>;

export class SourceUsageError extends Error {}

export interface SourceCommandContext {
  root: string;
  options: Options;
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  log: (line: string) => void;
}

const opt = (o: Options, name: string): string | undefined => (typeof o[name] === 'string' && o[name] !== '' ? (o[name] as string) : undefined);

function credentials(ctx: SourceCommandContext): string {
  const user = opt(ctx.options, 'user') ?? ctx.env.IMPORT_USER;
  const password = opt(ctx.options, 'app-password') ?? ctx.env.IMPORT_APP_PASSWORD;
  if (!user || !password)
    throw new SourceUsageError("give an administrator's login and application password: --user and --app-password, or IMPORT_USER and IMPORT_APP_PASSWORD");
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** The body of `source add`, from the options. */
export function sourceBody(o: Options, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): Record<string, unknown> {
  const origin = opt(o, 'origin');
  if (!origin) throw new SourceUsageError('--origin is required (ical, ics or csv)');
  const body: Record<string, unknown> = { origin };
  const url = opt(o, 'source');
  const file = opt(o, 'file');
  if (url) body.source = url;
  if (file) body.file = readFile(file);
  if (!url && !file) throw new SourceUsageError('give the feed with --source <URL> or --file <path>');
  for (const [flag, field] of [
    ['title', 'title'],
    ['schedule', 'schedule'],
    ['on-removed', 'on_removed'],
    ['post-status', 'post_status'],
    ['timezone', 'timezone'],
  ] as const) {
    const v = opt(o, flag);
    if (v !== undefined) body[field] = v;
  }
  const interval = opt(o, 'interval');
  if (interval !== undefined) body.interval = Number(interval);
  const categories = opt(o, 'categories');
  if (categories !== undefined)
    body.categories = categories
      .split(',')
      .map((c) => Number(c.trim()))
      .filter((n) => Number.isFinite(n));
  return body;
}

function idOf(args: string[]): string {
  const id = args[0];
  if (!id || !/^\d+$/.test(id)) throw new SourceUsageError('give the source id');
  return id;
}

export async function sourceCommand(args: string[], ctx: SourceCommandContext): Promise<number> {
  const [action, ...rest] = args;
  const base = `${ctx.root}/${SOURCES_NS}/sources`;
  let method = 'GET';
  let url = base;
  let body: Record<string, unknown> | undefined;
  switch (action) {
    case 'add':
      method = 'POST';
      body = sourceBody(ctx.options);
      break;
    case 'list':
      break;
    case 'show':
      url = `${base}/${idOf(rest)}`;
      break;
    case 'run':
      method = 'POST';
      url = `${base}/${idOf(rest)}/runs`;
      break;
    case 'runs':
      url = `${base}/${idOf(rest)}/runs`;
      break;
    case 'remove':
      method = 'DELETE';
      url = `${base}/${idOf(rest)}`;
      break;
    default:
      throw new SourceUsageError(`unknown source action "${action ?? ''}": add, list, show, run, runs or remove`);
  }
  const headers: Record<string, string> = { Authorization: credentials(ctx) };
  if (body) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 500);
    try {
      const e = JSON.parse(text) as { code?: string; message?: string; data?: { params?: Record<string, string> } };
      message = `${e.code ?? res.status}: ${e.message ?? ''}${e.data?.params ? ` ${JSON.stringify(e.data.params)}` : ''}`;
    } catch {
      // not JSON: the text as it came
    }
    ctx.log(`${method} ${url} was refused (${res.status}) ${message}`);
    return 1;
  }
  ctx.out(`${text}\n`);
  return 0;
}
