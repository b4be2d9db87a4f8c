import { ParamError } from './errors';
import type { ArgDecl } from './registry';
import { coerce, isEmail, isRfc3339, listJoin, ownEntry, validateArg } from './validate';

function check(value: unknown, decl: ArgDecl, name = 'x') {
  return validateArg(name, value, decl, {});
}
function errorOf(value: unknown, decl: ArgDecl, name = 'x'): ParamError {
  const r = check(value, decl, name);
  if (!('error' in r)) throw new Error(`expected an error for ${JSON.stringify(value)}`);
  return r.error as ParamError;
}

describe('coercion as the reference does it', () => {
  it('reads integers from digit strings and integral numbers', () => {
    expect(check('1', { type: 'integer' })).toEqual({ value: 1 });
    expect(check(' +7 ', { type: 'integer' })).toEqual({ value: 7 });
    expect(check('2.0', { type: 'integer' })).toEqual({ value: 2 });
    expect(check(3, { type: 'integer' })).toEqual({ value: 3 });
    expect(errorOf('1.1', { type: 'integer' }).code).toBe('rest_invalid_type');
    expect(errorOf('abc', { type: 'integer' }).message).toBe('x is not of type integer.');
    expect(errorOf(true, { type: 'integer' }).code).toBe('rest_invalid_type');
  });

  it('reads booleans from true/false/1/0 in any case', () => {
    for (const v of [true, 1, '1', 'true', 'TRUE']) expect(check(v, { type: 'boolean' })).toEqual({ value: true });
    for (const v of [false, 0, '0', 'false', 'False']) expect(check(v, { type: 'boolean' })).toEqual({ value: false });
    expect(errorOf('yes', { type: 'boolean' }).code).toBe('rest_invalid_type');
    expect(errorOf(1123, { type: 'boolean' }).code).toBe('rest_invalid_type');
  });

  it('never turns numbers into strings', () => {
    expect(errorOf(1, { type: 'string' }).message).toBe('x is not of type string.');
    expect(check('1', { type: 'string' })).toEqual({ value: '1' });
  });

  it('splits lists on commas and spaces and drops empty pieces', () => {
    expect(check('1,2 3', { type: 'array', items: { type: 'integer' } })).toEqual({ value: [1, 2, 3] });
    expect(check('1,,', { type: 'array', items: { type: 'string' } })).toEqual({ value: ['1'] });
    expect(check('', { type: 'array', items: { type: 'integer' } })).toEqual({ value: [] });
    expect(errorOf({ first: '1' }, { type: 'array' }).code).toBe('rest_invalid_type');
    expect(errorOf('a,b', { type: 'array', items: { type: 'integer' } }).message).toBe('x[0] is not of type integer.');
  });

  it('takes "" as an empty object and prefers string for "" in a type list', () => {
    expect(check('', { type: 'object' })).toEqual({ value: {} });
    expect(coerce('', { type: ['integer', 'string'] })).toBe('');
    expect(check(null, { type: ['string', 'null'] })).toEqual({ value: null });
  });
});

describe('keywords and the reference wording', () => {
  it('enum', () => {
    expect(errorOf('banana', { type: 'string', enum: ['view', 'embed', 'edit'] })).toMatchObject({
      code: 'rest_not_in_enum',
      message: 'x is not one of view, embed, and edit.',
    });
    expect(errorOf('c', { type: 'string', enum: ['a', 'b'] }).message).toBe('x is not one of a and b.');
    expect(check('1', { type: 'integer', enum: [1, 2] })).toEqual({ value: 1 });
  });

  it('bounds', () => {
    const perPage: ArgDecl = { type: 'integer', minimum: 1, maximum: 100 };
    expect(errorOf(0, perPage, 'per_page')).toMatchObject({
      code: 'rest_out_of_bounds',
      message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
    });
    expect(errorOf('101', perPage, 'per_page').message).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    expect(errorOf(0, { type: 'integer', minimum: 1 }, 'page').message).toBe('page must be greater than or equal to 1');
    expect(errorOf(1, { type: 'integer', minimum: 1, exclusiveMinimum: true }).message).toBe('x must be greater than 1');
    expect(errorOf(9, { type: 'integer', maximum: 5 }).message).toBe('x must be less than or equal to 5');
  });

  it('items, uniqueness, lengths and patterns', () => {
    expect(errorOf([1, 1], { type: 'array', uniqueItems: true }).message).toBe('x has duplicate items.');
    expect(errorOf(new Array(26).fill({}), { type: 'array', maxItems: 25 }, 'requests').message).toBe('requests must contain at most 25 items.');
    expect(errorOf('', { type: 'string', minLength: 1 }).message).toBe('x must be at least 1 character long.');
    expect(errorOf('abc', { type: 'string', maxLength: 2 }).message).toBe('x must be at most 2 characters long.');
    expect(errorOf('   ', { type: 'string', pattern: '.*\\S.*' }).code).toBe('rest_invalid_pattern');
  });

  it('object properties: required, additional, nested enum paths', () => {
    const req: ArgDecl = {
      type: 'array',
      items: { type: 'object', properties: { method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] }, path: { type: 'string', required: true } } },
    };
    expect(errorOf([{ method: 'GET', path: '/x' }], req, 'requests').message).toBe('requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
    expect(errorOf([{ method: 'POST' }], req, 'requests')).toMatchObject({
      code: 'rest_property_required',
      message: 'path is a required property of requests[0].',
    });
    expect(errorOf({ a: 1, b: 2 }, { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false }).message).toBe(
      'b is not a valid property of Object.',
    );
  });

  it('formats', () => {
    expect(errorOf('2010-60-01T02:00:00Z', { type: 'string', format: 'date-time' })).toMatchObject({ code: 'rest_invalid_date', message: 'Invalid date.' });
    expect(check('2016-06-30T05:43:21', { type: 'string', format: 'date-time' })).toEqual({ value: '2016-06-30T05:43:21' });
    expect(errorOf('not-an-email', { type: 'string', format: 'email' }).code).toBe('rest_invalid_email');
    expect(errorOf('nope', { type: 'string', format: 'uuid' }).message).toBe('x is not a valid UUID.');
    // A uri is never refused, only sanitized as sanitize_url does.
    expect(check('not a url at all', { type: 'string', format: 'uri' })).toEqual({ value: 'http://not%20a%20url%20at%20all' });
  });

  it('sanitizes uri, text-field and textarea-field strings when the argument has no sanitize callback of its own', () => {
    const uri = { type: 'string', format: 'uri' } as const;
    expect(check('javascript:alert(1)', uri)).toEqual({ value: '' });
    expect(check('data:text/html,<script>alert(1)</script>', uri)).toEqual({ value: '' });
    expect(check('https://e.test/a"><script>', uri)).toEqual({ value: 'https://e.test/ascript' });
    expect(check('<b>Bold</b>\n  text %41', { type: 'string', format: 'text-field' })).toEqual({ value: 'Bold text' });
    expect(check('line one\nline <i>two</i>', { type: 'string', format: 'textarea-field' })).toEqual({ value: 'line one\nline two' });
    // Inside lists and objects.
    expect(check(['javascript:x', 'http://a.test'], { type: 'array', items: uri })).toEqual({ value: ['', 'http://a.test'] });
    expect(check({ site: 'vbscript:x', name: '<b>n</b>' }, { type: 'object', properties: { site: uri, name: { type: 'string' } } })).toEqual({
      value: { site: '', name: '<b>n</b>' },
    });
    // An argument's own sanitize callback replaces the schema's.
    expect(check('javascript:x', { ...uri, sanitize: (v: unknown) => `kept ${String(v)}` })).toEqual({ value: 'kept javascript:x' });
  });

  it('anyOf picks the matching branch', () => {
    const appId: ArgDecl = {
      type: 'string',
      anyOf: [
        { type: 'string', format: 'uuid' },
        { type: 'string', enum: [''] },
      ],
    };
    expect(check('', appId)).toEqual({ value: '' });
    expect(errorOf('xyz', appId).code).toBe('rest_no_matching_schema');
  });

  it('runs custom validate and sanitize after the schema', () => {
    const decl: ArgDecl = { type: 'string', validate: (v) => (v === 'ok' ? true : new ParamError('custom', 'nope')), sanitize: (v) => String(v).toUpperCase() };
    expect(check('ok', decl)).toEqual({ value: 'OK' });
    expect(errorOf('bad', decl).code).toBe('custom');
  });
});

describe('format helpers', () => {
  it('checks RFC 3339 dates against the calendar', () => {
    expect(isRfc3339('2024-02-29T00:00:00Z')).toBe(true);
    expect(isRfc3339('2023-02-29T00:00:00Z')).toBe(false);
    expect(isRfc3339('2016-06-30')).toBe(false);
    expect(isRfc3339('20161027T163355Z')).toBe(false);
    expect(isRfc3339('2016-06-30T05:43:21.123+02:00')).toBe(true);
  });
  it('checks e-mail addresses like the reference', () => {
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('a@@b.co')).toBe(false);
  });
  it('joins lists with commas and "and"', () => {
    expect(listJoin(['a'])).toBe('a');
    expect(listJoin(['a', 'b', 'c'])).toBe('a, b, and c');
  });
});

describe('prototype keys in object values', () => {
  const title: ArgDecl = { type: ['string', 'object'], properties: { raw: { type: 'string' }, rendered: { type: 'string' } } };

  it('keeps a "__proto__" key as a key, so nothing reads through it as if sent', () => {
    const sent = JSON.parse('{"__proto__":{"raw":"inherited"}}');
    const r = check(sent, title) as { value: Record<string, unknown> };
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.value.raw).toBeUndefined();
    expect(Object.keys(r.value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).raw).toBeUndefined();
  });

  it('checks such a key against the schema like any other', () => {
    const closed: ArgDecl = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false };
    expect(errorOf(JSON.parse('{"__proto__":{"a":1}}'), closed).code).toBe('rest_additional_properties_forbidden');
    // "constructor" names no declared property (it is not looked up on Object.prototype).
    expect(check({ constructor: { prototype: { x: 1 } } }, { type: 'object' })).toEqual({ value: { constructor: { prototype: { x: 1 } } } });
  });
});

describe('ownEntry', () => {
  it("finds only a table's own entries", () => {
    const table = { a: 1 };
    expect(ownEntry(table, 'a')).toBe(1);
    for (const k of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect([k, ownEntry(table, k)]).toEqual([k, undefined]);
    expect(ownEntry(undefined, 'a')).toBeUndefined();
  });
});
