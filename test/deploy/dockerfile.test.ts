/**
 * The Dockerfile and .dockerignore, read statically (no Docker engine on CI machines): multi-stage,
 * toolchain only where native modules are compiled, a slim non-root runtime with production
 * dependencies copied from the stage that compiled them, and an entry point that takes the role.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ROLES } from '#libs/config/env';
import { REPO_ROOT } from '../../scripts/deploy/tools';

interface Stage {
  name: string;
  from: string;
  lines: string[];
}

/** Instructions (continuation lines joined, comments dropped) grouped by stage. */
function stages(text: string): { args: string[]; stages: Stage[] } {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const out: Stage[] = [];
  const args: string[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) out.push({ from: from[1], name: from[2] ?? String(out.length), lines: [] });
    else if (out.length) out[out.length - 1].lines.push(line);
    else args.push(line);
  }
  return { args, stages: out };
}

const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const { args, stages: all } = stages(dockerfile);
const stage = (name: string) => {
  const s = all.find((x) => x.name === name);
  if (!s) throw new Error(`Dockerfile has no stage ${name}`);
  return s;
};

describe('Dockerfile', () => {
  test('is multi-stage and ends with the runtime stage', () => {
    expect(all.map((s) => s.name)).toEqual(['toolchain', 'prod-deps', 'build', 'runtime']);
  });

  test('every stage is a Node 20 image that satisfies the engines field', () => {
    const version = /^ARG NODE_VERSION=(\d+)\.(\d+)/.exec(args.find((a) => a.startsWith('ARG NODE_VERSION=')) ?? '');
    expect(version).not.toBeNull();
    const engines = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const [, wantMajor, wantMinor] = /^>=(\d+)\.(\d+)/.exec(engines) ?? [];
    expect(Number(version![1])).toBe(20);
    expect(Number(version![2])).toBeGreaterThanOrEqual(Number(wantMinor));
    expect(Number(version![1])).toBeGreaterThanOrEqual(Number(wantMajor));
    for (const s of all)
      expect([s.name, s.from]).toEqual([s.name, s.name === 'prod-deps' || s.name === 'build' ? 'toolchain' : 'node:${NODE_VERSION}-bookworm-slim']);
  });

  test('the toolchain stage has what node-gyp needs to build better-sqlite3', () => {
    const install = stage('toolchain').lines.find((l) => l.includes('apt-get install')) ?? '';
    for (const pkg of ['python3', 'make', 'g++']) expect(install.split(/\s+/)).toContain(pkg);
  });

  test('production dependencies are installed (and the native module loaded) in a stage with the toolchain', () => {
    const run = stage('prod-deps')
      .lines.filter((l) => l.startsWith('RUN'))
      .join('\n');
    expect(run).toMatch(/npm ci --omit=dev/);
    expect(run).toContain("require('better-sqlite3')");
  });

  test('the build stage compiles the TypeScript with dev dependencies', () => {
    const run = stage('build')
      .lines.filter((l) => l.startsWith('RUN'))
      .join('\n');
    expect(run).toMatch(/npm ci\b(?!.*--omit=dev)/);
    expect(run).toContain('npm run build');
  });

  test('the runtime stage: production mode, copied node_modules, no toolchain, no install, non-root', () => {
    const lines = stage('runtime').lines;
    const text = lines.join('\n');
    expect(text).toMatch(/^ENV NODE_ENV=production/m);
    expect(lines).toContain('COPY --from=prod-deps /app/node_modules ./node_modules');
    expect(lines).toContain('COPY --from=build /app/dist ./dist');
    expect(text).not.toMatch(/apt-get|npm (ci|install|rebuild)|node-gyp/);
    const user = lines.filter((l) => l.startsWith('USER')).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)(:|$)/);
    expect(user).toMatch(/^USER\s+\d+(:\d+)?$/);
  });

  test('the entry point runs dist/services/main.js and the argument picks a role', () => {
    const lines = stage('runtime').lines;
    expect(lines).toContain('ENTRYPOINT ["node", "dist/services/main.js"]');
    const cmd = lines.find((l) => l.startsWith('CMD'));
    const role = (JSON.parse(cmd!.slice(3).trim()) as string[])[0];
    expect(ROLES).toContain(role);
    expect(fs.existsSync(path.join(REPO_ROOT, 'services', 'main.ts'))).toBe(true);
  });
});

describe('.dockerignore', () => {
  const ignored = fs
    .readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  test('keeps the host node_modules, build output and git history out of the context', () => {
    for (const p of ['**/node_modules', 'dist', '.git']) expect(ignored).toContain(p);
  });

  test('keeps what the build needs', () => {
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'libs', 'services']) {
      expect(ignored.some((p) => p === needed || p === `${needed}/` || p === '*' || p === '**')).toBe(false);
    }
  });
});
