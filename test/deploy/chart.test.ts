/**
 * The Helm chart, offline: helm lint --strict, helm template with every values file under ci/
 * (external stores, production-like, trial, skaffold dev), each rendered object validated against
 * the Kubernetes schemas, values.schema.json and the template checks refusing values that cannot
 * run (no MongoDB, no Redis, the documentation's example secrets), and the notes shown after install.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';

import { EXAMPLE_SECRETS } from '#libs/config/env';
import { schemaErrors, unknownFieldErrors, validateManifests, type K8sObject } from '../../scripts/deploy/manifests';
import { helmLint, helmTemplate, objectsOrThrow } from '../../scripts/deploy/render';
import { CHART_DIR, CHART_NAME, versions } from '../../scripts/deploy/tools';
import { appDeployments, networkPolicyProblems } from '../../scripts/deploy/wiring';

const CI_DIR = path.join(CHART_DIR, 'ci');
/** MongoDB and Redis by URL: the least an install needs (the chart's defaults leave both empty). */
const EXTERNAL = path.join(CI_DIR, 'external-values.yaml');
const ciValues = fs
  .readdirSync(CI_DIR)
  .filter((f) => f.endsWith('-values.yaml'))
  .sort();

function kinds(objects: K8sObject[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of objects) out[o.kind] = (out[o.kind] ?? 0) + 1;
  return out;
}

describe('Helm chart charts/events-calendar', () => {
  test('helm and kubectl come from the npm package, offline', () => {
    const v = versions();
    expect(v.helm).toMatch(/^v3\.18\./);
    expect(v.kubectl).toMatch(/v1\.33\./);
  });

  test('Chart.yaml names the product', () => {
    const chart = parse(fs.readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as Record<string, string>;
    expect(chart.name).toBe(CHART_NAME);
    expect(chart.apiVersion).toBe('v2');
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('there is a production-like values file among the ci/ values', () => {
    expect(ciValues).toEqual(expect.arrayContaining(['external-values.yaml', 'production-values.yaml', 'trial-values.yaml', 'dev-values.yaml']));
  });

  test.each([['default values', ''], ...ciValues.map((f) => [f, f])])('helm lint --strict with %s', (_label, file) => {
    const r = helmLint(file ? [path.join(CI_DIR, file)] : []);
    expect(`${r.stdout}${r.stderr}`).toContain('0 chart(s) failed');
    expect(r.status).toBe(0);
  });

  describe('rendered objects are valid Kubernetes objects', () => {
    const renders: Array<[string, K8sObject[]]> = [
      ...ciValues.map((f): [string, K8sObject[]] => [f, objectsOrThrow(helmTemplate({ valuesFiles: [path.join(CI_DIR, f)] }), `helm template -f ${f}`)]),
    ];
    /** The chart's default values plus the two store URLs. */
    const external = renders.find(([l]) => l === 'external-values.yaml')![1];

    test.each(renders)('%s: schema of every object (kubernetes-models)', (_label, objects) => {
      expect(objects.length).toBeGreaterThan(10);
      expect(schemaErrors(objects)).toEqual([]);
    });

    test('no object has a field its Kubernetes type does not know (one compile for all renders)', () => {
      expect(unknownFieldErrors(renders.flatMap(([, objects]) => objects))).toEqual([]);
    });

    test('the render with the default values plus the two store URLs has every process', () => {
      const objects = external;
      const k = kinds(objects);
      expect(k).toMatchObject({ Deployment: 8, Service: 8, HorizontalPodAutoscaler: 3, PodDisruptionBudget: 1, ConfigMap: 4, Secret: 1, ServiceAccount: 1 });
      expect(k.NetworkPolicy).toBeGreaterThanOrEqual(3);
      expect(k.Ingress).toBeUndefined();
      expect(k.ServiceMonitor).toBeUndefined();
      expect(k.StatefulSet).toBeUndefined();
      const pdb = objects.find((o) => o.kind === 'PodDisruptionBudget');
      expect(pdb?.metadata.name).toBe('events-calendar-gateway');
      const workers = appDeployments(objects)
        .filter((d) => d.role === 'worker')
        .map((d) => d.name);
      expect(workers.sort()).toEqual(['events-calendar-worker-batch', 'events-calendar-worker-import', 'events-calendar-worker-oembed']);
      const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => o.metadata.name);
      expect(hpas.sort()).toEqual(workers.sort());
    });

    test('the production-like render has Ingress, ServiceMonitor, autoscaled gateway and no chart Secret', () => {
      const objects = renders.find(([l]) => l === 'production-values.yaml')![1];
      const k = kinds(objects);
      expect(k).toMatchObject({ Ingress: 1, ServiceMonitor: 1 });
      expect(k.Secret).toBeUndefined();
      const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => o.metadata.name);
      expect(hpas).toEqual(expect.arrayContaining(['events-calendar-gateway', 'events-calendar-worker-import']));
      for (const d of appDeployments(objects)) {
        expect(d.container.image).toBe('registry.example.com/events/events-calendar@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
      }
    });

    test('the trial render runs MongoDB and Redis inside the release and points the URLs at them', () => {
      const objects = renders.find(([l]) => l === 'trial-values.yaml')![1];
      expect(objects.find((o) => o.kind === 'StatefulSet')?.metadata.name).toBe('events-calendar-mongodb');
      expect(objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'events-calendar-redis')).toBe(true);
      const secret = objects.find((o) => o.kind === 'Secret') as unknown as { data: Record<string, string> };
      const decode = (k: string) => Buffer.from(secret.data[k], 'base64').toString();
      expect(decode('MONGO_URL')).toBe('mongodb://events-calendar-mongodb:27017');
      expect(decode('REDIS_URL')).toBe('redis://events-calendar-redis:6379');
      // Generated secrets have the shapes the application accepts.
      expect(decode('SERVICE_SECRET').length).toBeGreaterThanOrEqual(32);
      expect(decode('ADMIN_PASSWORD').length).toBeGreaterThanOrEqual(8);
      expect(decode('ADMIN_APP_PASSWORD')).toMatch(/^[A-Za-z0-9]{24}$/);
    });

    test('application containers run as non-root with a read-only root file system', () => {
      for (const [, objects] of renders) {
        for (const d of appDeployments(objects)) {
          expect(d.deployment.spec?.template.spec?.securityContext?.runAsNonRoot).toBe(true);
          expect(d.container.securityContext?.readOnlyRootFilesystem).toBe(true);
          expect(d.container.securityContext?.allowPrivilegeEscalation).toBe(false);
          expect(d.container.resources?.requests).toBeDefined();
        }
      }
    });

    test('clusters older than 1.30 get an exec preStop pause instead of the sleep action', () => {
      const old = objectsOrThrow(helmTemplate({ valuesFiles: [EXTERNAL], args: ['--kube-version', '1.28.0'] }), 'helm template --kube-version 1.28.0');
      expect(validateManifests(old)).toEqual([]);
      for (const d of appDeployments(old)) expect(d.container.lifecycle?.preStop?.exec?.command).toEqual(['sleep', '5']);
      for (const d of appDeployments(external)) expect(d.container.lifecycle?.preStop?.sleep?.seconds).toBe(5);
      const tooOld = helmTemplate({ valuesFiles: [EXTERNAL], args: ['--kube-version', '1.24.0'] });
      expect(tooOld.status).not.toBe(0);
    });

    test('the NetworkPolicy check notices a policy that lets every pod call the services', () => {
      const objects = structuredClone(external);
      const policy = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'events-calendar-services') as unknown as {
        spec: { ingress: Array<{ from?: unknown[] }> };
      };
      policy.spec.ingress[0].from = [{ podSelector: {} }];
      expect(networkPolicyProblems(objects).some((p) => p.includes('only the gateway and workers may call services'))).toBe(true);
    });

    test('the validation notices an invalid or misspelt field', () => {
      // Two Deployments, one mistake each (the compiler reports one mistake per object).
      const objects = structuredClone(external)
        .filter((o) => o.kind === 'Deployment')
        .slice(0, 2);
      const containerOf = (o: K8sObject) =>
        (o as unknown as { spec: { template: { spec: { containers: Array<Record<string, unknown>> } } } }).spec.template.spec.containers[0];
      containerOf(objects[0]).readinesProbe = containerOf(objects[0]).readinessProbe;
      containerOf(objects[1]).ports = [{ name: 'http', containerPort: '8080' }];
      const errors = validateManifests(objects);
      expect(errors.some((e) => e.includes('containerPort must be integer'))).toBe(true);
      expect(errors.some((e) => e.includes('readinesProbe'))).toBe(true);
    });
  });

  describe('values.schema.json refuses wrong values', () => {
    test.each<[string, Record<string, unknown>, RegExp]>([
      ['a string for a replica count', { gateway: { replicaCount: 'two' } }, /gateway\.replicaCount/],
      ['an unknown top-level key', { gatway: { replicaCount: 2 } }, /gatway/],
      ['an unknown key in a process', { services: { content: { replicas: 2 } } }, /replicas/],
      ['an unknown service', { services: { search: {} } }, /search/],
      ['an unknown queue', { workers: { import: { queues: ['imports'] } } }, /queues/],
      ['an unknown log level', { config: { logLevel: 'loud' } }, /logLevel/],
      ['a port out of range', { config: { port: 70000 } }, /config\.port/],
      ['a short service secret', { serviceSecret: 'too-short' }, /serviceSecret/],
      ['a boolean as a string', { ingress: { enabled: 'true' } }, /ingress\.enabled/],
      ['a bad service type', { gateway: { service: { type: 'Public' } } }, /gateway\.service\.type/],
      [
        'a bad worker group name',
        {
          workers: {
            Bad_Name: {
              enabled: false,
              queues: ['batch'],
              concurrency: 1,
              replicaCount: 1,
              resources: {},
              autoscaling: { enabled: false, minReplicas: 1, maxReplicas: 1, targetCPUUtilizationPercentage: 50 },
              pdb: { enabled: false },
            },
          },
        },
        /Bad_Name|workers/,
      ],
      ['a non-MongoDB URL', { mongo: { url: 'postgres://db' } }, /mongo\.url/],
    ])('%s', (_label, values, message) => {
      const r = helmTemplate({ values });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(message);
    });

    test('a wrong type on the command line fails too', () => {
      const r = helmTemplate({ args: ['--set', 'workers.import.concurrency=many'] });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/workers\.import\.concurrency/);
    });

    test('values that contradict each other stop the render with a clear message', () => {
      const noBatch = helmTemplate({ valuesFiles: [EXTERNAL], values: { workers: { batch: { enabled: false } } } });
      expect(noBatch.status).not.toBe(0);
      expect(noBatch.stderr).toContain('no enabled worker group consumes the "batch" queue');
      const bothPdb = helmTemplate({ valuesFiles: [EXTERNAL], values: { gateway: { pdb: { enabled: true, minAvailable: 1, maxUnavailable: 1 } } } });
      expect(bothPdb.status).not.toBe(0);
      expect(bothPdb.stderr).toContain('gateway.pdb: set minAvailable or maxUnavailable, not both');
    });

    test('a worker group added in values gets its own Deployment, ConfigMap and HPA', () => {
      const objects = objectsOrThrow(
        helmTemplate({
          valuesFiles: [EXTERNAL],
          values: {
            workers: {
              'import-bulk': {
                enabled: true,
                queues: ['import'],
                concurrency: 1,
                replicaCount: 1,
                resources: { requests: { cpu: '1', memory: '1Gi' } },
                autoscaling: { enabled: true, minReplicas: 2, maxReplicas: 40, targetCPUUtilizationPercentage: 80 },
                pdb: { enabled: false },
              },
            },
          },
        }),
        'helm template',
      );
      for (const kind of ['Deployment', 'ConfigMap', 'HorizontalPodAutoscaler', 'Service']) {
        expect(objects.some((o) => o.kind === kind && o.metadata.name === 'events-calendar-worker-import-bulk')).toBe(true);
      }
    });
  });

  describe('values that cannot run stop the render with what to set', () => {
    test.each<[string, string[], Record<string, unknown> | undefined, string]>([
      ['the default values (no MongoDB)', [], undefined, 'MongoDB is not configured: set mongo.url or existingSecret'],
      ['MongoDB but no Redis', [], { mongo: { url: 'mongodb://mongo:27017' } }, 'Redis is not configured: set redis.url or existingSecret'],
      ['Redis but no MongoDB', [], { redis: { url: 'redis://redis:6379' } }, 'MongoDB is not configured: set mongo.url or existingSecret'],
      ['an in-release Redis but no MongoDB', [], { redis: { internal: { enabled: true } } }, 'MongoDB is not configured'],
    ])('%s', (_label, valuesFiles, values, message) => {
      const r = helmTemplate({ valuesFiles, values });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(message);
    });

    test('the same values run once the stores are set: by URL, by existingSecret or inside the release', () => {
      for (const values of [
        { mongo: { url: 'mongodb://mongo:27017' }, redis: { url: 'redis://redis:6379' } },
        { existingSecret: 'my-secrets' },
        { mongo: { internal: { enabled: true } }, redis: { internal: { enabled: true } } },
        { mongo: { url: 'mongodb://mongo:27017' }, redis: { internal: { enabled: true } } },
      ]) {
        const r = helmTemplate({ values });
        expect([values, r.stderr]).toEqual([values, '']);
        expect(schemaErrors(r.objects)).toEqual([]);
      }
    });

    test('the chart refuses the same example secrets as the application (ec.exampleSecrets = EXAMPLE_SECRETS)', () => {
      const tpl = fs.readFileSync(path.join(CHART_DIR, 'templates', '_validate.tpl'), 'utf8');
      const block = /\{\{- define "ec\.exampleSecrets" -\}\}\n([\s\S]*?)\{\{- end \}\}/.exec(tpl);
      expect(block).not.toBeNull();
      expect(parse(block![1])).toEqual(EXAMPLE_SECRETS);
    });

    const key = { SERVICE_SECRET: 'serviceSecret', ADMIN_PASSWORD: 'admin.password', ADMIN_APP_PASSWORD: 'admin.appPassword' } as const;
    const setAt = (dotted: string, value: string): Record<string, unknown> =>
      dotted.split('.').reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
    test.each(
      (Object.keys(EXAMPLE_SECRETS) as Array<keyof typeof EXAMPLE_SECRETS>).flatMap((name) =>
        EXAMPLE_SECRETS[name].map((value): [string, string] => [
          key[name],
          name === 'ADMIN_APP_PASSWORD' ? value.toUpperCase().replace(/(.{4})(?!$)/g, '$1 ') : value,
        ]),
      ),
    )('%s set to the documented example %p is refused', (dotted, value) => {
      const r = helmTemplate({ valuesFiles: [EXTERNAL], values: setAt(dotted, value) });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`${dotted} is the example value shown in the documentation`);
    });
  });

  test('values.yaml documents every key it sets', () => {
    // A key needs a "# --" comment right above it unless it only groups documented keys, or an
    // ancestor's comment already describes it as a whole (e.g. resources, podSecurityContext).
    const lines = fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8').split('\n');
    const undocumented: string[] = [];
    const stack: Array<{ indent: number; documented: boolean; key: string }> = [];
    lines.forEach((line, i) => {
      const m = /^(\s*)(- )?([A-Za-z0-9_.-]+):(.*)$/.exec(line);
      if (!m) return;
      const indent = m[1].length + (m[2] ? 2 : 0);
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      let j = i - 1;
      while (j >= 0 && /^\s*#/.test(lines[j]) && !/^\s*# --/.test(lines[j])) j--;
      const documented = j >= 0 && /^\s*# --/.test(lines[j]);
      const covered = stack.some((s) => s.documented) || Boolean(m[2]);
      const rest = m[4].trim();
      const next = lines.slice(i + 1).find((l) => l.trim() && !/^\s*#/.test(l)) ?? '';
      const isSection = rest === '' && /^\s*[A-Za-z0-9_.-]+:/.test(next) && next.search(/\S/) > indent;
      if (!documented && !covered && !isSection) undocumented.push(`line ${i + 1}: ${line.trim()}`);
      stack.push({ indent, documented: documented || covered, key: m[3] });
    });
    expect(undocumented).toEqual([]);
  });

  test('the notes shown after install tell how to reach the API and get the credentials', () => {
    // helm template does not render NOTES.txt; render it through a copy of the chart where it is a template.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-notes-'));
    try {
      fs.cpSync(CHART_DIR, copy, { recursive: true });
      fs.copyFileSync(path.join(copy, 'templates', 'NOTES.txt'), path.join(copy, 'notes.txt'));
      fs.writeFileSync(
        path.join(copy, 'templates', 'zz-notes.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  NOTES: {{ tpl (.Files.Get "notes.txt") . | quote }}\n',
      );
      const notesFor = (args: Partial<Parameters<typeof helmTemplate>[0]>) => {
        const r = helmTemplate({ chartDir: copy, namespace: 'events', args: ['--show-only', 'templates/zz-notes.yaml'], ...args });
        expect(r.stderr).toBe('');
        return (r.objects[0] as unknown as { data: { NOTES: string } }).data.NOTES;
      };
      const plain = notesFor({ valuesFiles: [EXTERNAL] });
      expect(plain).toContain('kubectl port-forward -n events svc/events-calendar-gateway 8080:80');
      expect(plain).toContain('/index.php/cms-json/');
      expect(plain).toContain("kubectl get secret -n events events-calendar -o jsonpath='{.data.ADMIN_APP_PASSWORD}'");
      expect(plain).not.toContain('WARNING');
      const production = notesFor({ valuesFiles: [path.join(CI_DIR, 'production-values.yaml')] });
      expect(production).toContain('curl https://events.example.com/index.php/cms-json/');
      expect(production).toContain('events-calendar-secrets');
      expect(production).not.toContain('WARNING');
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
