/**
 * Secrets stay out of logs and answers. A real process (as a user starts it, with LOG_LEVEL=trace so
 * that every log line is written) makes its first-run administrator, whose passwords must be in
 * DATA_DIR/first-run-credentials.txt (mode 0600) and nowhere in its output; then application
 * passwords and users are created, a password changed, bad passwords tried over Basic and the
 * authorize-application form. Afterwards the stored hashes are read from the store, and no password
 * or hash may appear in any log line or in any answer (a new application password is shown once, in
 * the answer that creates it, as the reference does). Also: a MongoDB deployment whose DATA_DIR
 * cannot be written still logs no password, and says how to choose them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore } from '#libs/store/index';
import type { CredentialDoc } from '#libs/auth/users';
import { basic, makeRequester, type ApiResponse } from './support/app';
import { openAuthorizeForm } from './support/authorize';
import { freePort } from './support/cluster';

const ROOT = resolve(__dirname, '..');
const REGISTER = resolve(ROOT, 'scripts/ts-register.js');

interface Proc {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function startProcess(role: string, port: number, env: Record<string, string>): Promise<Proc> {
  const chunks: string[] = [];
  const child = spawn(process.execPath, ['-r', REGISTER, resolve(ROOT, 'services/main.ts'), role], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'trace', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => chunks.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => chunks.push(b.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${role} exited with ${child.exitCode}:\n${chunks.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${role} did not become ready:\n${chunks.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    output: () => chunks.join(''),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The values of `needle`s found in `haystack`, with spaces or without (application passwords are shown in groups). */
function leaks(haystack: string, needles: string[]): string[] {
  return needles.filter((s) => s && (haystack.includes(s) || haystack.includes(s.replace(/ /g, ''))));
}

/** Every key named like a password or a hash in a JSON answer. */
function secretKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretKeys(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [...(/pass|hash|secret/i.test(k) ? [`${path}.${k}`] : []), ...secretKeys(v, `${path}.${k}`)]);
  }
  return [];
}

describe('first start and account traffic of the all-in-one process', () => {
  let dataDir: string;
  let proc: Proc;
  let request: ReturnType<typeof makeRequester>;
  let base: string;
  const answers: Array<{ what: string; res: ApiResponse }> = [];
  const secrets: string[] = [];
  let created: { password: string; response: ApiResponse };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ecs-secrets-'));
    const port = await freePort();
    proc = await startProcess('all', port, { DATA_DIR: dataDir, SITE_URL: `http://127.0.0.1:${port}`, MONGO_URL: '', REDIS_URL: '' });
    base = `http://127.0.0.1:${port}`;
    request = makeRequester(base, `${base}/index.php/cms-json`);
  }, 90_000);
  afterAll(async () => {
    await proc?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the first-run credentials to a file only its user can read, and logs where it is', () => {
    const file = join(dataDir, 'first-run-credentials.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const account = /^account password: (\S+)$/m.exec(text)?.[1];
    const app = /^application password: ([A-Za-z0-9 ]+)$/m.exec(text)?.[1];
    expect(/^login: admin$/m.test(text)).toBe(true);
    expect(account).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(app).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    secrets.push(account!, app!);
    expect(proc.output()).toContain(`its account and application passwords are in ${file}`);
    expect(leaks(proc.output(), secrets)).toEqual([]);
  });

  it('answers with no password or hash, but the new application password once, where it is created', async () => {
    const [account, app] = secrets;
    const as = (method: string, path: string, body?: unknown) => request(method, path, { auth: ['admin', app], ...(body ? { body } : {}) });
    const keep = async (what: string, res: Promise<ApiResponse>) => {
      const r = await res;
      answers.push({ what, res: r });
      return r;
    };
    expect((await keep('me', as('GET', '/cms/v2/users/me?context=edit'))).status).toBe(200);

    const response = await as('POST', '/cms/v2/users/me/application-passwords', { name: 'cli' });
    expect(response.status).toBe(201);
    created = { password: response.body.password, response };
    expect(created.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    secrets.push(created.password);
    const list = await keep('app-passwords list', as('GET', '/cms/v2/users/me/application-passwords?context=edit'));
    expect(list.status).toBe(200);
    expect(list.body.length).toBe(2);
    await keep('app-password', as('GET', `/cms/v2/users/me/application-passwords/${response.body.uuid}?context=edit`));

    const userPassword = `User-${randomBytes(9).toString('hex')}`;
    const changed = `Changed-${randomBytes(9).toString('hex')}`;
    secrets.push(userPassword, changed);
    const user = await keep(
      'user create',
      as('POST', '/cms/v2/users', { username: 'carol', email: 'carol@example.test', password: userPassword, roles: ['editor'] }),
    );
    expect(user.status).toBe(201);
    await keep('user update', as('POST', `/cms/v2/users/${user.body.id}`, { password: changed, name: 'Carol' }));
    await keep('user edit', as('GET', `/cms/v2/users/${user.body.id}?context=edit`));
    await keep('users edit', as('GET', '/cms/v2/users?context=edit'));
    const carolApp = await as('POST', `/cms/v2/users/${user.body.id}/application-passwords`, { name: 'carol cli' });
    secrets.push(carolApp.body.password);
    await keep('carol app-passwords', as('GET', `/cms/v2/users/${user.body.id}/application-passwords?context=edit`));

    // Bad passwords, over Basic and through the authorize-application form (account passwords).
    const wrong = [`Wrong-${randomBytes(9).toString('hex')}`, `Ghost-${randomBytes(9).toString('hex')}`, `Form-${randomBytes(9).toString('hex')}`];
    secrets.push(...wrong);
    await keep('bad basic', request('GET', '/cms/v2/users/me', { auth: ['admin', wrong[0]] }));
    await keep('unknown user', request('GET', '/', { auth: ['ghost', wrong[1]] }));
    await keep('account password over basic', request('GET', '/cms/v2/users/me', { auth: ['admin', account] }));
    const form = await openAuthorizeForm(base);
    await keep(
      'bad form',
      request('POST', '/cms-admin/authorize-application.php', {
        raw: new URLSearchParams({ app_name: 'x', log: 'admin', pwd: wrong[2], _wpnonce: form.nonce }).toString(),
        contentType: 'application/x-www-form-urlencoded',
        headers: { Cookie: form.cookie },
      }),
    );
    await keep('headers only', request('GET', '/cms/v2/users/me', { headers: { Authorization: basic('carol', changed) } }));

    for (const { what, res } of answers) {
      expect([what, leaks(res.text, secrets)]).toEqual([what, []]);
      expect([what, secretKeys(res.body)]).toEqual([what, []]);
    }
    // The creating answer is the one place the new password is shown.
    expect(leaks(created.response.text, [created.password])).toEqual([created.password]);
    expect(secretKeys(created.response.body)).toEqual(['.password']);
  });

  it('logs none of the passwords nor any stored hash, through a shutdown', async () => {
    await proc.stop();
    const store = await openStore({ dataDir });
    let hashes: string[];
    try {
      const records = await store.collection<CredentialDoc>('credentials').find({});
      hashes = records.flatMap((u) => [u.pass_hash, ...u.app_passwords.map((p) => p.hash)]);
    } finally {
      await store.close();
    }
    expect(hashes.length).toBeGreaterThanOrEqual(5);
    const output = proc.output();
    // The requests were logged (the level is trace), so an empty output cannot pass.
    expect(output).toMatch(/"path":"\/index\.php\/cms-json\/cms\/v2\/users"/);
    expect(leaks(output, [...secrets, ...hashes])).toEqual([]);
    expect(
      leaks(
        output,
        hashes.map((h) => h.split('$').pop()!),
      ),
    ).toEqual([]);
    for (const { what, res } of answers)
      expect([
        what,
        leaks(
          res.text,
          hashes.map((h) => h.split('$').pop()!),
        ),
      ]).toEqual([what, []]);
  });
});

describe('first start against MongoDB where DATA_DIR cannot be written', () => {
  it('creates the administrator, logs no password, and says how to choose them', async () => {
    const mongoUrl = process.env.TEST_MONGO_URL;
    if (!mongoUrl) throw new Error('needs TEST_MONGO_URL (set by the jest global setup)');
    const dir = mkdtempSync(join(tmpdir(), 'ecs-secrets-ro-'));
    // A folder below a file cannot be made, whoever the user is.
    writeFileSync(join(dir, 'not-a-folder'), '');
    const port = await freePort();
    const proc = await startProcess('content', port, {
      MONGO_URL: mongoUrl,
      MONGO_DB: `ecs_secrets_${randomBytes(4).toString('hex')}`,
      SERVICE_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: join(dir, 'not-a-folder', 'data'),
      SITE_URL: `http://127.0.0.1:${port}`,
    });
    try {
      const output = proc.output();
      expect(output).toContain('First run: created administrator "admin", but its generated passwords could not be written to');
      expect(output).toContain('Set ADMIN_USER=admin and ADMIN_PASSWORD');
      expect(output).not.toMatch(/password[^"]*"?: ?[A-Za-z0-9]{24}/i);
      expect(output).not.toMatch(/[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}/);
    } finally {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
