/**
 * Free loopback ports for the servers and processes the tests start. The system hands out a port that is
 * free now (listening on port 0); the port is then reserved by creating an exclusive lock file,
 * `<os.tmpdir()>/ecs-test-ports/<port>.lock`, holding this process's id. Another worker of the same run, or
 * another test run on the machine, that is handed the same port before the first one's process binds it
 * finds the lock and asks again, so two runs cannot collide. Locks are removed when this process exits; the
 * locks of processes that are gone (a worker ended by a signal, a run killed with -9) are removed by the next
 * process that reserves a port.
 */
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const LOCK_DIR = path.join(os.tmpdir(), 'ecs-test-ports');
const held = new Set();

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function releaseAll() {
  for (const file of held) fs.rmSync(file, { force: true });
  held.clear();
}

/** Creates the port's lock file; false when another live process holds it. */
function lock(port) {
  fs.mkdirSync(LOCK_DIR, { recursive: true });
  const file = path.join(LOCK_DIR, `${port}.lock`);
  if (held.has(file)) return false;
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    let owner;
    try {
      owner = Number(fs.readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
    // A lock being written has no id yet; one of a live process stays its own.
    if (!owner || alive(owner)) return false;
    fs.rmSync(file, { force: true });
    return lock(port);
  }
  if (held.size === 0) process.once('exit', releaseAll);
  held.add(file);
  return true;
}

/** A port the system says is free on 127.0.0.1 right now. */
function systemPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let swept = false;

/** Removes the locks of processes that are gone (a jest worker ended by a signal runs no exit handler). */
function sweep() {
  swept = true;
  let names;
  try {
    names = fs.readdirSync(LOCK_DIR);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(LOCK_DIR, name);
    try {
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (owner && !alive(owner)) fs.rmSync(file, { force: true });
    } catch {
      // taken or removed by another process meanwhile
    }
  }
}

/** A free loopback port, reserved for this process until it exits. */
async function freePort() {
  if (!swept) sweep();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await systemPort();
    if (lock(port)) return port;
  }
  throw new Error(`no free port could be reserved under ${LOCK_DIR}`);
}

module.exports = { freePort, reserve: lock, LOCK_DIR };
