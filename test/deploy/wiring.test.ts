/**
 * The Helm chart's wiring against the code: libs/config/env.ts is the list of every variable the
 * code reads and of the roles that read it. A variable added there without a values key here fails
 * the type check (SETTINGS is a Record over every variable); a mapping removed from the chart fails
 * the render checks below.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { CLUSTER_ROLES, ENV, type EnvName } from '#libs/config/env';
import { helmTemplate, objectsOrThrow } from '../../scripts/deploy/render';
import { CHART_DIR } from '../../scripts/deploy/tools';
import {
  appDeployments,
  clusterVariables,
  envPresenceProblems,
  envValueProblems,
  probeProblems,
  rolesReading,
  serviceUrlProblems,
  startupConfigProblems,
  wiringProblems,
  type AppDeployment,
  type Expectation,
} from '../../scripts/deploy/wiring';

/** How a variable is set from values: a values path and a distinctive value, or derived by the chart. */
type Setting =
  { path: string; value: unknown; expect?: string } | { derived: 'service-url' } | { perWorkerGroup: (group: string) => { value: unknown; expect: string } };

// A queue layout that still consumes every queue: the batch group also takes oembed.
const WORKER_QUEUES: Record<string, string[]> = { batch: ['batch', 'oembed'], import: ['import', 'geocode'], oembed: ['oembed'] };

/** One entry per variable in ENV, so that the compiler refuses a variable the chart cannot set. */
const SETTINGS: Record<EnvName, Setting> = {
  PORT: { path: 'config.port', value: 9090 },
  HOST: { path: 'config.host', value: '::' },
  SITE_URL: { path: 'config.siteUrl', value: 'https://wiring.example.org' },
  SITE_NAME: { path: 'config.siteName', value: 'Wiring Events' },
  SITE_DESCRIPTION: { path: 'config.siteDescription', value: 'Wired by the test' },
  SITE_TIMEZONE: { path: 'config.siteTimezone', value: 'Europe/Lisbon' },
  EDITION: { path: 'edition', value: 'extended' },
  DATA_DIR: { path: 'config.dataDir', value: '/tmp/wiring-data' },
  MONGO_URL: { path: 'mongo.url', value: 'mongodb://wiring:secret@mongo.example.org:27017/?authSource=admin' },
  MONGO_DB: { path: 'mongo.database', value: 'wiringdb' },
  REDIS_URL: { path: 'redis.url', value: 'redis://:secret@redis.example.org:6379/3' },
  QUEUE_PREFIX: { path: 'config.queuePrefix', value: 'wiringq' },
  CONTENT_SERVICE_URL: { derived: 'service-url' },
  CALENDAR_SERVICE_URL: { derived: 'service-url' },
  AGGREGATOR_SERVICE_URL: { derived: 'service-url' },
  OEMBED_SERVICE_URL: { derived: 'service-url' },
  SERVICE_SECRET: { path: 'serviceSecret', value: 'wiring-service-secret-0123456789abcdef' },
  ADMIN_USER: { path: 'admin.user', value: 'wiring-admin' },
  ADMIN_EMAIL: { path: 'admin.email', value: 'wiring@example.org' },
  ADMIN_PASSWORD: { path: 'admin.password', value: 'wiring-password' },
  ADMIN_APP_PASSWORD: { path: 'admin.appPassword', value: 'abcd efgh ijkl mnop qrst uvwx' },
  MAX_BODY_BYTES: { path: 'config.maxBodyBytes', value: 4194304 },
  IMPORT_FEED_MAX_BYTES: { path: 'config.importFeedMaxBytes', value: 8388608 },
  IMPORT_MIN_INTERVAL_SECONDS: { path: 'config.importMinIntervalSeconds', value: 42 },
  AUTH_FAILURE_LIMIT: { path: 'config.authFailureLimit', value: 17 },
  AUTH_FAILURE_WINDOW_SECONDS: { path: 'config.authFailureWindowSeconds', value: 123 },
  TRUST_PROXY_HOPS: { path: 'config.trustProxyHops', value: 2 },
  HEADERS_TIMEOUT_MS: { path: 'config.headersTimeoutMs', value: 7000 },
  MAX_CONNECTIONS_PER_ADDRESS: { path: 'config.maxConnectionsPerAddress', value: 77 },
  OUTBOUND_ALLOW_HOSTS: { path: 'config.outboundAllowHosts', value: ['intranet.example.org', '10.0.0.5:8443'], expect: 'intranet.example.org,10.0.0.5:8443' },
  WORKER_QUEUES: { perWorkerGroup: (g) => ({ value: WORKER_QUEUES[g], expect: WORKER_QUEUES[g].join(',') }) },
  WORKER_CONCURRENCY: {
    perWorkerGroup: (g) => ({ value: 10 + Object.keys(WORKER_QUEUES).indexOf(g), expect: String(10 + Object.keys(WORKER_QUEUES).indexOf(g)) }),
  },
  GEOCODER_PROVIDER: { path: 'config.geocoderProvider', value: 'nominatim' },
  GEOCODER_URL: { path: 'config.geocoderUrl', value: 'https://geocoder.example.org/search' },
  GEOCODER_API_KEY: { path: 'geocoderApiKey', value: 'wiring-geocoder-key' },
  GEOCODER_RATE_PER_SECOND: { path: 'config.geocoderRatePerSecond', value: 2.5 },
  GEOCODER_TIMEOUT_MS: { path: 'config.geocoderTimeoutMs', value: 4321 },
  BATCH_TIMEOUT_MS: { path: 'config.batchTimeoutMs', value: 45000 },
  SHUTDOWN_TIMEOUT_MS: { path: 'config.shutdownTimeoutMs', value: 20000 },
  LOG_LEVEL: { path: 'config.logLevel', value: 'debug' },
};

const WORKER_FIELD: Partial<Record<EnvName, string>> = { WORKER_QUEUES: 'queues', WORKER_CONCURRENCY: 'concurrency' };

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

function isSecret(name: EnvName): boolean {
  return (ENV[name] as { secret?: boolean }).secret === true;
}

function groupOf(d: AppDeployment): string {
  return d.podLabels['events-calendar/worker-group'];
}

/** Values that set every variable to a distinctive value, and what each Deployment must then see. */
function distinctiveValues(): { values: Record<string, unknown>; expected: Partial<Record<EnvName, Expectation>> } {
  const values: Record<string, unknown> = {};
  const expected: Partial<Record<EnvName, Expectation>> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as Array<[EnvName, Setting]>) {
    if ('path' in setting) {
      setPath(values, setting.path, setting.value);
      const want = setting.expect ?? String(setting.value);
      expected[name] = () => want;
    } else if ('perWorkerGroup' in setting) {
      for (const group of Object.keys(WORKER_QUEUES)) setPath(values, `workers.${group}.${WORKER_FIELD[name]}`, setting.perWorkerGroup(group).value);
      expected[name] = (d) => setting.perWorkerGroup(groupOf(d)).expect;
    }
  }
  return { values, expected };
}

/** The chart's default values plus the two store URLs (the defaults alone do not render). */
const EXTERNAL = path.join(CHART_DIR, 'ci', 'external-values.yaml');

describe('chart wiring against libs/config/env.ts', () => {
  const defaults = objectsOrThrow(helmTemplate({ valuesFiles: [EXTERNAL] }), 'helm template (default values and store URLs)');
  const production = objectsOrThrow(helmTemplate({ valuesFiles: [path.join(CHART_DIR, 'ci', 'production-values.yaml')] }), 'helm template (production)');
  const trial = objectsOrThrow(helmTemplate({ valuesFiles: [path.join(CHART_DIR, 'ci', 'trial-values.yaml')] }), 'helm template (trial)');

  test('every cluster role has a Deployment running it', () => {
    for (const objects of [defaults, production, trial]) {
      const roles = new Set(appDeployments(objects).map((d) => d.role));
      expect([...roles].sort()).toEqual([...CLUSTER_ROLES].sort());
    }
  });

  test('the env table covers every variable that a cluster process reads', () => {
    // Variables read only by the all-in-one process need no wiring; every other one does.
    const wired = clusterVariables();
    expect(wired.length).toBeGreaterThan(0);
    for (const name of Object.keys(ENV) as EnvName[]) {
      if (!wired.includes(name)) expect(ENV[name].roles).toEqual(['all']);
    }
  });

  test.each([
    ['default values and store URLs', () => defaults, []],
    ['production values', () => production, ['events-calendar-secrets']],
    ['trial values', () => trial, []],
  ])('structure with %s: env per role, probes, service URLs, NetworkPolicy, scaling', (_label, objects, externalSecrets) => {
    expect(wiringProblems(objects(), { externalSecrets })).toEqual([]);
  });

  test('each process of the trial and of the store-URL render passes the application start-up checks with its env', () => {
    expect(startupConfigProblems(trial)).toEqual([]);
    expect(startupConfigProblems(defaults)).toEqual([]);
  });

  test('the start-up check notices what the application would refuse', () => {
    // An empty MONGO_URL in the Secret (the chart refuses to render one): every process would stop.
    const objects = structuredClone(defaults);
    const secret = objects.find((o) => o.kind === 'Secret') as unknown as { data: Record<string, string> };
    secret.data.MONGO_URL = '';
    const problems = startupConfigProblems(objects);
    expect(problems.length).toBe(appDeployments(objects).length);
    expect(problems.every((p) => p.includes('missing MONGO_URL'))).toBe(true);
  });

  test('with an existingSecret the secret variables come from it and the chart creates no Secret', () => {
    const objects = production;
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const d of appDeployments(objects)) {
      for (const name of clusterVariables().filter((n) => isSecret(n) && rolesReading(n).includes(d.role))) {
        const entry = (d.container.env ?? []).find((e) => e.name === name);
        expect(entry?.valueFrom?.secretKeyRef?.name).toBe('events-calendar-secrets');
        expect(entry?.valueFrom?.secretKeyRef?.key).toBe(name);
      }
    }
  });

  test('every variable is settable from values and reaches exactly the processes that read it', () => {
    const { values, expected } = distinctiveValues();
    const objects = objectsOrThrow(helmTemplate({ values }), 'helm template (distinctive values)');
    expect(envPresenceProblems(objects)).toEqual([]);
    expect(envValueProblems(objects, expected)).toEqual([]);
    // Derived ones: the service URLs follow the Services (port included), and probes follow PORT.
    expect(serviceUrlProblems(objects)).toEqual([]);
    expect(probeProblems(objects)).toEqual([]);
    expect(startupConfigProblems(objects)).toEqual([]);
    // Every variable was either set or derived.
    for (const name of clusterVariables()) expect(expected[name] ?? SETTINGS[name]).toBeDefined();
  });

  test('secret variables sit in the Secret, the others in ConfigMaps', () => {
    const { values } = distinctiveValues();
    const objects = objectsOrThrow(helmTemplate({ values }), 'helm template (distinctive values)');
    for (const d of appDeployments(objects)) {
      for (const e of d.container.env ?? []) {
        if (!(e.name in ENV)) continue;
        expect([e.name, Boolean(e.valueFrom?.secretKeyRef)]).toEqual([e.name, isSecret(e.name as EnvName)]);
      }
    }
  });

  test('service URLs follow a changed service port', () => {
    const objects = objectsOrThrow(helmTemplate({ valuesFiles: [EXTERNAL], values: { services: { calendar: { service: { port: 8181 } } } } }), 'helm template');
    expect(serviceUrlProblems(objects)).toEqual([]);
    const gateway = appDeployments(objects).find((d) => d.role === 'gateway');
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'events-calendar') as unknown as { data: Record<string, string> };
    expect(gateway).toBeDefined();
    expect(cm.data.CALENDAR_SERVICE_URL).toBe('http://events-calendar-calendar:8181');
  });

  test('SITE_URL follows the first ingress host when not set', () => {
    const objects = objectsOrThrow(
      helmTemplate({
        valuesFiles: [EXTERNAL],
        values: {
          ingress: {
            enabled: true,
            hosts: [{ host: 'cal.example.net' }],
            tls: [{ secretName: 't', hosts: ['cal.example.net'] }],
          },
        },
      }),
      'helm template',
    );
    expect(envValueProblems(objects, { SITE_URL: () => 'https://cal.example.net' })).toEqual([]);
  });

  test('the checks notice a variable the chart stops passing on', () => {
    // Copy the chart and drop one row of its env table: the presence check must report it.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-chart-'));
    try {
      fs.cpSync(CHART_DIR, copy, { recursive: true });
      const table = path.join(copy, 'templates', '_env.tpl');
      const text = fs.readFileSync(table, 'utf8');
      const dropped = text.replace(/^QUEUE_PREFIX: .*\n/m, '');
      expect(dropped).not.toBe(text);
      fs.writeFileSync(table, dropped);
      const objects = objectsOrThrow(helmTemplate({ chartDir: copy, valuesFiles: [EXTERNAL] }), 'helm template (mutated chart)');
      const problems = envPresenceProblems(objects);
      expect(problems.length).toBe(appDeployments(objects).length);
      expect(problems.every((p) => p.includes('reads QUEUE_PREFIX but its env does not set it'))).toBe(true);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
