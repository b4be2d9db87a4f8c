/**
 * The fuzzer's inputs (test/support/fuzz.ts makes the cases): a seeded PRNG and the bad values,
 * ids, batches, query strings and bodies it samples from.
 */

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a small seeded PRNG, enough to sample cases reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

/** `n` distinct items of a list, in a seeded order. */
export function sample<T>(rand: () => number, list: readonly T[], n: number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// Bad values

/**
 * One bad value of an argument, in the forms a channel carries it: `json` (a JS value placed in a JSON
 * body), `jsonRaw` (JSON text or bytes placed as they are, for what JSON.stringify cannot write: 1e309,
 * lone surrogates, invalid UTF-8, 10,000 levels of nesting), and `qs` (an encoded query/form fragment).
 */
export interface BadValue {
  label: string;
  json?: unknown;
  jsonRaw?: string | Buffer;
  qs?: (name: string) => string;
  /** A large payload: only a few are sent per route. */
  huge?: boolean;
}

const enc = encodeURIComponent;
const q = (suffix: string) => (n: string) => `${enc(n)}${suffix}`;
const qv = (value: string) => (n: string) => `${enc(n)}=${enc(value)}`;

const DEPTH = 10_000;
/** Text sent only under a `__proto__` key; an answer that shows it without that key read it through a prototype. */
export const PROTO_MARKER = 'PROTO-SHADOW-VALUE';
const HUGE_TEXT = 'x'.repeat(100_000);

export const BAD_VALUES: BadValue[] = [
  { label: 'array', json: ['a', 'b'], qs: q('[]=a&NAME[]=b') },
  { label: 'nested-array', json: [['a'], [{}]], qs: q('[0][0]=a&NAME[1][x]=1') },
  { label: 'object', json: { a: 1 }, qs: q('[a]=1') },
  { label: 'empty-object', json: {} },
  { label: 'empty-array', json: [] },
  { label: 'op-ne', json: { $ne: 'x' }, qs: q('[$ne]=x') },
  { label: 'op-gt', json: { $gt: '' }, qs: q('[$gt]=') },
  { label: 'op-regex', json: { $regex: '.*' }, qs: q('[$regex]=.*') },
  { label: 'op-where', json: { $where: 'sleep(10000) || true' }, qs: q('[$where]=sleep(10000)') },
  { label: 'op-in', json: { $in: [1, 'a'] }, qs: q('[$in][]=1&NAME[$in][]=a') },
  { label: 'op-exists', json: { $exists: true }, qs: q('[$exists]=1') },
  { label: 'op-icontains', json: { $icontains: '' }, qs: q('[$icontains]=') },
  { label: 'op-or', json: [{ $or: [{}] }], qs: q('[0][$or][0][a]=1') },
  { label: 'proto', jsonRaw: '{"__proto__":{"polluted":"yes"}}', qs: q('[__proto__][polluted]=yes') },
  {
    // Properties only an object's prototype would carry: none of them may take effect.
    label: 'proto-shadow',
    jsonRaw: `{"__proto__":${JSON.stringify(Object.fromEntries(['raw', 'rendered', 'name', 'title', 'status', 'id', 'slug', 'value', '0'].map((k) => [k, PROTO_MARKER])))}}`,
  },
  { label: 'constructor', json: { constructor: { prototype: { polluted: 'yes' } } }, qs: q('[constructor][prototype][polluted]=yes') },
  { label: 'proto-in-array', jsonRaw: '[{"__proto__":{"polluted":"yes"}}]', qs: q('[0][__proto__][polluted]=yes') },
  { label: 'negative', json: -1, qs: qv('-1') },
  { label: 'below-int32', json: -2147483649, qs: qv('-2147483649') },
  { label: 'huge-int-text', json: '99999999999999999999', qs: qv('99999999999999999999') },
  { label: 'huge-int-number', jsonRaw: '99999999999999999999', qs: qv('1e21') },
  { label: 'unsafe-int', jsonRaw: '9007199254740993', qs: qv('9007199254740993') },
  { label: 'inf-literal', jsonRaw: '1e309', qs: qv('1e309') },
  { label: 'neg-inf-literal', jsonRaw: '-1e309', qs: qv('-1e309') },
  { label: 'inf-text', json: '1e309' },
  { label: 'nan-text', json: 'NaN', qs: qv('NaN') },
  { label: 'infinity-text', json: 'Infinity', qs: qv('-Infinity') },
  { label: 'hex-text', json: '0x10', qs: qv('0x10') },
  { label: 'negative-zero', jsonRaw: '-0', qs: qv('-0') },
  { label: 'float', json: 1.5, qs: qv('1.5') },
  { label: 'tiny-float', jsonRaw: '1e-400', qs: qv('4.9e-324') },
  { label: 'boolean', json: true, qs: qv('true') },
  { label: 'null', json: null, qs: (n) => enc(n) },
  { label: 'empty', json: '', qs: qv('') },
  { label: 'spaces', json: '   ', qs: qv('   ') },
  { label: 'nul-byte', json: 'a\u0000b', qs: q('=a%00b') },
  { label: 'invalid-utf8', jsonRaw: Buffer.from([0x22, 0x61, 0xff, 0xfe, 0xc3, 0x28, 0x22]), qs: q('=a%FF%FE%C3%28') },
  { label: 'lone-surrogate', jsonRaw: '"a\\ud800b\\udfff"', qs: q('=a%ED%A0%80b') },
  { label: 'catastrophic-regex', json: '(a+)+$', qs: qv('(a+)+$') },
  { label: 'backtracking-text', json: `${'a'.repeat(5000)}!`, qs: qv(`${'a'.repeat(3000)}!`) },
  { label: 'regex-special', json: '.*[](){}|\\^$?+', qs: qv('.*[](){}|\\^$?+') },
  { label: 'sql-text', json: "' OR 1=1; DROP TABLE posts; --", qs: qv("' OR '1'='1") },
  { label: 'like-wildcards', json: '%_%\\', qs: qv('%_%\\') },
  { label: 'template-text', json: '${process.exit()}{{7*7}}<script>', qs: qv('${7*7}{{7*7}}') },
  { label: 'rtl-emoji', json: '\u202e\ud83d\ude00\ufeff', qs: qv('\u202e\ud83d\ude00') },
  { label: 'bad-date', json: '2021-02-30T25:61:61', qs: qv('0000-00-00 00:00:00') },
  { label: 'list-junk', json: '1,2,abc,-5,,', qs: qv('1, 2 ,abc,-5,,') },
  { label: 'path-traversal', json: '../../../etc/passwd', qs: qv('..%2F..%2Fetc%2Fpasswd') },
  { label: 'sparse-index', json: { 0: 1, 999999: 2 }, qs: q('[0]=1&NAME[999999]=2') },
  { label: 'qs-deep', qs: q('[a][b][c][d][e][f][g][h]=1') },
  { label: 'many-items', json: Array.from({ length: 2000 }, (_, i) => i), qs: (n) => Array.from({ length: 1500 }, (_, i) => `${enc(n)}[]=${i}`).join('&') },
  { label: 'huge-text', json: HUGE_TEXT, huge: true },
  { label: 'huge-array', json: new Array(100_000).fill(1), huge: true },
  { label: 'huge-object', json: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])), huge: true },
  { label: 'deep-array', jsonRaw: '['.repeat(DEPTH) + ']'.repeat(DEPTH), huge: true },
  { label: 'deep-object', jsonRaw: '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH), huge: true },
];

/** The values a URL id is fuzzed with (already encoded). */
export const BAD_IDS = ['abc', '99999999999999999999', '-1', '0', '1e3', '1.5', '%00', '%FF%FE', '1%2F2', '..%2F..', '%20', '1%0A'];

export const BAD_BATCHES: Array<{ label: string; body: string }> = [
  { label: 'path-operator', body: '{"requests":[{"path":{"$gt":""}}]}' },
  { label: 'path-relative', body: '{"requests":[{"path":"cms/v2/posts"},{"path":"//evil.test/x"},{"path":"/../../etc/passwd"}]}' },
  { label: 'path-bad-escape', body: '{"requests":[{"path":"/cms/v2/posts/%FF%FE"},{"path":"/cms/v2/posts/1%00"}]}' },
  {
    label: 'method-junk',
    body: '{"requests":[{"method":"TRACE","path":"/cms/v2/posts"},{"method":["POST"],"path":"/cms/v2/posts"},{"method":{"$ne":1},"path":"/cms/v2/tags"}]}',
  },
  { label: 'nested-batch', body: '{"requests":[{"path":"/batch/v1","body":{"requests":[{"path":"/cms/v2/posts"}]}}]}' },
  { label: 'too-many', body: JSON.stringify({ requests: Array.from({ length: 30 }, () => ({ path: '/cms/v2/tags', body: { name: 'x' } })) }) },
  {
    label: 'body-not-object',
    body: '{"requests":[{"path":"/cms/v2/posts","body":[1,2]},{"path":"/cms/v2/tags","body":"name=x"},{"path":"/cms/v2/tags","body":null}]}',
  },
  {
    label: 'headers-junk',
    body: '{"requests":[{"path":"/cms/v2/tags","headers":{"__proto__":["x"],"X-HTTP-Method-Override":{"a":1}},"body":{"name":{"__proto__":{"raw":"PROTO-SHADOW-VALUE"}}}}]}',
  },
  { label: 'method-override-delete', body: '{"requests":[{"path":"/cms/v2/tags/1?_method=DELETE&force=maybe","body":{}}]}' },
  {
    label: 'require-all-one-bad',
    body: '{"validation":"require-all-validate","requests":[{"path":"/cms/v2/tags","body":{"name":"fine"}},{"path":"/cms/v2/tags","body":{"name":{"$gt":""}}}]}',
  },
  { label: 'requests-object', body: '{"requests":{"0":{"path":"/cms/v2/tags","body":{"name":"a"}},"$gt":""}}' },
  { label: 'requests-empty', body: '{"requests":[]}' },
];

export const GLOBAL_QUERIES = [
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '_fields[$ne]=x',
  '_fields[__proto__]=x',
  '_embed[]=author&_embed[x][y]=1',
  '_method[]=DELETE',
  '_method=%00',
  '_envelope[a]=1',
  'context[]=edit',
  'context=%FF%FE',
  'page=99999999999999999999&per_page=-1',
  'offset=1e309&page=NaN',
  'search[$regex]=.*',
  'search=(a%2B)%2B%24',
  'slug[$ne]=x',
  'orderby[$where]=1',
  'a[b][c][d][e][f][g][h][i]=1',
  Array.from({ length: 2100 }, (_, i) => `p${i}`).join('&'),
];

const MULTIPART_JUNK = [
  '--xyz',
  'Content-Disposition: form-data; name="title"',
  '',
  'hello',
  '--xyz',
  'Content-Disposition: form-data; name="file"; filename="../../\u0000evil.php"',
  'Content-Type: image/png',
  '',
  '\u0089PNG junk',
  '--xyz',
  'Content-Disposition: form-data; name="meta[__proto__][polluted]"',
  '',
  'yes',
].join('\r\n');

export const BAD_BODIES: Array<{ label: string; body: Buffer; contentType?: string }> = [
  { label: 'text-plain', body: Buffer.from('{"title":"x"}'), contentType: 'text/plain' },
  { label: 'no-content-type', body: Buffer.from('{"title":"x"}') },
  { label: 'invalid-json', body: Buffer.from('{"title":'), contentType: 'application/json' },
  { label: 'json-bom', body: Buffer.from('\ufeff{"title":"x"}'), contentType: 'application/json' },
  { label: 'json-null', body: Buffer.from('null'), contentType: 'application/json' },
  { label: 'json-array', body: Buffer.from('[1,2,{"$gt":""}]'), contentType: 'application/json' },
  { label: 'json-string', body: Buffer.from('"x"'), contentType: 'application/json' },
  { label: 'json-inf', body: Buffer.from('1e309'), contentType: 'application/json' },
  {
    label: 'json-proto',
    body: Buffer.from('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}'),
    contentType: 'application/json',
  },
  { label: 'json-invalid-utf8', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]), contentType: 'application/json' },
  { label: 'json-deep', body: Buffer.from('{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)), contentType: 'application/json' },
  { label: 'json-deep-array', body: Buffer.from('['.repeat(DEPTH) + ']'.repeat(DEPTH)), contentType: 'application/json' },
  { label: 'json-huge-array', body: Buffer.from(JSON.stringify(new Array(200_000).fill(0))), contentType: 'application/json' },
  { label: 'json-charset-junk', body: Buffer.from('{"title":"x"}'), contentType: 'application/json; charset=ebcdic' },
  { label: 'multipart-junk', body: Buffer.from(MULTIPART_JUNK, 'latin1'), contentType: 'multipart/form-data; boundary=xyz' },
  { label: 'multipart-no-boundary', body: Buffer.from('junk'), contentType: 'multipart/form-data' },
  {
    label: 'multipart-truncated',
    body: Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'),
    contentType: 'multipart/form-data; boundary=xyz',
  },
  {
    label: 'form-proto',
    body: Buffer.from('__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a[$gt]='),
    contentType: 'application/x-www-form-urlencoded',
  },
  { label: 'form-invalid-utf8', body: Buffer.from('title=%FF%FE&content=%ED%A0%80'), contentType: 'application/x-www-form-urlencoded' },
  { label: 'xml', body: Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'), contentType: 'application/xml' },
];
