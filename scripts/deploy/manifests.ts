/**
 * Parsing and validating rendered Kubernetes manifests offline.
 *
 * Two checks per object: the kubernetes-models class of its kind validates it against the Kubernetes
 * OpenAPI schema (types, required fields, enums), and a TypeScript compile of the object as a literal of
 * the model's interface catches fields that the schema does not know (a misspelt `livenesProbe`
 * passes the first check, as the schemas allow unknown properties, but fails the second).
 */
import * as path from 'node:path';
import * as ts from 'typescript';
import { parseAllDocuments } from 'yaml';

import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';

import { REPO_ROOT } from './tools';

// A rendered object: plain JSON from YAML.
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

interface KindInfo {
  /** Validates through the kubernetes-models class (throws on an invalid object). */
  validate(data: unknown): void;
  /** Module and interface name for the unknown-field check. */
  module: string;
  iface: string;
}

function kind<T extends { validate(): void }>(Model: new (data: never) => T, module: string, iface: string): KindInfo {
  return { validate: (data) => new Model(data as never).validate(), module, iface };
}

/** Every kind the chart and the kustomize overlay may produce; anything else is an error. */
export const KINDS: Record<string, KindInfo> = {
  'v1/ConfigMap': kind(ConfigMap, 'kubernetes-models/v1/ConfigMap', 'IConfigMap'),
  'v1/Namespace': kind(Namespace, 'kubernetes-models/v1/Namespace', 'INamespace'),
  'v1/Secret': kind(Secret, 'kubernetes-models/v1/Secret', 'ISecret'),
  'v1/Service': kind(Service, 'kubernetes-models/v1/Service', 'IService'),
  'v1/ServiceAccount': kind(ServiceAccount, 'kubernetes-models/v1/ServiceAccount', 'IServiceAccount'),
  'apps/v1/Deployment': kind(Deployment, 'kubernetes-models/apps/v1/Deployment', 'IDeployment'),
  'apps/v1/StatefulSet': kind(StatefulSet, 'kubernetes-models/apps/v1/StatefulSet', 'IStatefulSet'),
  'autoscaling/v2/HorizontalPodAutoscaler': kind(
    HorizontalPodAutoscaler,
    'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
    'IHorizontalPodAutoscaler',
  ),
  'policy/v1/PodDisruptionBudget': kind(PodDisruptionBudget, 'kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'),
  'networking.k8s.io/v1/NetworkPolicy': kind(NetworkPolicy, 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'INetworkPolicy'),
  'networking.k8s.io/v1/Ingress': kind(Ingress, 'kubernetes-models/networking.k8s.io/v1/Ingress', 'IIngress'),
  'monitoring.coreos.com/v1/ServiceMonitor': kind(
    ServiceMonitor,
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
    'IServiceMonitor',
  ),
};

export function objectId(o: K8sObject): string {
  return `${o.kind}/${o.metadata?.name ?? '?'}`;
}

/** Splits a multi-document YAML stream into objects, dropping empty documents. */
export function parseManifests(text: string): K8sObject[] {
  const out: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new Error(`YAML error: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as K8sObject | null;
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/**
 * The object as the API server reads it: kustomize wraps long base64 Secret data over several lines,
 * which the server's decoder (Go's encoding/base64) accepts by skipping the line breaks, while the
 * schema's "byte" format does not.
 */
function normalized(o: K8sObject): K8sObject {
  if (o.kind !== 'Secret' || typeof o.data !== 'object' || o.data === null) return o;
  const data = Object.fromEntries(Object.entries(o.data as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\r\n]/g, '') : v]));
  return { ...o, data };
}

/** Schema errors of each object, by kubernetes-models; an empty list when all are valid. */
export function schemaErrors(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objects) {
    const info = KINDS[`${o.apiVersion}/${o.kind}`];
    if (!info) {
      errors.push(`${objectId(o)}: no schema registered for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    if (!o.metadata?.name) errors.push(`${o.kind}: metadata.name is missing`);
    try {
      info.validate(normalized(o));
    } catch (e) {
      errors.push(`${objectId(o)}: ${(e as Error).message}`);
    }
  }
  return errors;
}

/**
 * Fields the Kubernetes types do not have (and wrong types the schema check let through), found by
 * type-checking every object as a literal of its kubernetes-models interface. One compile for all
 * the given object lists.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  const imports = new Map<string, string>();
  const lines: string[] = [];
  const owners: Array<{ from: number; to: number; id: string }> = [];
  for (const o of objects) {
    const info = KINDS[`${o.apiVersion}/${o.kind}`];
    if (!info) continue;
    let alias = imports.get(info.module);
    if (!alias) {
      alias = `T${imports.size}`;
      imports.set(info.module, alias);
    }
    const body = JSON.stringify(o, null, 1).split('\n');
    owners.push({ from: lines.length, to: lines.length + body.length, id: objectId(o) });
    body[0] = `export const o${owners.length}: ${alias}.${info.iface} = ${body[0]}`;
    body[body.length - 1] += ';';
    lines.push(...body);
  }
  const header = [...imports].map(([mod, alias]) => `import type * as ${alias} from '${mod}';`);
  const source = [...header, ...lines].join('\n');
  const fileName = path.join(REPO_ROOT, '__rendered_manifests__.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) =>
    name === fileName ? ts.createSourceFile(name, source, languageVersion, true) : getSourceFile(name, languageVersion, onError, shouldCreate);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  const errors: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.file.fileName !== fileName || d.start === undefined) {
      errors.push(message);
      continue;
    }
    const line = d.file.getLineAndCharacterOfPosition(d.start).line - header.length;
    const owner = owners.find((w) => line >= w.from && line < w.to);
    errors.push(`${owner?.id ?? 'manifest'}: ${message.split('\n').slice(-1)[0]} (at "${source.split('\n')[line + header.length].trim()}")`);
  }
  return errors;
}

/** Both checks; an empty list means every object is valid. */
export function validateManifests(objects: K8sObject[]): string[] {
  return [...schemaErrors(objects), ...unknownFieldErrors(objects)];
}
