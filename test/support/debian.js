/**
 * Debian packages the tests need beyond npm's (Redis's `redis-server`, the browser tests' Chromium).
 * `ensureDebianPackage(command, pkg)` returns the command's path when it is there. When it is missing and
 * the tests run as root on a system with apt-get (a fresh CI machine or container), it installs the package
 * with apt-get, one installation at a time across test workers and runs; otherwise it throws an error that
 * names the package and the command to run.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const APT_LOCK = path.join(os.tmpdir(), 'ecs-test-apt.lock');
const APT_GET = '/usr/bin/apt-get';

/** The command's path: itself when it holds a slash, else its place on PATH; undefined when missing. */
function locate(command) {
  if (command.includes('/')) return fs.existsSync(command) ? command : undefined;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function canInstall() {
  return typeof process.getuid === 'function' && process.getuid() === 0 && fs.existsSync(APT_GET);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Runs fn while holding the apt lock file; waits (up to 15 minutes) while another live process holds it. */
function withAptLock(fn) {
  const deadline = Date.now() + 15 * 60 * 1000;
  for (;;) {
    try {
      fs.writeFileSync(APT_LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const owner = Number(fs.readFileSync(APT_LOCK, 'utf8'));
      if (owner && !alive(owner)) fs.rmSync(APT_LOCK, { force: true });
      else if (Date.now() > deadline) throw new Error(`another process (${owner}) has held ${APT_LOCK} for 15 minutes`, { cause: e });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(APT_LOCK, { force: true });
  }
}

function apt(args) {
  const run = spawnSync(APT_GET, ['-o', 'DPkg::Lock::Timeout=600', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    const tail = `${run.stdout || ''}${run.stderr || ''}`.trim().split('\n').slice(-10).join('\n');
    throw new Error(`apt-get ${args.join(' ')} failed (${run.error ? run.error.message : `exit ${run.status}`}):\n${tail}`);
  }
}

/**
 * Makes sure `command` exists, installing the Debian package `pkg` when allowed (see above); returns its path.
 * `why` says which tests need it, for the messages.
 */
function ensureDebianPackage(command, pkg, why) {
  const found = locate(command);
  if (found) return found;
  if (!canInstall()) {
    throw new Error(
      `${command} is missing: ${why} need the Debian package "${pkg}". Install it (sudo apt-get install ${pkg}) and run the tests again; as root on a system with apt-get the tests install it themselves.`,
    );
  }
  return withAptLock(() => {
    const now = locate(command);
    if (now) return now;
    process.stderr.write(`[test services] ${command} is missing: installing the Debian package ${pkg} (apt-get)\n`);
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', pkg]);
    const installed = locate(command);
    if (!installed) throw new Error(`apt-get installed ${pkg}, but ${command} is still missing`);
    return installed;
  });
}

module.exports = { ensureDebianPackage, locate };
