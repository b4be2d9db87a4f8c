/** The test harness's port reservations (ports.js): no port twice, a live holder's port skipped, a dead one's taken over. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, LOCK_DIR, reserve } from './ports';

/** A port number no test uses (above the range the system hands out), whose lock file this test writes itself. */
const PORT = 65_000 + (process.pid % 500);
const lockOf = (port: number) => join(LOCK_DIR, `${port}.lock`);

afterAll(() => rmSync(lockOf(PORT), { force: true }));

it('hands out distinct ports, each locked by this process', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 30; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
  for (const port of ports) expect(readFileSync(lockOf(port), 'utf8')).toBe(String(process.pid));
});

it('skips a port another live process holds and takes over one whose process is gone', () => {
  rmSync(lockOf(PORT), { force: true });
  // Held by a live process (this one's parent).
  writeFileSync(lockOf(PORT), String(process.ppid));
  expect(reserve(PORT)).toBe(false);
  // Held by a process that has exited.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  writeFileSync(lockOf(PORT), gone);
  expect(reserve(PORT)).toBe(true);
  expect(readFileSync(lockOf(PORT), 'utf8')).toBe(String(process.pid));
  // A port this process holds already is not handed out again.
  expect(reserve(PORT)).toBe(false);
  expect(existsSync(lockOf(PORT))).toBe(true);
});
