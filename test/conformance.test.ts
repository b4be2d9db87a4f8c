/**
 * The differential conformance suite (../shared/conformance, recorded from the reference system) run
 * against a fresh all-in-one service, as a new user would start it: the score must not fall below
 * the one reached. Every difference still left is listed in the failure message. Where the suite is not
 * beside the project (a user's clone), one line says it was not run and the suite is skipped.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN, startTestApp, type TestApp } from './support/app';
import { freePort } from './support/cluster';

/** The score this service reaches on the public cases; raise it as behaviour gets closer. */
const MIN_PASSED = 160;

const SUITE = resolve(__dirname, '../../shared/conformance');

const PRESENT = existsSync(join(SUITE, 'run.mjs'));
// Beside a user's clone the recorded suite is absent: say so once, visibly, and skip.
if (!PRESENT) process.stdout.write(`\nnot run: ../shared/conformance absent (looked for ${SUITE})\n`);

(PRESENT ? describe : describe.skip)('the public conformance cases', () => {
  let app: TestApp;
  let base: string;
  let dir: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await startTestApp({ PORT: String(port), SITE_URL: base });
    dir = mkdtempSync(join(tmpdir(), 'ecs-conformance-'));
  });
  afterAll(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`matches the reference in at least ${MIN_PASSED} of the public cases`, async () => {
    const report = join(dir, 'report.json');
    const run = await promisify(execFile)(
      process.execPath,
      [join(SUITE, 'run.mjs'), '--target', 'ours', '--base', base, '--compare', join(SUITE, 'expected.json'), '--json', report],
      { env: { ...process.env, CONF_ADMIN_USER: ADMIN.login, CONF_ADMIN_APP_PASSWORD: ADMIN.appPassword }, maxBuffer: 16 * 1024 * 1024 },
    ).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
    const result = JSON.parse(readFileSync(report, 'utf8')) as { passed: number; total: number; cases: Array<{ id: string; pass: boolean; diffs?: string[] }> };
    const failing = result.cases.filter((c) => !c.pass).map((c) => `${c.id}: ${(c.diffs ?? []).join('; ')}`);
    expect(run.stdout).toMatch(/conformance: \d+\/\d+ cases match/);
    if (result.passed < MIN_PASSED)
      throw new Error(`conformance fell to ${result.passed}/${result.total} (at least ${MIN_PASSED} expected); differences:\n${failing.join('\n')}`);
  }, 120_000);
});
