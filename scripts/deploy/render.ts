/** Rendering the chart and the kustomize overlays offline. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';

import { parseManifests, type K8sObject } from './manifests';
import { CHART_DIR, helm, kubectl, type RunResult } from './tools';

export interface RenderOptions {
  release?: string;
  namespace?: string;
  /** Values files (paths relative to the repository root, or absolute). */
  valuesFiles?: string[];
  /** Values given inline; written to a temporary values file placed after valuesFiles. */
  values?: Record<string, unknown>;
  /** Extra helm arguments (e.g. ["--set", "a=b"]). */
  args?: string[];
  /** Chart folder (default charts/events-calendar). */
  chartDir?: string;
}

export interface Rendered extends RunResult {
  objects: K8sObject[];
}

/** `helm template`; objects are parsed only when helm succeeded. */
export function helmTemplate(opts: RenderOptions = {}): Rendered {
  const args = ['template', opts.release ?? 'events-calendar', opts.chartDir ?? CHART_DIR, '--namespace', opts.namespace ?? 'default'];
  for (const f of opts.valuesFiles ?? []) args.push('--values', f);
  let tmp: string | undefined;
  if (opts.values) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-values-'));
    const file = path.join(tmp, 'values.yaml');
    fs.writeFileSync(file, stringify(opts.values));
    args.push('--values', file);
  }
  args.push(...(opts.args ?? []));
  try {
    const r = helm(args);
    return { ...r, objects: r.status === 0 ? parseManifests(r.stdout) : [] };
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** `helm lint --strict` with the given values files. */
export function helmLint(valuesFiles: string[] = [], chartDir = CHART_DIR): RunResult {
  const args = ['lint', '--strict', chartDir];
  for (const f of valuesFiles) args.push('--values', f);
  return helm(args);
}

/** `kubectl kustomize <dir>` (no cluster needed). */
export function kustomize(dir: string): Rendered {
  const r = kubectl(['kustomize', dir]);
  return { ...r, objects: r.status === 0 ? parseManifests(r.stdout) : [] };
}

/** Throws with helm's message when a render failed; returns the objects otherwise. */
export function objectsOrThrow(r: Rendered, what: string): K8sObject[] {
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stderr}`);
  return r.objects;
}
