/**
 * The chart's wiring, checked against what the code reads (libs/config/env.ts): every cluster role
 * has a Deployment, every variable reaches exactly the processes that read it with the value set in
 * values, probes hit the real paths on the container port, Services and NetworkPolicies select the
 * right pods. Each check returns a list of problems; an empty list means the wiring is right.
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';

import { CLUSTER_ROLES, ENV, SERVICES, loadConfig, requireForRole, type EnvName, type Role } from '#libs/config/env';
import type { K8sObject } from './manifests';

export type ClusterRole = (typeof CLUSTER_ROLES)[number];

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** Kubernetes label-selector semantics (an empty selector matches everything). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

export function rolesReading(name: EnvName): ClusterRole[] {
  const roles = ENV[name].roles as Array<Role | '*'>;
  return roles.includes('*') ? [...CLUSTER_ROLES] : CLUSTER_ROLES.filter((r) => roles.includes(r));
}

/** Variables that some cluster process reads (the ones the chart must wire). */
export function clusterVariables(): EnvName[] {
  return (Object.keys(ENV) as EnvName[]).filter((n) => rolesReading(n).length > 0);
}

export interface AppDeployment {
  deployment: IDeployment;
  name: string;
  role: ClusterRole;
  container: IContainer;
  podLabels: Record<string, string>;
}

/** The Deployments that run the application image, with the role their container argument selects. */
export function appDeployments(objects: K8sObject[]): AppDeployment[] {
  const out: AppDeployment[] = [];
  for (const o of objects) {
    if (o.kind !== 'Deployment') continue;
    const d = o as unknown as IDeployment;
    const container = d.spec?.template.spec?.containers[0];
    const role = container?.args?.[0] as ClusterRole | undefined;
    if (!container || !role || !(CLUSTER_ROLES as string[]).includes(role)) continue;
    out.push({ deployment: d, name: o.metadata.name, role, container, podLabels: d.spec?.template.metadata?.labels ?? {} });
  }
  return out;
}

function byKind<T>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as unknown as T[];
}

/** The value an env entry resolves to (from value, a ConfigMap key or a Secret key), or an explanation. */
export function resolveEnv(objects: K8sObject[], env: IEnvVar): { value?: string; problem?: string; source: string } {
  if (env.value !== undefined) return { value: env.value, source: 'value' };
  const cm = env.valueFrom?.configMapKeyRef;
  if (cm) {
    const map = byKind<IConfigMap>(objects, 'ConfigMap').find((c) => c.metadata?.name === cm.name);
    if (!map) return { problem: `ConfigMap ${cm.name} is not rendered`, source: 'configmap' };
    const v = map.data?.[cm.key];
    return v === undefined ? { problem: `ConfigMap ${cm.name} has no key ${cm.key}`, source: 'configmap' } : { value: v, source: 'configmap' };
  }
  const sk = env.valueFrom?.secretKeyRef;
  if (sk) {
    const secret = byKind<ISecret>(objects, 'Secret').find((s) => s.metadata?.name === sk.name);
    if (!secret) return { problem: `Secret ${sk.name} is not rendered (existing Secret?)`, source: 'secret' };
    const data = secret.data?.[sk.key];
    if (data !== undefined) return { value: Buffer.from(data, 'base64').toString('utf8'), source: 'secret' };
    const plain = secret.stringData?.[sk.key];
    if (plain !== undefined) return { value: plain, source: 'secret' };
    // An optional key the Secret does not hold leaves the variable unset (GEOCODER_API_KEY without Google).
    return sk.optional ? { source: 'secret' } : { problem: `Secret ${sk.name} has no key ${sk.key}`, source: 'secret' };
  }
  return { problem: 'no value, configMapKeyRef or secretKeyRef', source: 'none' };
}

/** Every cluster role has at least one Deployment (the worker role: one per enabled worker group). */
export function roleProblems(objects: K8sObject[]): string[] {
  const deps = appDeployments(objects);
  return CLUSTER_ROLES.filter((r) => !deps.some((d) => d.role === r)).map((r) => `no Deployment runs role "${r}"`);
}

/**
 * Every variable a cluster process reads is in the env of exactly the Deployments of the roles
 * that read it, from the ConfigMap or the Secret (`sources`), never in the others (so a secret only
 * reaches the processes that need it).
 */
export interface WiringOptions {
  /** Secrets that exist outside the render (existingSecret): references to them count as resolved. */
  externalSecrets?: string[];
}

export function envPresenceProblems(objects: K8sObject[], opts: WiringOptions = {}): string[] {
  const sources = ['configmap', 'secret'];
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    const env = d.container.env ?? [];
    for (const name of clusterVariables()) {
      const reads = rolesReading(name).includes(d.role);
      const entries = env.filter((e) => e.name === name);
      if (reads && entries.length === 0) problems.push(`${d.name} (${d.role}) reads ${name} but its env does not set it`);
      if (!reads && entries.length > 0) problems.push(`${d.name} (${d.role}) does not read ${name} but its env sets it`);
      if (entries.length > 1) problems.push(`${d.name} sets ${name} ${entries.length} times`);
      for (const e of entries) {
        if (e.valueFrom?.secretKeyRef && (opts.externalSecrets ?? []).includes(e.valueFrom.secretKeyRef.name ?? '')) continue;
        const r = resolveEnv(objects, e);
        if (r.problem) problems.push(`${d.name}: ${name}: ${r.problem}`);
        else if (!sources.includes(r.source)) problems.push(`${d.name}: ${name} comes from ${r.source}, not from ${sources.join(' or ')}`);
      }
    }
  }
  return problems;
}

/** What one variable must resolve to in one Deployment. */
export type Expectation = (d: AppDeployment) => string;

/** Each resolved env value equals the expectation. */
export function envValueProblems(objects: K8sObject[], expected: Partial<Record<EnvName, Expectation>>): string[] {
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    for (const [name, expect] of Object.entries(expected) as Array<[EnvName, Expectation]>) {
      if (!rolesReading(name).includes(d.role)) continue;
      const entry = (d.container.env ?? []).find((e) => e.name === name);
      if (!entry) continue; // reported by envPresenceProblems
      const r = resolveEnv(objects, entry);
      const want = expect(d);
      if (r.value !== want) problems.push(`${d.name}: ${name} is ${JSON.stringify(r.value ?? r.problem)}, expected ${JSON.stringify(want)}`);
    }
  }
  return problems;
}

function envValue(objects: K8sObject[], d: AppDeployment, name: EnvName): string | undefined {
  const entry = (d.container.env ?? []).find((e) => e.name === name);
  return entry ? resolveEnv(objects, entry).value : undefined;
}

/** Startup and liveness probes GET /healthz, readiness GETs /readyz, all on the port the process listens on. */
export function probeProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    const c = d.container;
    const listen = Number(envValue(objects, d, 'PORT'));
    const portOf = (p: number | string | undefined) => (typeof p === 'number' ? p : ((c.ports ?? []).find((cp) => cp.name === p)?.containerPort ?? Number.NaN));
    if (!(c.ports ?? []).some((p) => p.containerPort === listen)) problems.push(`${d.name}: no container port ${listen} (PORT)`);
    for (const [probeName, probe, path] of [
      ['startupProbe', c.startupProbe, '/healthz'],
      ['livenessProbe', c.livenessProbe, '/healthz'],
      ['readinessProbe', c.readinessProbe, '/readyz'],
    ] as const) {
      if (!probe?.httpGet) {
        problems.push(`${d.name}: ${probeName} is not an HTTP GET`);
        continue;
      }
      if (probe.httpGet.path !== path) problems.push(`${d.name}: ${probeName} GETs ${probe.httpGet.path}, expected ${path}`);
      if (portOf(probe.httpGet.port) !== listen) problems.push(`${d.name}: ${probeName} port ${probe.httpGet.port} is not PORT ${listen}`);
    }
  }
  return problems;
}

/** Each service's URL names a rendered Service that selects that service's pods on the container port. */
export function serviceUrlProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const deps = appDeployments(objects);
  const services = byKind<IService>(objects, 'Service');
  for (const caller of deps.filter((d) => d.role === 'gateway' || d.role === 'worker')) {
    for (const svc of SERVICES) {
      const key = `${svc.toUpperCase()}_SERVICE_URL` as EnvName;
      const raw = envValue(objects, caller, key);
      if (!raw) {
        problems.push(`${caller.name}: ${key} is empty`);
        continue;
      }
      const url = new URL(raw);
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      const service = services.find((s) => s.metadata?.name === url.hostname.split('.')[0]);
      if (!service) {
        problems.push(`${caller.name}: ${key}=${raw} names no rendered Service`);
        continue;
      }
      const targets = deps.filter((d) => selects({ matchLabels: service.spec?.selector }, d.podLabels));
      if (targets.length !== 1 || targets[0].role !== svc) {
        problems.push(`${caller.name}: Service ${service.metadata?.name} selects [${targets.map((t) => t.name).join(', ')}], expected the ${svc} Deployment`);
        continue;
      }
      const sp = (service.spec?.ports ?? []).find((p) => p.port === port);
      if (!sp) {
        problems.push(`${caller.name}: ${key} port ${port} is not a port of Service ${service.metadata?.name}`);
        continue;
      }
      const c = targets[0].container;
      const target = typeof sp.targetPort === 'string' ? c.ports?.find((p) => p.name === sp.targetPort)?.containerPort : (sp.targetPort ?? sp.port);
      if (target !== Number(envValue(objects, targets[0], 'PORT')))
        problems.push(`Service ${service.metadata?.name} targets ${String(sp.targetPort)}, not the ${svc} PORT`);
    }
  }
  return problems;
}

/**
 * NetworkPolicy: every service pod is selected by a policy, and the policies selecting it admit,
 * among the release's pods, only the gateway and the workers.
 */
export function networkPolicyProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const deps = appDeployments(objects);
  const policies = byKind<INetworkPolicy>(objects, 'NetworkPolicy');
  for (const target of deps.filter((d) => (SERVICES as string[]).includes(d.role))) {
    const applying = policies.filter((p) => selects(p.spec?.podSelector, target.podLabels) && (p.spec?.policyTypes ?? ['Ingress']).includes('Ingress'));
    if (applying.length === 0) {
      problems.push(`${target.name}: no NetworkPolicy selects it, every pod may call it`);
      continue;
    }
    for (const source of deps) {
      const admitted = applying.some((p) =>
        (p.spec?.ingress ?? []).some((rule) => {
          if (!rule.from || rule.from.length === 0) return true;
          // A peer with a namespaceSelector or ipBlock only admits pods by namespace or address (metricsFrom).
          return rule.from.some(
            (peer) => peer.podSelector !== undefined && peer.namespaceSelector === undefined && !peer.ipBlock && selects(peer.podSelector, source.podLabels),
          );
        }),
      );
      const allowed = source.role === 'gateway' || source.role === 'worker';
      if (admitted && !allowed) problems.push(`${target.name} admits ${source.name} (${source.role}); only the gateway and workers may call services`);
      if (!admitted && allowed) problems.push(`${target.name} does not admit ${source.name} (${source.role})`);
    }
  }
  return problems;
}

/** Autoscaled Deployments have an HPA aimed at them and leave replicas to it; PDBs select existing pods. */
export function scalingProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const deps = appDeployments(objects);
  for (const hpa of byKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler')) {
    const ref = hpa.spec?.scaleTargetRef;
    const d = deps.find((x) => x.name === ref?.name);
    if (!d || ref?.kind !== 'Deployment') problems.push(`HPA ${hpa.metadata?.name} targets ${ref?.kind}/${ref?.name}, which is not rendered`);
    else if (d.deployment.spec?.replicas !== undefined) problems.push(`${d.name} sets replicas although HPA ${hpa.metadata?.name} scales it`);
  }
  for (const pdb of byKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget')) {
    if (!deps.some((d) => selects(pdb.spec?.selector, d.podLabels))) problems.push(`PDB ${pdb.metadata?.name} selects no pods`);
  }
  for (const d of deps) {
    const sel = d.deployment.spec?.selector;
    const overlapping = deps.filter((o) => o !== d && selects(sel, o.podLabels));
    if (overlapping.length) problems.push(`${d.name}'s selector also matches ${overlapping.map((o) => o.name).join(', ')}`);
  }
  return problems;
}

/**
 * The environment each process would start with, run through the application's own start-up checks
 * (loadConfig and requireForRole from libs/config/env.ts). Only for renders whose Secret is rendered too.
 */
export function startupConfigProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    const env: NodeJS.ProcessEnv = {};
    for (const e of d.container.env ?? []) {
      const r = resolveEnv(objects, e);
      if (r.problem) problems.push(`${d.name}: ${e.name}: ${r.problem}`);
      else env[e.name] = r.value;
    }
    try {
      requireForRole(loadConfig(env), d.role);
    } catch (err) {
      problems.push(`${d.name} (${d.role}) would not start: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** All structural checks of one render (values are checked separately, with envValueProblems). */
export function wiringProblems(objects: K8sObject[], opts: WiringOptions = {}): string[] {
  return [
    ...roleProblems(objects),
    ...envPresenceProblems(objects, opts),
    ...probeProblems(objects),
    ...serviceUrlProblems(objects),
    ...networkPolicyProblems(objects),
    ...scalingProblems(objects),
  ];
}
