/**
 * A request fuzzer driven by the route registry: for every route and method it declares, bad values
 * per declared argument (wrong types, out-of-range numbers, huge and malformed text, operator and
 * prototype keys, deep and huge JSON), sent in the query string, a JSON body or a form body, plus
 * bad URL ids and wrong bodies (content types, invalid JSON). Sampling is deterministic: a seeded PRNG
 * picks the values, the channel and the caller of each case, so a failure reproduces.
 *
 * The values it samples are in fuzz-values.ts; what an answer must never contain (a stack trace, driver or
 * SQL text, a file path) and how to digest the store, so a test can tell whether a refused request changed
 * anything, in fuzz-checks.ts.
 */
import { COLLECTIONS } from '#libs/data/collections';
import type { ArgDecl, CompiledRoute, EndpointDecl, RouteRegistry } from '#libs/rest/registry';
import type { Store } from '#libs/store/types';
import type { Who } from './roles';
import { BAD_BATCHES, BAD_BODIES, BAD_IDS, BAD_VALUES, GLOBAL_QUERIES, pick, prng, sample, type BadValue } from './fuzz-values';
import { markupProbe, xssIn } from './xss';

// ---------------------------------------------------------------------------------------------
// Cases

export interface FuzzCase {
  who: Who;
  method: string;
  /** Route path relative to the REST root, already URL-encoded where needed. */
  path: string;
  /** Raw query string, encoded, without '?'. */
  query: string;
  body?: Buffer;
  contentType?: string;
  /** Endpoint id and what was fuzzed, for reports. */
  label: string;
  /** Whether the request may write (any method but GET). */
  write: boolean;
}

/**
 * Records the fuzz works on, so paths name things that exist: a path group's value is found by the
 * route text before it (`/cms/v2/posts/` for a post id), else by the group's name (`uuid`, `type`).
 */
export interface Fixtures {
  byPrefix: Record<string, string>;
  byGroup: Record<string, string>;
}

const GROUP_RE = /\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g;

/** The pattern's text up to the start of a group, with earlier groups as they were filled. */
function fillPath(route: CompiledRoute, fill: (group: string, prefix: string, index: number) => string): string {
  let out = '';
  let i = 0;
  let index = 0;
  const src = route.pattern;
  GROUP_RE.lastIndex = 0;
  for (let m = GROUP_RE.exec(src); m; m = GROUP_RE.exec(src)) {
    out += src.slice(i, m.index);
    // Skip to the group's closing parenthesis.
    let depth = 0;
    let j = m.index;
    for (; j < src.length; j++) {
      if (src[j] === '\\') {
        j++;
        continue;
      }
      if (src[j] === '(') depth++;
      else if (src[j] === ')' && --depth === 0) break;
    }
    out += fill(m[1], out, index++);
    i = j + 1;
    GROUP_RE.lastIndex = i;
  }
  return out + src.slice(i);
}

/** Fills every path group of a route with a value that exists (or at least matches the route). */
export function samplePath(registry: RouteRegistry, route: CompiledRoute, fx: Fixtures, override?: { index: number; value: string }): string {
  const fill = (group: string, prefix: string, index: number): string => {
    if (override && override.index === index) return override.value;
    const hit = Object.entries(fx.byPrefix).find(([p]) => prefix.endsWith(p));
    if (hit) return hit[1];
    if (fx.byGroup[group] !== undefined) return fx.byGroup[group];
    return group === 'id' || group === 'parent' ? '1' : 'abc';
  };
  const path = fillPath(route, fill);
  if (!override) {
    const m = registry.match(path, 'anyone');
    if (m?.route !== route) throw new Error(`sample path ${path} does not reach ${route.pattern}`);
  }
  return path;
}

function jsonBody(fields: Record<string, BadValue | unknown>): Buffer {
  // Raw JSON parts are spliced in where a marker string stands.
  const raws: Array<string | Buffer> = [];
  const obj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (isBad(v)) {
      if (v.jsonRaw !== undefined) {
        obj[k] = `\u0001RAW${raws.length}\u0001`;
        raws.push(v.jsonRaw);
      } else obj[k] = v.json;
    } else obj[k] = v;
  }
  const text = JSON.stringify(obj);
  const parts: Buffer[] = [];
  let rest = text;
  raws.forEach((raw, i) => {
    const marker = JSON.stringify(`\u0001RAW${i}\u0001`);
    const at = rest.indexOf(marker);
    parts.push(Buffer.from(rest.slice(0, at)), typeof raw === 'string' ? Buffer.from(raw) : raw);
    rest = rest.slice(at + marker.length);
  });
  parts.push(Buffer.from(rest));
  return Buffer.concat(parts);
}

function isBad(v: unknown): v is BadValue {
  return typeof v === 'object' && v !== null && 'label' in v && ('json' in v || 'jsonRaw' in v || 'qs' in v);
}

function qsOf(name: string, v: BadValue): string | undefined {
  return v.qs ? v.qs(name).replace(/NAME/g, encodeURIComponent(name)) : undefined;
}

export interface GenerateOptions {
  seed: number;
  principals: readonly Who[];
  /** Bad values per argument (the huge ones are extra, a few per route). */
  perArg: number;
  /** Huge payloads per endpoint. */
  hugePerEndpoint: number;
}

/** Every case of the run, in a deterministic order. */
export function generateCases(registry: RouteRegistry, fx: Fixtures, opts: GenerateOptions): FuzzCase[] {
  const rand = prng(opts.seed);
  const small = BAD_VALUES.filter((v) => !v.huge);
  const huge = BAD_VALUES.filter((v) => v.huge);
  const cases: FuzzCase[] = [];
  for (const route of registry.all()) {
    const path = samplePath(registry, route, fx);
    for (const ep of route.endpoints) {
      const methods = ep.methods;
      const add = (c: Omit<FuzzCase, 'who' | 'method' | 'write'> & { method?: string }) => {
        const method = c.method ?? pick(rand, methods);
        cases.push({ ...c, who: pick(rand, opts.principals), method, write: method !== 'GET' });
      };
      const write = methods.some((m) => m !== 'GET');
      const argNames = Object.keys(ep.args);
      for (const name of argNames) {
        for (const bad of sample(rand, small, opts.perArg)) addValueCase(add, rand, ep, path, name, bad, write);
      }
      // A few huge payloads per endpoint, on arguments picked at random (or an unknown one).
      for (let i = 0; i < opts.hugePerEndpoint; i++) {
        const name = argNames.length ? pick(rand, argNames) : 'x';
        addValueCase(add, rand, ep, path, name, pick(rand, huge), write);
      }
      // Bad ids in the URL.
      const groups = route.groups.length;
      for (let g = 0; g < groups; g++) {
        for (const bad of sample(rand, BAD_IDS, 3)) {
          add({ path: samplePath(registry, route, fx, { index: g, value: bad }), query: '', label: `${ep.id} url[${route.groups[g]}]=${bad}` });
        }
      }
      // Global parameters and prototype keys at the top of the query.
      for (const extra of sample(rand, GLOBAL_QUERIES, 2)) add({ path, query: extra, label: `${ep.id} ?${extra.slice(0, 60)}` });
      if (write) {
        const writeMethods = methods.filter((m) => m !== 'GET');
        for (const body of sample(rand, BAD_BODIES, 3)) {
          add({ path, query: '', method: pick(rand, writeMethods), body: body.body, contentType: body.contentType, label: `${ep.id} body:${body.label}` });
        }
      }
    }
  }
  // Batches: bad values inside sub-requests of batchable write endpoints, and malformed batches.
  const batchable = registry
    .all()
    .flatMap((route) => route.endpoints.filter((ep) => ep.allowBatch && ep.methods.some((m) => m !== 'GET')).map((ep) => ({ route, ep })));
  const jsonValues = BAD_VALUES.filter((v) => !v.huge && 'json' in v);
  for (const { route, ep } of batchable) {
    const path = samplePath(registry, route, fx);
    const names = Object.keys(ep.args);
    for (let i = 0; i < 4; i++) {
      const name = names.length ? pick(rand, names) : 'x';
      const bad = pick(rand, jsonValues);
      const method = pick(
        rand,
        ep.methods.filter((m) => m !== 'GET'),
      );
      const validation = pick(rand, ['normal', 'require-all-validate']);
      const requests = [
        { method, path, body: { [name]: bad.json } },
        { method: 'POST', path: `${path}?${qsOf(name, bad) ?? ''}`, body: {} },
      ];
      cases.push({
        who: pick(rand, opts.principals),
        method: 'POST',
        path: '/batch/v1',
        query: '',
        body: Buffer.from(JSON.stringify({ validation, requests })),
        contentType: 'application/json',
        label: `batch.v1 ${ep.id} ${name}=${bad.label}`,
        write: true,
      });
    }
  }
  for (const batch of BAD_BATCHES) {
    for (const who of opts.principals) {
      cases.push({
        who,
        method: 'POST',
        path: '/batch/v1',
        query: '',
        body: Buffer.from(batch.body),
        contentType: 'application/json',
        label: `batch.v1 ${batch.label}`,
        write: true,
      });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Stored XSS probes

/** Values for a write's required arguments (by name, else by type), so a probe in another argument reaches the store. */
function requiredValue(name: string, decl: ArgDecl, fx: Fixtures, n: number): unknown {
  const byName: Record<string, unknown> = {
    start_date: '2031-08-01 10:00:00',
    end_date: '2031-08-01 12:00:00',
    username: `probe-user-${n}`,
    email: `probe-${n}@example.com`,
    password: 'pw-123456',
    post: Number(fx.byPrefix['/cms/v2/posts/']),
    reassign: 1,
  };
  if (name in byName) return byName[name];
  if (decl.default !== undefined) return decl.default;
  const types = decl.type === undefined ? ['string'] : Array.isArray(decl.type) ? decl.type : [decl.type];
  if (decl.enum?.length) return decl.enum[0];
  if (types.includes('string')) return `Probe ${n}`;
  if (types.includes('integer') || types.includes('number')) return 1;
  if (types.includes('boolean')) return true;
  if (types.includes('array')) return [];
  return {};
}

/** An argument a writer may put text in: declared as a string (or untyped), not one of a fixed set of values. */
function takesText(decl: ArgDecl): boolean {
  const types = decl.type === undefined ? ['string'] : Array.isArray(decl.type) ? decl.type : [decl.type];
  return types.includes('string') && !decl.enum && decl.format !== 'date-time' && decl.format !== 'email';
}

/** Whether an argument holds a URL. */
const isUrlArg = (name: string, decl: ArgDecl) => decl.format === 'uri' || /(^|_)(url|website|link)$/.test(name);

/**
 * One write per text argument of every write endpoint, carrying a probe marked with who sends it
 * (`xss_author`): markup in text arguments, a `javascript:` URL in URL arguments, the endpoint's other
 * required arguments filled so the write can succeed. A scan of the store afterwards (storedXss) finds
 * a probe of a writer without unfiltered_html that kept its runnable markup.
 */
export function generateXssCases(registry: RouteRegistry, fx: Fixtures, opts: Pick<GenerateOptions, 'seed' | 'principals'>): FuzzCase[] {
  const rand = prng(opts.seed + 1);
  const cases: FuzzCase[] = [];
  let n = 0;
  for (const route of registry.all()) {
    const path = samplePath(registry, route, fx);
    for (const ep of route.endpoints) {
      const methods = ep.methods.filter((m) => m !== 'GET' && m !== 'DELETE');
      if (!methods.length || ep.service === 'gateway') continue;
      for (const [name, decl] of Object.entries(ep.args)) {
        if (!takesText(decl) || route.groups.includes(name)) continue;
        const who = pick(rand, opts.principals);
        const marker = `xss_${who}_${++n}`;
        const body: Record<string, unknown> = {};
        for (const [other, d] of Object.entries(ep.args)) if (d.required && !route.groups.includes(other)) body[other] = requiredValue(other, d, fx, n);
        body[name] = isUrlArg(name, decl) ? `javascript:${marker}()` : markupProbe(marker);
        cases.push({
          who,
          method: pick(rand, methods),
          path,
          query: '',
          body: Buffer.from(JSON.stringify(body)),
          contentType: 'application/json',
          label: `${ep.id} ${name}=xss`,
          write: true,
        });
      }
    }
  }
  return cases;
}

/** Writers whose markup the reference filters: a probe of theirs must never be stored runnable. */
const FILTERED_WRITER = /xss_(guest|subscriber|contributor|author)_\d+/;

/** Every stored document holding a filtered writer's probe in runnable form, with where. */
export async function storedXss(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const spec of COLLECTIONS) {
    for (const doc of await store.collection(spec.name).find({})) {
      for (const hit of xssIn(doc)) if (FILTERED_WRITER.test(hit)) found.push(`${spec.name}:${String(doc.id)} ${hit}`);
    }
  }
  return found;
}

function addValueCase(
  add: (c: Omit<FuzzCase, 'who' | 'method' | 'write'> & { method?: string }) => void,
  rand: () => number,
  ep: EndpointDecl,
  path: string,
  name: string,
  bad: BadValue,
  write: boolean,
): void {
  const label = `${ep.id} ${name}=${bad.label}`;
  const canJson = bad.json !== undefined || bad.jsonRaw !== undefined || 'json' in bad;
  const fragment = qsOf(name, bad);
  const writeMethods = ep.methods.filter((m) => m !== 'GET');
  if (!write) {
    // A GET carries its arguments in the query; a value a query cannot write is left out.
    if (fragment && !bad.huge) add({ path, query: fragment, label: `${label} (query)` });
    return;
  }
  const r = rand();
  const method = writeMethods.length ? pick(rand, writeMethods) : undefined;
  if (canJson && (r < 0.7 || !fragment)) {
    add({ path, query: '', method, body: jsonBody({ [name]: bad }), contentType: 'application/json', label: `${label} (json)` });
  } else if (fragment && r < 0.85 && !bad.huge) {
    add({ path, query: fragment, method, label: `${label} (query)` });
  } else if (fragment) {
    add({ path, query: '', method, body: Buffer.from(fragment), contentType: 'application/x-www-form-urlencoded', label: `${label} (form)` });
  }
}
