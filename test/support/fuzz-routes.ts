/**
 * Registry-driven fuzzing on both stores: every declared route and method gets bad argument values,
 * bad URL ids and bad bodies, as a guest and as every role. No answer may be a 5xx (bar the
 * reference's own 501s), carry internals (stack, driver or SQL text, paths) or take longer than 5 s,
 * and a refused request (4xx) must leave the store as it was.
 *
 * Reads run concurrently (8 at a time) with one store digest around them all. Writes run one at a
 * time: a counter on the store port's write methods tells which requests changed something, those get a
 * digest of every document, and a refused one must show no difference; a last digest catches changes
 * made past the port. Stored documents must carry no operator, dotted or prototype keys, and no answer
 * may show a value sent only under a `__proto__` key. Last, every text argument of every write gets a
 * stored-XSS probe marked with its sender, as every caller, and no probe of a writer without
 * unfiltered_html may be stored in a form a browser would run ("stored XSS").
 *
 * The suites test/fuzz-sqlite.test.ts (fast tier) and test/fuzz-mongo.slow.test.ts (full tier) call it.
 *
 * FUZZ_SEED picks another deterministic sample, FUZZ_PER_ARG how many bad values each argument gets
 * (3), FUZZ_DEBUG=1 prints the server's own errors with their stacks.
 */
import { logger } from '#libs/observability/logger';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { COLLECTIONS } from '#libs/data/collections';
import { buildRegistry } from '#libs/routes/index';
import { basic, startTestApp, type TestApp } from './app';
import { digestDiff, digestStore, leakIn, suspiciousKeys, watchWrites, type Digest } from './fuzz-checks';
import { generateCases, generateXssCases, storedXss, type FuzzCase, type Fixtures } from './fuzz';
import { PROTO_MARKER } from './fuzz-values';
import { createRoleUsers, ROLES, type Who } from './roles';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const CONCURRENCY = 8;
const SLOW_MS = 5000;
/** 501s the reference itself answers (deleting what cannot be trashed without force). */
const REFERENCE_501 = new Set(['rest_trash_not_supported']);

interface Finding {
  kind: string;
  label: string;
  detail: string;
}

/** The fuzzing suite on one store: `env` is merged into the test app's environment (MONGO_URL for MongoDB). */
export function fuzzEveryRoute(name: 'sqlite' | 'mongo', env: Record<string, string | undefined>): void {
  describe(`fuzzing every route on ${name}`, () => {
    let app: TestApp;
    let store: Store;
    let creds: Record<Who, string | null>;
    let fixtures: Fixtures;

    beforeAll(async () => {
      if (process.env.FUZZ_DEBUG) {
        // Shows the server's own errors (with stacks) next to the findings.
        logger.level = 'error';
        (logger as unknown as { error: (o: { err?: Error }, m: string) => void }).error = (o, m) => console.error(m, o?.err?.stack ?? o);
      }
      app = await startTestApp(env);
      store = await openStore({ mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB, dataDir: app.config.DATA_DIR });
      await store.ensure(COLLECTIONS);
      const roles = await createRoleUsers(app, 'fz');
      creds = { guest: null } as Record<Who, string | null>;
      for (const role of ROLES) {
        // The role users' passwords are known only to createRoleUsers; make one more per role here.
        const ap = await app.admin('POST', `/cms/v2/users/${roles.ids[role]}/application-passwords`, { body: { name: 'fuzz' } });
        creds[role] = basic(`fz-${role}`, ap.body.password);
        // First use stamps the password's last use; do it before any digest.
        await app.request('GET', '/cms/v2/users/me', { headers: { Authorization: creds[role]! } });
      }
      const make = async (path: string, body: Record<string, unknown>): Promise<string> => {
        const res = await app.admin('POST', path, { body });
        if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${res.text}`);
        return String(res.body.id);
      };
      const post = await make('/cms/v2/posts', { title: 'Fuzz post', content: 'aaaa', status: 'publish' });
      await app.admin('POST', `/cms/v2/posts/${post}`, { body: { content: 'bbbb' } });
      const revisions = await app.admin('GET', `/cms/v2/posts/${post}/revisions`);
      const page = await make('/cms/v2/pages', { title: 'Fuzz page', status: 'publish' });
      const category = await make('/cms/v2/categories', { name: 'Fuzz category' });
      const tag = await make('/cms/v2/tags', { name: 'Fuzz tag' });
      const eventCat = await make('/cms/v2/vendor_events_cat', { name: 'Fuzz event category' });
      const comment = await make('/cms/v2/comments', { post: Number(post), content: 'A comment' });
      const venue = await make('/ec/v1/venues', { title: 'Fuzz venue', city: 'Oslo' });
      const organizer = await make('/ec/v1/organizers', { title: 'Fuzz organizer' });
      const event = await make('/ec/v1/events', {
        title: 'Fuzz event',
        start_date: '2031-11-05 19:00:00',
        end_date: '2031-11-05 21:00:00',
        venues: [Number(venue)],
        organizers: [Number(organizer)],
      });
      const slugOf = async (path: string) => (await app.admin('GET', path)).body.slug as string;
      const ap = await app.admin('POST', '/cms/v2/users/me/application-passwords', { body: { name: 'fuzz fixture' } });
      const me = await app.admin('GET', '/cms/v2/users/me');
      fixtures = {
        byPrefix: {
          '/cms/v2/posts/': post,
          '/cms/v2/pages/': page,
          '/cms/v2/media/': '999999',
          '/cms/v2/categories/': category,
          '/cms/v2/tags/': tag,
          '/cms/v2/vendor_events_cat/': eventCat,
          '/cms/v2/comments/': comment,
          '/cms/v2/users/': String(roles.ids.subscriber),
          '/revisions/': String(revisions.body[0]?.id ?? 1),
          '/autosaves/': '1',
          '/ec/v1/events/': event,
          '/ec/v1/venues/': venue,
          '/ec/v1/organizers/': organizer,
          '/vendor/events/v1/events/': event,
          '/vendor/events/v1/venues/': venue,
          '/vendor/events/v1/organizers/': organizer,
          '/vendor/events/v1/categories/': eventCat,
          '/vendor/events/v1/tags/': tag,
          '/vendor/events/v1/events/by-slug/': await slugOf(`/ec/v1/events/${event}`),
          '/vendor/events/v1/venues/by-slug/': await slugOf(`/ec/v1/venues/${venue}`),
          '/vendor/events/v1/organizers/by-slug/': await slugOf(`/ec/v1/organizers/${organizer}`),
          '/cms-abilities/v1/categories/': 'site',
          '/cms-abilities/v1/abilities/': 'core/get-site-info',
        },
        byGroup: { user_id: 'me', uuid: ap.body.uuid, type: 'post', status: 'publish', taxonomy: 'category', import_id: 'abc123', slug: 'abc' },
      };
      expect(me.status).toBe(200);
    }, 120_000);

    afterAll(async () => {
      await store?.close();
      await app?.close();
    });

    it('answers every bad request without a 5xx, internals, a hang, or a change when refused', async () => {
      const started = Date.now();
      const registry = buildRegistry();
      const cases = generateCases(registry, fixtures, {
        seed: SEED,
        principals: ['guest', ...ROLES],
        perArg: Number(process.env.FUZZ_PER_ARG ?? 3),
        hugePerEndpoint: 2,
      });
      const findings: Finding[] = [];
      const statuses: Record<number, number> = {};
      const who: Record<string, number> = {};
      let sent = 0;

      const send = async (c: FuzzCase): Promise<number> => {
        const headers: Record<string, string> = {};
        if (creds[c.who]) headers.Authorization = creds[c.who]!;
        if (c.contentType) headers['Content-Type'] = c.contentType;
        const url = `${app.restRoot}${c.path}${c.query ? `?${c.query}` : ''}`;
        const t0 = Date.now();
        let status: number;
        let text: string;
        try {
          const res = await fetch(url, { method: c.method, headers, body: c.body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
          status = res.status;
          text = await res.text();
        } catch (e) {
          findings.push({ kind: 'no answer', label: `${c.who} ${c.method} ${c.label}`, detail: String(e) });
          return 0;
        }
        const ms = Date.now() - t0;
        sent++;
        statuses[status] = (statuses[status] ?? 0) + 1;
        who[c.who] = (who[c.who] ?? 0) + 1;
        const label = `${c.who} ${c.method} ${c.path.slice(0, 80)} ${c.label}`;
        if (status >= 500) {
          let code = '';
          try {
            code = JSON.parse(text).code;
          } catch {
            /* not JSON */
          }
          if (!(status === 501 && REFERENCE_501.has(code))) findings.push({ kind: `status ${status}`, label, detail: text.slice(0, 300) });
        }
        if (text.includes(PROTO_MARKER) && !text.includes('__proto__'))
          findings.push({
            kind: 'value read through a prototype',
            label,
            detail: text.slice(Math.max(0, text.indexOf(PROTO_MARKER) - 100), text.indexOf(PROTO_MARKER) + 40),
          });
        const leak = leakIn(text);
        if (leak) findings.push({ kind: 'leak', label, detail: leak });
        if (ms > SLOW_MS) findings.push({ kind: 'slow', label, detail: `${ms} ms` });
        return status;
      };

      // Phase 1: every read, concurrently, between two digests.
      const reads = cases.filter((c) => !c.write);
      const writes = cases.filter((c) => c.write);
      const counter = watchWrites(store);
      // The detector itself: a write through the API moves the counter and shows in the digest.
      const before = await digestStore(store);
      const written = counter.count;
      const probe = await app.admin('POST', '/cms/v2/tags', { body: { name: 'Fuzz probe' } });
      expect(counter.count).toBeGreaterThan(written);
      expect(digestDiff(before, await digestStore(store))).toEqual([`+terms:${probe.body.id}`]);
      const d0 = await digestStore(store, name === 'sqlite' ? app.config.DATA_DIR : undefined);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < reads.length) await send(reads[next++]);
        }),
      );
      const d1 = await digestStore(store, name === 'sqlite' ? app.config.DATA_DIR : undefined);
      const readDiff = digestDiff(d0, d1);
      if (readDiff.length) findings.push({ kind: 'change by reads', label: 'GET phase', detail: readDiff.slice(0, 20).join(' ') });

      const readSecs = (Date.now() - started) / 1000;
      let digestMs = 0;
      const digest = async () => {
        const t = Date.now();
        const d = await digestStore(store, name === 'sqlite' ? app.config.DATA_DIR : undefined);
        digestMs += Date.now() - t;
        return d;
      };
      // Phase 2: stored XSS probes in every text argument of every write, as every caller (before the bad
      // writes, which may change a caller's credentials); no probe of a writer without unfiltered_html may
      // be stored in a form a browser would run.
      const probes = generateXssCases(registry, fixtures, { seed: SEED, principals: ['guest', ...ROLES] });
      const probeStatuses: Record<number, number> = {};
      for (const c of probes) {
        const status = await send(c);
        probeStatuses[status] = (probeStatuses[status] ?? 0) + 1;
      }
      const xss = await storedXss(store);
      for (const hit of xss) findings.push({ kind: 'stored XSS', label: 'store', detail: hit });

      // Phase 3: writes one at a time. A request that changed something through the store (the counter
      // moved) gets a digest; a refused one must not have changed any document. A last digest catches
      // changes made past the store port (files).
      const writes0 = counter.count;
      let baseline: Digest = await digest();
      let seen = counter.count;
      for (const c of writes) {
        const status = await send(c);
        if (counter.count === seen) continue;
        seen = counter.count;
        const after = await digest();
        const diff = digestDiff(baseline, after);
        if (status >= 400 && status < 500 && diff.length) {
          findings.push({
            kind: `change by a refused request (${status})`,
            label: `${c.who} ${c.method} ${c.path} ${c.label}`,
            detail: diff.slice(0, 10).join(' '),
          });
        }
        baseline = after;
      }
      const last = digestDiff(baseline, await digest());
      if (last.length) findings.push({ kind: 'change outside the store port', label: 'write phase', detail: last.slice(0, 20).join(' ') });
      // Nothing stored carries keys a store would read as operators or paths, or prototype keys.
      const odd = await suspiciousKeys(store);
      if (odd.length) findings.push({ kind: 'stored operator or prototype keys', label: 'store', detail: odd.slice(0, 20).join(' ') });
      // Nothing leaked onto shared prototypes.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const secs = ((Date.now() - started) / 1000).toFixed(1);

      console.log(`[fuzz ${name}] stored XSS probes ${probes.length}: statuses ${JSON.stringify(probeStatuses)}; stored runnable ${xss.length}`);
      console.log(
        `[fuzz ${name}] seed=${SEED} requests=${sent} (reads ${reads.length}, writes ${writes.length}) in ${secs}s (reads ${readSecs.toFixed(1)}s, ${counter.count - writes0} store writes, digests ${(digestMs / 1000).toFixed(1)}s); statuses ${JSON.stringify(statuses)}; callers ${JSON.stringify(who)}; findings ${findings.length}`,
      );
      const byKind = new Map<string, Finding[]>();
      for (const f of findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
      const report = [...byKind].map(
        ([kind, list]) =>
          `${kind}: ${list.length}\n${list
            .slice(0, 15)
            .map((f) => `  ${f.label}\n    ${f.detail.replace(/\s+/g, ' ').slice(0, 300)}`)
            .join('\n')}`,
      );
      expect(report.join('\n')).toBe('');
      expect(sent).toBeGreaterThan(3000);
    }, 600_000);
  });
}
