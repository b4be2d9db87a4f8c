/**
 * The raw manifests under k8s/ are generated from the Helm chart, so the two cannot drift apart:
 *
 *   k8s/helm-values.yaml                     values the base is rendered with (hand-written)
 *   k8s/base/                                every object of the chart; ConfigMaps as generators
 *   k8s/components/ingress/                  the chart's Ingress, as a kustomize Component
 *   k8s/components/in-cluster-datastores/    the chart's trial MongoDB and Redis, as a Component
 *   k8s/overlays/*                           hand-written examples on top of those
 *
 * `generateK8s()` returns the generated files; scripts/deploy/generate-k8s.ts writes them and
 * test/deploy/k8s.test.ts checks that the committed ones are the same.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';

import type { K8sObject } from './manifests';
import { helmTemplate, objectsOrThrow } from './render';
import { K8S_DIR } from './tools';

export const RELEASE = 'events-calendar';
export const BASE_VALUES = path.join(K8S_DIR, 'helm-values.yaml');
/** Folders whose files are all generated (anything else in them is stale). */
export const GENERATED_DIRS = ['base', path.join('components', 'ingress'), path.join('components', 'in-cluster-datastores')];

const HEADER = [
  '# Generated from charts/events-calendar by scripts/deploy/generate-k8s.ts; do not edit by hand.',
  '# Change the chart (or k8s/helm-values.yaml) and regenerate; CI fails while the two differ.',
].join('\n');

/** Helm's bookkeeping that means nothing without Helm. */
function withoutHelmMarks(o: K8sObject): K8sObject {
  const copy = structuredClone(o);
  const labels = copy.metadata.labels;
  if (labels) {
    delete labels['helm.sh/chart'];
    if (labels['app.kubernetes.io/managed-by'] === 'Helm') labels['app.kubernetes.io/managed-by'] = 'kustomize';
  }
  // Config checksums roll pods on `helm upgrade`; kustomize's generated ConfigMap names do that here.
  const template = (copy.spec as { template?: { metadata?: { annotations?: Record<string, string> } } } | undefined)?.template;
  const annotations = template?.metadata?.annotations;
  if (annotations) {
    for (const k of Object.keys(annotations)) if (k.startsWith('checksum/')) delete annotations[k];
    if (Object.keys(annotations).length === 0) delete template.metadata!.annotations;
  }
  return copy;
}

function yamlDocs(objects: K8sObject[]): string {
  return `${HEADER}\n${objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n')}`;
}

function kustomization(body: Record<string, unknown>): string {
  return `${HEADER}\n${stringify(body, { lineWidth: 0 })}`;
}

const FILE_OF_KIND: Record<string, string> = {
  ServiceAccount: 'serviceaccount.yaml',
  Secret: 'secret.yaml',
  Deployment: 'deployments.yaml',
  StatefulSet: 'statefulsets.yaml',
  Service: 'services.yaml',
  HorizontalPodAutoscaler: 'hpa.yaml',
  PodDisruptionBudget: 'pdb.yaml',
  NetworkPolicy: 'networkpolicies.yaml',
  Ingress: 'ingress.yaml',
  ServiceMonitor: 'servicemonitor.yaml',
};

/** Objects grouped into one file per kind, in a fixed order. */
function filesByKind(objects: K8sObject[]): Map<string, K8sObject[]> {
  const files = new Map<string, K8sObject[]>();
  for (const kind of Object.keys(FILE_OF_KIND)) {
    const ofKind = objects.filter((o) => o.kind === kind);
    if (ofKind.length) files.set(FILE_OF_KIND[kind], ofKind);
  }
  const unknown = objects.filter((o) => o.kind !== 'ConfigMap' && !FILE_OF_KIND[o.kind]);
  if (unknown.length) throw new Error(`no k8s/ file for kinds ${unknown.map((o) => o.kind).join(', ')}`);
  return files;
}

function render(values?: Record<string, unknown>): K8sObject[] {
  return objectsOrThrow(helmTemplate({ release: RELEASE, valuesFiles: [BASE_VALUES], values }), 'helm template for k8s/').map(withoutHelmMarks);
}

/** Generated files, keyed by their path relative to k8s/. */
export function generateK8s(): Map<string, string> {
  const out = new Map<string, string>();

  // Base: everything the chart renders with k8s/helm-values.yaml.
  const base = render();
  const configMaps = base.filter((o) => o.kind === 'ConfigMap') as Array<K8sObject & { data?: Record<string, string> }>;
  const files = filesByKind(base);
  for (const [file, objects] of files) out.set(path.join('base', file), yamlDocs(objects));
  out.set(
    path.join('base', 'kustomization.yaml'),
    kustomization({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [...files.keys()],
      // Generated ConfigMaps get a content hash in their name, so a changed setting rolls the pods.
      configMapGenerator: configMaps.map((cm) => ({
        name: cm.metadata.name,
        options: { labels: cm.metadata.labels },
        literals: Object.entries(cm.data ?? {}).map(([k, v]) => `${k}=${v}`),
      })),
    }),
  );

  // Ingress component: the chart's Ingress for a placeholder host that overlays patch.
  const ingress = render({
    ingress: { enabled: true, hosts: [{ host: 'events.example.com' }] },
  }).filter((o) => o.kind === 'Ingress');
  out.set(path.join('components', 'ingress', 'ingress.yaml'), yamlDocs(ingress));
  out.set(
    path.join('components', 'ingress', 'kustomization.yaml'),
    kustomization({ apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component', resources: ['ingress.yaml'] }),
  );

  // Trial datastores component: the chart's in-release MongoDB and Redis with their NetworkPolicies.
  const stores = render({ mongo: { internal: { enabled: true } }, redis: { internal: { enabled: true } } }).filter((o) =>
    ['mongodb', 'redis'].includes(o.metadata.labels?.['app.kubernetes.io/component'] ?? ''),
  );
  const storeFiles = filesByKind(stores);
  for (const [file, objects] of storeFiles) out.set(path.join('components', 'in-cluster-datastores', file), yamlDocs(objects));
  out.set(
    path.join('components', 'in-cluster-datastores', 'kustomization.yaml'),
    kustomization({ apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component', resources: [...storeFiles.keys()] }),
  );
  return out;
}

/** Files present now in the generated folders (relative to k8s/). */
export function existingGeneratedFiles(root = K8S_DIR): string[] {
  const found: string[] = [];
  for (const dir of GENERATED_DIRS) {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) continue;
    for (const f of fs.readdirSync(abs)) if (fs.statSync(path.join(abs, f)).isFile()) found.push(path.join(dir, f));
  }
  return found.sort();
}

/** Writes the generated files and removes stale ones from the generated folders. */
export function writeK8s(root = K8S_DIR): { written: string[]; removed: string[] } {
  const files = generateK8s();
  const removed = existingGeneratedFiles(root).filter((f) => !files.has(f));
  for (const f of removed) fs.rmSync(path.join(root, f));
  for (const [rel, text] of files) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { written: [...files.keys()].sort(), removed };
}

/** Parses a kustomization file (used by the tests to follow overlays). */
export function readKustomization(dir: string): Record<string, unknown> {
  return parse(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as Record<string, unknown>;
}
