/**
 * `npm ci` refuses a lock file that is out of step with package.json or that lacks a package some
 * locked package depends on, optional platform binaries included (an install on one platform still
 * checks the entries of the others). These checks keep the committed lock installable by `npm ci`
 * on every platform the dependencies support.
 *
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` allows them, and
 * skips the others silently: the native binding of better-sqlite3 (the embedded store) is built by its
 * script, so a missing decision there leaves a tree whose store cannot open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const packages: Record<string, any> = lock.packages;

/** Where node would find `name` from the package installed at `from` (walking up node_modules folders). */
function resolveFrom(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('is a version-3 lock whose root matches package.json', () => {
    expect(lock.lockfileVersion).toBe(3);
    const rootEntry = packages[''];
    expect(rootEntry.dependencies ?? {}).toEqual(pkg.dependencies ?? {});
    expect(rootEntry.devDependencies ?? {}).toEqual(pkg.devDependencies ?? {});
  });

  it('holds every dependency of every locked package, optional platform binaries included', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(packages)) {
      if (entry.link) continue;
      const wanted = { ...(entry.dependencies ?? {}), ...(entry.optionalDependencies ?? {}) };
      for (const name of Object.keys(wanted)) {
        if (entry.peerDependenciesMeta?.[name]?.optional) continue;
        if (!resolveFrom(path, name)) missing.push(`${path || '(root)'} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Bundled packages arrive inside their parent's tarball and carry no integrity of their own.
  it('pins each package by version and integrity', () => {
    const unpinned = Object.entries(packages)
      .filter(([path, entry]) => path && !entry.link && !entry.inBundle && !path.startsWith('node_modules/.') && (!entry.version || !entry.integrity))
      .map(([path]) => path);
    expect(unpinned).toEqual([]);
  });

  it('decides every locked install script in allowScripts, and allows the native bindings the service loads', () => {
    const allow: Record<string, boolean> = pkg.allowScripts ?? {};
    const undecided = Object.entries(packages)
      .filter(([path, entry]) => entry.hasInstallScript && typeof allow[path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)] !== 'boolean')
      .map(([path]) => path);
    expect(undecided).toEqual([]);
    expect(allow['better-sqlite3']).toBe(true);
    expect(allow['msgpackr-extract']).toBe(true);
  });
});
