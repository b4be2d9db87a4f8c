/**
 * Every environment variable the service reads, declared once. Start-up validates them all and stops
 * with one clear message listing every bad value; README.md and the Helm chart's wiring test read
 * this table, so a variable that is not declared here is not read anywhere.
 */
import { allowEntry } from '../net/outbound';

export type Role = 'all' | 'gateway' | 'content' | 'calendar' | 'aggregator' | 'oembed' | 'worker';
export const ROLES: Role[] = ['all', 'gateway', 'content', 'calendar', 'aggregator', 'oembed', 'worker'];
/** Processes that a cluster runs as their own pods (everything but the all-in-one role). */
export const CLUSTER_ROLES: Exclude<Role, 'all'>[] = ['gateway', 'content', 'calendar', 'aggregator', 'oembed', 'worker'];
export type ServiceName = 'content' | 'calendar' | 'aggregator' | 'oembed';
export const SERVICES: ServiceName[] = ['content', 'calendar', 'aggregator', 'oembed'];

interface VarSpec<T> {
  description: string;
  /** Roles that read the variable; `*` for all. */
  roles: Array<Role | '*'>;
  parse(raw: string | undefined, env: NodeJS.ProcessEnv): T;
  secret?: boolean;
}

class ConfigError extends Error {}

function str(def: string) {
  return (raw: string | undefined) => (raw === undefined || raw === '' ? def : raw);
}
function optional(raw: string | undefined): string | undefined {
  return raw === undefined || raw === '' ? undefined : raw;
}
function int(def: number, min: number, max: number) {
  return (raw: string | undefined) => {
    if (raw === undefined || raw === '') return def;
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`must be a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}
function url(raw: string | undefined): string | undefined {
  const v = optional(raw);
  if (v === undefined) return undefined;
  try {
    new URL(v);
  } catch {
    throw new ConfigError(`must be a URL, got "${v}"`);
  }
  return v.replace(/\/+$/, '');
}
function oneOf<T extends string>(values: readonly T[], def: T) {
  return (raw: string | undefined) => {
    if (raw === undefined || raw === '') return def;
    const value = values.find((v) => v === raw);
    if (value === undefined) throw new ConfigError(`must be one of ${values.join(', ')}, got "${raw}"`);
    return value;
  };
}

/**
 * Secret values shown as examples in the documentation (README.md, k8s/overlays/example/
 * secrets.env.example). Anyone can read them, so start-up refuses them whatever the mode: a copied
 * example must never become a real credential. Application passwords compare without spaces and
 * case. The Helm chart refuses the same values at render (ec.exampleSecrets in
 * charts/events-calendar/templates/_validate.tpl; test/deploy/chart.test.ts keeps the lists equal).
 */
export const EXAMPLE_SECRETS = {
  SERVICE_SECRET: ['replace-with-64-random-hex-characters-0000000000000000000000000000'],
  ADMIN_PASSWORD: ['replace-me-with-a-long-password'],
  ADMIN_APP_PASSWORD: ['example0example0example0', 'replacemeReplacemeRplcme'],
} as const;

function refuseExample(name: keyof typeof EXAMPLE_SECRETS, value: string): void {
  const norm = (v: string) => (name === 'ADMIN_APP_PASSWORD' ? v.replace(/\s/g, '').toLowerCase() : v);
  const examples: readonly string[] = EXAMPLE_SECRETS[name];
  if (examples.some((example) => norm(example) === norm(value))) {
    throw new ConfigError('is the example value shown in the documentation, which anyone can read: set one of your own');
  }
}

export const ENV = {
  PORT: {
    description:
      'TCP port the process listens on (gateway, services, the all-in-one process; workers serve /healthz, /readyz and /metrics on it); 0 picks a free port.',
    roles: ['*'],
    parse: int(8080, 0, 65535),
  },
  HOST: { description: 'Address to listen on.', roles: ['*'], parse: str('0.0.0.0') },
  SITE_URL: {
    description:
      'Public base URL of the site ({base_url}); the REST root is SITE_URL/index.php/cms-json. Default http://127.0.0.1:PORT (the loopback address a local client reaches).',
    roles: ['*'],
    parse: (raw: string | undefined, env: NodeJS.ProcessEnv) => url(raw) ?? `http://127.0.0.1:${env.PORT || 8080}`,
  },
  SITE_NAME: { description: 'Site title shown in the index and oEmbed answers.', roles: ['*'], parse: str('Events Calendar') },
  SITE_DESCRIPTION: { description: 'Site tagline shown in the index.', roles: ['*'], parse: str('') },
  SITE_TIMEZONE: {
    description: 'IANA time zone of the site (dates without an offset are read in it).',
    roles: ['*'],
    parse: (raw: string | undefined) => {
      const v = raw === undefined || raw === '' ? 'UTC' : raw;
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: v });
      } catch {
        throw new ConfigError(`must be an IANA time zone such as Europe/Berlin, got "${v}"`);
      }
      return v;
    },
  },
  DATA_DIR: { description: 'Folder of the embedded SQLite store (used when MONGO_URL is not set).', roles: ['*'], parse: str('./data') },
  MONGO_URL: { description: 'MongoDB connection string; when set, MongoDB is the store. Required in cluster mode.', roles: ['*'], parse: url, secret: true },
  MONGO_DB: { description: 'MongoDB database name.', roles: ['*'], parse: str('calendar') },
  REDIS_URL: {
    description: 'Redis URL for BullMQ queues; when not set, the all-in-one process runs queued work inline. Required in cluster mode.',
    roles: ['*'],
    parse: url,
    secret: true,
  },
  QUEUE_PREFIX: { description: 'Key prefix of the BullMQ queues in Redis.', roles: ['*'], parse: str('ecs') },
  CONTENT_SERVICE_URL: { description: 'Gateway (cluster mode): base URL of the content service.', roles: ['gateway', 'worker'], parse: url },
  CALENDAR_SERVICE_URL: { description: 'Gateway (cluster mode): base URL of the calendar service.', roles: ['gateway', 'worker'], parse: url },
  AGGREGATOR_SERVICE_URL: { description: 'Gateway (cluster mode): base URL of the aggregator service.', roles: ['gateway', 'worker'], parse: url },
  OEMBED_SERVICE_URL: { description: 'Gateway (cluster mode): base URL of the oEmbed service.', roles: ['gateway', 'worker'], parse: url },
  SERVICE_SECRET: {
    description: 'Shared secret with which the gateway signs requests to services (cluster mode; at least 32 characters).',
    roles: ['gateway', 'content', 'calendar', 'aggregator', 'oembed', 'worker'],
    parse: (raw: string | undefined) => {
      const v = optional(raw);
      if (v !== undefined && v.length < 32) throw new ConfigError('must be at least 32 characters long');
      if (v !== undefined) refuseExample('SERVICE_SECRET', v);
      return v;
    },
    secret: true,
  },
  ADMIN_USER: { description: 'Login of an administrator created or updated at start-up.', roles: ['all', 'content'], parse: optional },
  ADMIN_EMAIL: { description: 'E-mail of the bootstrapped administrator (default ADMIN_USER@localhost).', roles: ['all', 'content'], parse: optional },
  ADMIN_PASSWORD: {
    description: 'Account password of the bootstrapped administrator (at least 8 characters).',
    roles: ['all', 'content'],
    parse: (raw: string | undefined) => {
      const v = optional(raw);
      if (v !== undefined) refuseExample('ADMIN_PASSWORD', v);
      return v;
    },
    secret: true,
  },
  ADMIN_APP_PASSWORD: {
    description: 'Optional application password for the bootstrapped administrator: 24 letters and digits, spaces allowed.',
    roles: ['all', 'content'],
    parse: (raw: string | undefined) => {
      const v = optional(raw);
      if (v === undefined) return undefined;
      const clean = v.replace(/[^A-Za-z0-9]/g, '');
      if (clean.length !== 24 || /[^A-Za-z0-9\s]/.test(v)) throw new ConfigError('must be 24 letters and digits (spaces between groups are allowed)');
      refuseExample('ADMIN_APP_PASSWORD', clean);
      return clean;
    },
    secret: true,
  },
  MAX_BODY_BYTES: { description: 'Largest request body accepted; larger ones get 413.', roles: ['*'], parse: int(2 * 1024 * 1024, 1024, 512 * 1024 * 1024) },
  AUTH_FAILURE_LIMIT: {
    description:
      'Failed logins allowed for one login from one client address within AUTH_FAILURE_WINDOW_SECONDS before 429 (an address gets five times as many over all logins).',
    roles: ['all', 'gateway'],
    parse: int(10, 1, 100000),
  },
  AUTH_FAILURE_WINDOW_SECONDS: { description: 'Window of the failed-login throttle.', roles: ['all', 'gateway'], parse: int(300, 1, 86400) },
  TRUST_PROXY_HOPS: {
    description:
      'Reverse proxies in front of the gateway whose X-Forwarded-For entries are trusted: the client address (login throttle, logs) is the entry the outermost of them added. 0: the connection address, X-Forwarded-For ignored (a client could write any address there).',
    roles: ['all', 'gateway'],
    parse: int(0, 0, 10),
  },
  HEADERS_TIMEOUT_MS: {
    description:
      'How long a connection may take to send a request line and headers (from its first byte, or from connecting) before it gets 408 and is closed, so slow-header connections cannot hold sockets. An idle kept-alive connection is not cut by it (its 65 s keep-alive timeout is).',
    roles: ['*'],
    parse: int(10000, 1000, 60000),
  },
  MAX_CONNECTIONS_PER_ADDRESS: {
    description:
      "Open connections one client address (the connection's own, never X-Forwarded-For) may hold at once; more are answered 429 and closed. 0: no cap. Default 128, or 0 when TRUST_PROXY_HOPS is set: then every connection comes from the proxies in front, which limit their clients themselves.",
    roles: ['all', 'gateway'],
    parse: (raw: string | undefined, env: NodeJS.ProcessEnv) => {
      const behindProxies = /^\s*[1-9]\d*\s*$/.test(env.TRUST_PROXY_HOPS ?? '');
      return int(behindProxies ? 0 : 128, 0, 1000000)(raw);
    },
  },
  OUTBOUND_ALLOW_HOSTS: {
    description:
      'Comma-separated hosts every outbound fetch (oEmbed proxy, URL details, media sideloads, event, venue, organizer and imported images) may reach although they are private, loopback or on a port other than 80, 443 and 8080 (intranet sites): `host` allows every port of it, `host:port` (`[v6]:port`) that port only; redirects are judged again. Empty: public addresses only. OEMBED_ALLOW_HOSTS, its former name, is deprecated and still read: its hosts are added.',
    roles: ['all', 'oembed', 'worker', 'content', 'calendar'],
    parse: (raw: string | undefined, env: NodeJS.ProcessEnv) => {
      const list: string[] = [];
      const bad: string[] = [];
      for (const [name, value] of [
        ['OUTBOUND_ALLOW_HOSTS', raw],
        ['OEMBED_ALLOW_HOSTS', env.OEMBED_ALLOW_HOSTS],
      ] as const) {
        for (const item of (value ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const entry = allowEntry(item);
          if (entry === null) bad.push(name === 'OUTBOUND_ALLOW_HOSTS' ? `"${item}"` : `"${item}" (in OEMBED_ALLOW_HOSTS)`);
          else if (!list.includes(entry)) list.push(entry);
        }
      }
      if (bad.length) throw new ConfigError(`must list host names or IP addresses, each optionally with :port, got ${bad.join(', ')}`);
      return list;
    },
  },
  IMPORT_FEED_MAX_BYTES: {
    description: 'Largest feed an import source fetches (iCalendar or CSV by URL); a larger answer fails the run.',
    roles: ['all', 'worker'],
    parse: int(50 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  },
  IMPORT_MIN_INTERVAL_SECONDS: {
    description: 'Shortest interval, in seconds, an import source may ask to run at.',
    roles: ['all', 'aggregator'],
    parse: int(300, 1, 86400),
  },
  WORKER_QUEUES: {
    description: 'Comma-separated queues a worker consumes (batch, oembed, import, geocode); default all.',
    roles: ['worker', 'all'],
    parse: (raw: string | undefined) => {
      const all = ['batch', 'oembed', 'import', 'geocode'];
      if (raw === undefined || raw.trim() === '') return all;
      const list = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = list.filter((q) => !all.includes(q));
      if (bad.length) throw new ConfigError(`unknown queue(s) ${bad.join(', ')}; known: ${all.join(', ')}`);
      return list;
    },
  },
  WORKER_CONCURRENCY: { description: 'Jobs a worker runs at once per queue.', roles: ['worker', 'all'], parse: int(4, 1, 256) },
  BATCH_TIMEOUT_MS: {
    description:
      'How long the gateway waits for a queued batch: then 503 (cancelled, nothing done) when no worker has started it, 504 when one is still running it.',
    roles: ['all', 'gateway'],
    parse: int(60000, 1000, 3600000),
  },
  SHUTDOWN_TIMEOUT_MS: { description: 'Grace period for in-flight requests and jobs on SIGTERM.', roles: ['*'], parse: int(10000, 0, 600000) },
  EDITION: {
    description:
      'Edition of the service: `free` (default), or `extended`, which adds venue geolocation: venue coordinates as write arguments, the geoloc, geoloc_lat and geoloc_lng filters of the event list and the geofence settings. Every process reads it (the gateway validates arguments and publishes the index).',
    roles: ['*'],
    parse: oneOf(['free', 'extended'] as const, 'free'),
  },
  GEOCODER_PROVIDER: {
    description:
      'Extended edition: the geocoder that finds the coordinates of venue addresses on workers: `nominatim` (a Nominatim-compatible search URL, GEOCODER_URL), `google` (the Google Geocoding API, GEOCODER_API_KEY) or `none` (only coordinates given by writers are used). Default `nominatim` when GEOCODER_URL is set, else `none`.',
    roles: ['all', 'calendar', 'worker'],
    parse: (raw: string | undefined, env: NodeJS.ProcessEnv) => {
      const provider = oneOf(['none', 'nominatim', 'google'] as const, optional(env.GEOCODER_URL) ? 'nominatim' : 'none')(raw);
      if (provider === 'nominatim' && !optional(env.GEOCODER_URL)) throw new ConfigError('is nominatim, which needs GEOCODER_URL (its search URL)');
      if (provider === 'google' && !optional(env.GEOCODER_API_KEY)) throw new ConfigError('is google, which needs GEOCODER_API_KEY');
      return provider;
    },
  },
  GEOCODER_URL: {
    description:
      "The geocoder's search URL: a Nominatim-compatible `/search` address (asked with format=jsonv2&limit=1&q=<address>), or for `google` another address of its Geocoding API (default https://maps.googleapis.com/maps/api/geocode/json). Requests pass the outbound guard (OUTBOUND_ALLOW_HOSTS for a private host).",
    roles: ['all', 'calendar', 'worker'],
    parse: url,
  },
  GEOCODER_API_KEY: {
    description: 'The Google Geocoding API key (GEOCODER_PROVIDER=google).',
    roles: ['all', 'calendar', 'worker'],
    parse: optional,
    secret: true,
  },
  GEOCODER_RATE_PER_SECOND: {
    description:
      "Geocoder requests per second at most, over every worker (BullMQ's limiter in Redis; the all-in-one process without Redis spaces them itself). Default 1, Nominatim's usage policy; a fraction such as 0.5 is one request every 2 s.",
    roles: ['all', 'calendar', 'worker'],
    parse: (raw: string | undefined) => {
      if (raw === undefined || raw.trim() === '') return 1;
      const n = /^\s*(\d+(\.\d+)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
      if (!(n >= 0.01 && n <= 1000)) throw new ConfigError(`must be a number from 0.01 to 1000, got "${raw}"`);
      return n;
    },
  },
  GEOCODER_TIMEOUT_MS: { description: 'Deadline of one geocoder request.', roles: ['all', 'calendar', 'worker'], parse: int(10000, 1000, 120000) },
  LOG_LEVEL: { description: 'pino log level.', roles: ['*'], parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info') },
} satisfies Record<string, VarSpec<unknown>>;

export type EnvName = keyof typeof ENV;

/** The variable holding each service's base URL. */
const SERVICE_URL_VARS = {
  content: 'CONTENT_SERVICE_URL',
  calendar: 'CALENDAR_SERVICE_URL',
  aggregator: 'AGGREGATOR_SERVICE_URL',
  oembed: 'OEMBED_SERVICE_URL',
} as const satisfies Record<ServiceName, EnvName>;
export type Config = { [K in EnvName]: ReturnType<(typeof ENV)[K]['parse']> };

/** Reads and validates every variable; throws one error that lists every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  const specs: Record<string, VarSpec<unknown>> = ENV;
  for (const [name, spec] of Object.entries(specs)) {
    try {
      out[name] = spec.parse(env[name], env);
    } catch (e) {
      problems.push(`${name} ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (problems.length) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  // The one boundary: every variable of ENV was parsed by its own spec into `out`, so it is a Config.
  return out as Config;
}

/** Checks the variables a role cannot run without. */
export function requireForRole(config: Config, role: Role): void {
  const missing: string[] = [];
  if (role !== 'all') {
    if (!config.MONGO_URL) missing.push('MONGO_URL');
    if ((role === 'gateway' || role === 'worker') && !config.REDIS_URL) missing.push('REDIS_URL');
    if (!config.SERVICE_SECRET) missing.push('SERVICE_SECRET');
    if (role === 'gateway' || role === 'worker') {
      for (const s of SERVICES) {
        const key = SERVICE_URL_VARS[s];
        if (!config[key]) missing.push(key);
      }
    }
  }
  if (config.ADMIN_USER && !config.ADMIN_PASSWORD) missing.push('ADMIN_PASSWORD (ADMIN_USER is set)');
  if (missing.length) throw new Error(`Invalid configuration for role "${role}": missing ${missing.join(', ')}`);
}

export function serviceUrl(config: Config, service: ServiceName): string | undefined {
  return config[SERVICE_URL_VARS[service]];
}
