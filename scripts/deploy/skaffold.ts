/**
 * skaffold.yaml, read the way skaffold reads it for what this project uses: the config, a profile
 * applied through its JSON patches, and the helm values skaffold would pass.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';

import { REPO_ROOT } from './tools';

export const SKAFFOLD_FILE = path.join(REPO_ROOT, 'skaffold.yaml');
export const SKAFFOLD_SCHEMA = path.join(REPO_ROOT, 'scripts', 'deploy', 'skaffold.schema.json');

export interface HelmRelease {
  name: string;
  chartPath: string;
  namespace?: string;
  setValueTemplates?: Record<string, string>;
  setValues?: Record<string, string | number | boolean>;
  valuesFiles?: string[];
}

export interface SkaffoldConfig {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  build: { artifacts: Array<{ image: string; context?: string; docker: { dockerfile: string; target?: string } }> };
  deploy: { helm: { releases: HelmRelease[] } };
  portForward?: Array<{ resourceType: string; resourceName: string; namespace?: string; port: number | string; localPort?: number }>;
  profiles?: Array<{ name: string; activation?: Array<{ command?: string }>; patches?: JsonPatchOp[] }>;
}

export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export function readSkaffold(file = SKAFFOLD_FILE): unknown {
  return parse(fs.readFileSync(file, 'utf8'));
}

/** Problems of the config against the schema of the fields this project uses; empty when valid. */
export function skaffoldSchemaErrors(config: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const validate = ajv.compile(JSON.parse(fs.readFileSync(SKAFFOLD_SCHEMA, 'utf8')) as object);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** RFC 6902 add / remove / replace (what skaffold profiles use here) on a copy of the document. */
export function applyPatches<T>(doc: T, patches: JsonPatchOp[]): T {
  const out = structuredClone(doc) as unknown;
  for (const p of patches) {
    const tokens = p.path.split('/').slice(1).map(unescape);
    const last = tokens.pop();
    if (last === undefined) throw new Error(`patch path ${p.path} has no target`);
    let node = out as Record<string, unknown> | unknown[];
    for (const t of tokens) {
      const next = Array.isArray(node) ? node[Number(t)] : node[t];
      if (next === undefined || next === null || typeof next !== 'object') throw new Error(`patch path ${p.path}: ${t} does not exist`);
      node = next as Record<string, unknown> | unknown[];
    }
    if (Array.isArray(node)) {
      const index = last === '-' ? node.length : Number(last);
      if (p.op === 'add') node.splice(index, 0, structuredClone(p.value));
      else if (p.op === 'replace') node[index] = structuredClone(p.value);
      else if (p.op === 'remove') node.splice(index, 1);
      else throw new Error(`patch op ${p.op} is not supported here`);
    } else {
      if (p.op === 'add' || p.op === 'replace') node[last] = structuredClone(p.value);
      else if (p.op === 'remove') delete node[last];
      else throw new Error(`patch op ${p.op} is not supported here`);
    }
  }
  return out as T;
}

/** The config with a profile's patches applied. */
export function withProfile(config: SkaffoldConfig, name: string): SkaffoldConfig {
  const profile = (config.profiles ?? []).find((p) => p.name === name);
  if (!profile) throw new Error(`skaffold.yaml has no profile ${name}`);
  return applyPatches(config, profile.patches ?? []);
}

/** The name skaffold uses for an artifact in IMAGE_* template variables. */
export function sanitizedArtifactName(image: string): string {
  return image.replace(/[/\-.:]/g, '_');
}

/**
 * The `--set-string` arguments skaffold derives from setValueTemplates, with the image variables
 * it would provide after a local build (no digest: skaffold leaves IMAGE_DIGEST empty then).
 */
export function helmSetArgs(config: SkaffoldConfig, release: HelmRelease, tag = '0123abcd'): string[] {
  const vars: Record<string, string> = {};
  for (const a of config.build.artifacts) {
    const n = sanitizedArtifactName(a.image);
    vars[`IMAGE_REPO_${n}`] = a.image;
    vars[`IMAGE_TAG_${n}`] = tag;
    vars[`IMAGE_DIGEST_${n}`] = '';
    vars[`IMAGE_FULLY_QUALIFIED_${n}`] = `${a.image}:${tag}`;
  }
  const args: string[] = [];
  for (const [key, template] of Object.entries(release.setValueTemplates ?? {})) {
    const value = template.replace(/\{\{\s*\.([A-Za-z0-9_]+)\s*\}\}/g, (_m, v: string) => {
      if (!(v in vars)) throw new Error(`setValueTemplates ${key}: skaffold provides no {{.${v}}}`);
      return vars[v];
    });
    args.push('--set-string', `${key}=${value}`);
  }
  for (const [key, value] of Object.entries(release.setValues ?? {})) args.push('--set', `${key}=${String(value)}`);
  return args;
}
