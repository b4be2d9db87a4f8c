/**
 * The raw manifests under k8s/: generated from the chart (and checked to still be what the chart
 * renders), and every kustomization rendered with `kubectl kustomize` and validated like the chart.
 * The example overlay builds only with a secrets.env the user writes; the tests write one into a
 * copy of k8s/ (never into the repository).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { BASE_VALUES, RELEASE, existingGeneratedFiles, generateK8s } from '../../scripts/deploy/k8s';
import { validateManifests, type K8sObject } from '../../scripts/deploy/manifests';
import { helmTemplate, kustomize, objectsOrThrow } from '../../scripts/deploy/render';
import { K8S_DIR } from '../../scripts/deploy/tools';
import { appDeployments, envValueProblems, resolveEnv, startupConfigProblems, wiringProblems } from '../../scripts/deploy/wiring';

const overlays = fs.readdirSync(path.join(K8S_DIR, 'overlays')).sort();
const EXAMPLE_DIR = path.join(K8S_DIR, 'overlays', 'example');

/** What a user writes into k8s/overlays/example/secrets.env: values of their own. */
const USER_SECRETS = {
  SERVICE_SECRET: 'user-service-secret-9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  MONGO_URL: 'mongodb://calendar:s3cret@mongo-0.db.internal:27017/?authSource=admin&replicaSet=rs0',
  REDIS_URL: 'redis://:r3dis@redis.db.internal:6379/2',
  ADMIN_PASSWORD: 'a-long-account-password-of-my-own',
  ADMIN_APP_PASSWORD: 'Q7wE r9tY u1iO p3aS d5fG h7jK',
};

/**
 * `kubectl kustomize` of the example overlay in a copy of k8s/, with `secrets` as its secrets.env
 * (undefined: without one, as a fresh checkout has it).
 */
function buildExample(secrets: string | undefined) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-k8s-'));
  try {
    fs.cpSync(K8S_DIR, copy, { recursive: true });
    const file = path.join(copy, 'overlays', 'example', 'secrets.env');
    fs.rmSync(file, { force: true });
    if (secrets !== undefined) fs.writeFileSync(file, secrets);
    return kustomize(path.join(copy, 'overlays', 'example'));
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

const userSecretsEnv = Object.entries(USER_SECRETS)
  .map(([k, v]) => `${k}=${v}\n`)
  .join('');
/** The overlays as a user builds them: the example one with a secrets.env of the user's. */
const renderOverlay = (overlay: string) => (overlay === 'example' ? buildExample(userSecretsEnv) : kustomize(path.join(K8S_DIR, 'overlays', overlay)));

/** kind/name, with kustomize's content-hash suffix of generated ConfigMaps and Secrets removed. */
function ids(objects: K8sObject[]): string[] {
  return objects.map((o) => `${o.kind}/${['ConfigMap', 'Secret'].includes(o.kind) ? o.metadata.name.replace(/-[a-z0-9]{10}$/, '') : o.metadata.name}`).sort();
}

describe('k8s/ raw manifests', () => {
  test('the generated files are what the chart renders now (regenerate: node -r ./scripts/ts-register.js scripts/deploy/generate-k8s.ts)', () => {
    const generated = generateK8s();
    expect(existingGeneratedFiles()).toEqual([...generated.keys()].sort());
    for (const [rel, text] of generated) {
      expect([rel, fs.readFileSync(path.join(K8S_DIR, rel), 'utf8')]).toEqual([rel, text]);
    }
  });

  test('the base holds the same objects as the chart renders with k8s/helm-values.yaml', () => {
    const chart = objectsOrThrow(helmTemplate({ release: RELEASE, valuesFiles: [BASE_VALUES] }), 'helm template');
    const base = objectsOrThrow(kustomize(path.join(K8S_DIR, 'base')), 'kubectl kustomize k8s/base');
    expect(ids(base)).toEqual(ids(chart));
    // Same specs too, apart from Helm's labels and checksums.
    const strip = (o: K8sObject) => o.spec ?? null;
    for (const o of chart) {
      if (o.kind === 'ConfigMap') {
        const cm = base.find(
          (b) => b.kind === 'ConfigMap' && b.metadata.name.startsWith(`${o.metadata.name}-`) && b.metadata.name.length === o.metadata.name.length + 11,
        );
        expect([o.metadata.name, (cm as { data?: unknown } | undefined)?.data]).toEqual([o.metadata.name, (o as { data?: unknown }).data]);
      } else if (o.kind !== 'Deployment') {
        const twin = base.find((b) => b.kind === o.kind && b.metadata.name === o.metadata.name);
        expect([o.kind, o.metadata.name, twin && strip(twin)]).toEqual([o.kind, o.metadata.name, strip(o)]);
      }
    }
  });

  test('k8s/base renders, validates and is wired like the chart', () => {
    const base = objectsOrThrow(kustomize(path.join(K8S_DIR, 'base')), 'kubectl kustomize k8s/base');
    expect(validateManifests(base)).toEqual([]);
    expect(wiringProblems(base, { externalSecrets: ['events-calendar-secrets'] })).toEqual([]);
  });

  test('there is an overlay example', () => {
    expect(overlays).toContain('example');
  });

  test.each(overlays)('k8s/overlays/%s renders, validates and is wired like the chart', (overlay) => {
    const objects = objectsOrThrow(renderOverlay(overlay), `kubectl kustomize k8s/overlays/${overlay}`);
    expect(validateManifests(objects)).toEqual([]);
    expect(wiringProblems(objects)).toEqual([]);
    expect(startupConfigProblems(objects)).toEqual([]);
    const namespaced = objects.filter((o) => o.kind !== 'Namespace');
    const namespaces = new Set(namespaced.map((o) => o.metadata.namespace));
    expect(namespaces.size).toBe(1);
    expect(objects.some((o) => o.kind === 'Namespace' && namespaces.has(o.metadata.name))).toBe(true);
  });

  test('the example overlay does not build without the secrets.env the user writes, and names it', () => {
    const r = buildExample(undefined);
    expect(r.status).not.toBe(0);
    // The words k8s/README.md quotes.
    expect(r.stderr).toContain('overlays/example/secrets.env: no such file or directory');
  });

  test('the repository holds only the template of secrets.env, and git ignores secrets.env', () => {
    expect(fs.existsSync(path.join(EXAMPLE_DIR, 'secrets.env.example'))).toBe(true);
    const ignored = fs
      .readFileSync(path.join(EXAMPLE_DIR, '.gitignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toContain('secrets.env');
  });

  test('with a secrets.env of the user the example overlay builds and carries exactly the user values', () => {
    const objects = objectsOrThrow(buildExample(userSecretsEnv), 'kubectl kustomize');
    const expected = Object.fromEntries(Object.entries(USER_SECRETS).map(([k, v]) => [k, () => v]));
    expect(envValueProblems(objects, expected)).toEqual([]);
    expect(startupConfigProblems(objects)).toEqual([]);
  });

  test('the template copied unchanged builds, but every process refuses its example secrets at start-up', () => {
    const objects = objectsOrThrow(buildExample(fs.readFileSync(path.join(EXAMPLE_DIR, 'secrets.env.example'), 'utf8')), 'kubectl kustomize');
    const problems = startupConfigProblems(objects);
    expect(problems.length).toBe(appDeployments(objects).length);
    for (const p of problems) expect(p).toContain('SERVICE_SECRET is the example value shown in the documentation');
    const content = problems.filter((p) => p.includes('(content)'));
    expect(content.length).toBeGreaterThan(0);
    for (const p of content) {
      expect(p).toContain('ADMIN_PASSWORD is the example value');
      expect(p).toContain('ADMIN_APP_PASSWORD is the example value');
    }
  });

  test('the example overlay sets the image, the public URL, the Ingress host and the secret settings', () => {
    const objects = objectsOrThrow(buildExample(userSecretsEnv), 'kubectl kustomize');
    for (const d of appDeployments(objects)) expect(d.container.image).toBe('registry.example.com/events/events-calendar:0.1.0');
    expect(
      envValueProblems(objects, {
        SITE_URL: () => 'https://events.example.com',
        WORKER_CONCURRENCY: (d) => (d.name.endsWith('-import') ? '2' : d.name.endsWith('-oembed') ? '8' : '4'),
      }),
    ).toEqual([]);
    const ingress = objects.find((o) => o.kind === 'Ingress') as unknown as { spec: { rules: Array<{ host: string }>; tls: unknown[] } };
    expect(ingress.spec.rules[0].host).toBe('events.example.com');
    expect(ingress.spec.tls).toHaveLength(1);
    const gateway = appDeployments(objects).find((d) => d.role === 'gateway')!;
    const secretEnv = gateway.container.env!.find((e) => e.name === 'SERVICE_SECRET')!;
    expect(resolveEnv(objects, secretEnv).value!.length).toBeGreaterThanOrEqual(32);
  });

  test('the trial overlay runs MongoDB and Redis in the namespace and points the URLs at them', () => {
    const objects = objectsOrThrow(kustomize(path.join(K8S_DIR, 'overlays', 'trial')), 'kubectl kustomize');
    expect(objects.some((o) => o.kind === 'StatefulSet' && o.metadata.name === 'events-calendar-mongodb')).toBe(true);
    expect(objects.some((o) => o.kind === 'Service' && o.metadata.name === 'events-calendar-redis')).toBe(true);
    expect(
      envValueProblems(objects, { MONGO_URL: () => 'mongodb://events-calendar-mongodb:27017', REDIS_URL: () => 'redis://events-calendar-redis:6379' }),
    ).toEqual([]);
  });
});
