/**
 * Argument validation with the reference system's rules. Two steps per argument:
 * 1. coercion as the reference does it (query strings carry everything as text): integers from
 *    "1" and "2.0", booleans from true/false/1/0 and their strings, lists from comma- or
 *    space-separated strings, "" as an empty object; strings are never made from numbers;
 * 2. the schema keywords, checked by an AJV validator compiled once per argument, with each AJV
 *    error turned into the reference's code and wording (`rest_invalid_type`, `rest_not_in_enum`,
 *    `rest_out_of_bounds`, ...).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { escUrlRaw } from '../html/esc-url';
import { sanitizeTextField } from '../html/text';
import { ParamError } from './errors';
import { PLAIN_CONSTRAINTS, type ArgDecl, type ArgSchema, type JsonType } from './registry';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_COLOR = /^#([A-Fa-f0-9]{3}){1,2}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** RFC 3339 with a real calendar check: 2010-60-01 or 2021-02-30 are not dates. */
export function isRfc3339(value: string): boolean {
  if (!DATE_TIME.test(value)) return false;
  const [y, mo, d, h, mi, s] = value.split(/[-Tt :.Z+]/).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** The reference's is_email: local@domain with a dot in the domain and sane characters. */
export function isEmail(value: string): boolean {
  if (value.length < 6 || value.length > 254) return false;
  const at = value.indexOf('@', 1);
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2}/.test(domain) || /^[.-]|[.-]$/.test(domain)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => /^[a-z0-9-]+$/i.test(l) && !/^-|-$/.test(l));
}

function isIp(value: string): boolean {
  if (IPV4.test(value)) return true;
  return /^[0-9a-f:]+$/i.test(value) && value.includes(':') && value.split(':').length <= 8;
}

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true, validateFormats: true });
ajv.addFormat('date-time', { type: 'string', validate: isRfc3339 });
ajv.addFormat('email', { type: 'string', validate: isEmail });
ajv.addFormat('uuid', { type: 'string', validate: (v: string) => UUID.test(v) });
ajv.addFormat('hex-color', { type: 'string', validate: (v: string) => HEX_COLOR.test(v) });
ajv.addFormat('ip', { type: 'string', validate: isIp });
// Formats the reference only sanitizes, never rejects.
for (const f of ['uri', 'text-field', 'textarea-field', 'tel', 'date']) ajv.addFormat(f, { validate: () => true });

/** Translates a reference-dialect schema into a standard JSON Schema for AJV. */
function toJsonSchema(schema: ArgSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const copy = ['type', 'enum', 'format', 'minimum', 'maximum', ...PLAIN_CONSTRAINTS, 'minProperties', 'maxProperties'] as const;
  for (const k of copy) if (schema[k] !== undefined) out[k] = schema[k];
  if (schema.exclusiveMinimum && schema.minimum !== undefined) {
    delete out.minimum;
    out.exclusiveMinimum = schema.minimum;
  }
  if (schema.exclusiveMaximum && schema.maximum !== undefined) {
    delete out.maximum;
    out.exclusiveMaximum = schema.maximum;
  }
  if (schema.items) out.items = toJsonSchema(schema.items);
  if (schema.properties) {
    const props: Record<string, unknown> = {};
    const required: string[] = Array.isArray(schema.required) ? [...schema.required] : [];
    for (const [k, v] of Object.entries(schema.properties)) {
      props[k] = toJsonSchema(v);
      if (v.required === true) required.push(k);
    }
    out.properties = props;
    if (required.length) out.required = required;
  }
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = typeof schema.additionalProperties === 'boolean' ? schema.additionalProperties : toJsonSchema(schema.additionalProperties);
  }
  if (schema.patternProperties) {
    out.patternProperties = Object.fromEntries(Object.entries(schema.patternProperties).map(([k, v]) => [k, toJsonSchema(v)]));
  }
  if (schema.anyOf) out.anyOf = schema.anyOf.map(toJsonSchema);
  if (schema.oneOf) out.oneOf = schema.oneOf.map(toJsonSchema);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Coercion (the reference's rest_sanitize_value_from_schema, applied before the keyword checks).

const INT_STRING = /^\s*[+-]?\d+\s*$/;
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

export function parseList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((s) => s !== '');
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns the value converted to the type, or undefined when it is not of that type. */
function asType(value: unknown, type: JsonType): { value: unknown } | undefined {
  switch (type) {
    case 'integer':
      if (typeof value === 'number') return Number.isInteger(value) ? { value } : undefined;
      if (typeof value === 'string') {
        if (INT_STRING.test(value)) return { value: parseInt(value, 10) };
        if (NUMERIC.test(value) && Number.isInteger(Number(value))) return { value: Number(value) };
      }
      return undefined;
    case 'number':
      if (typeof value === 'number') return { value };
      if (typeof value === 'string' && NUMERIC.test(value)) return { value: Number(value) };
      return undefined;
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (value === 0 || value === 1) return { value: value === 1 };
      if (typeof value === 'string') {
        const v = value.toLowerCase();
        if (v === 'true' || v === '1') return { value: true };
        if (v === 'false' || v === '0') return { value: false };
      }
      return undefined;
    case 'string':
      return typeof value === 'string' ? { value } : undefined;
    case 'array': {
      if (isPlainObject(value)) {
        // qs turns a[0]=x&a[1]=y into an object when indexes are sparse; keep numeric-keyed objects as lists.
        const keys = Object.keys(value);
        if (keys.length && keys.every((k) => /^\d+$/.test(k))) return { value: keys.sort((a, b) => +a - +b).map((k) => value[k]) };
        return undefined;
      }
      const list = parseList(value);
      return list ? { value: list } : undefined;
    }
    case 'object':
      if (value === '') return { value: {} };
      if (Array.isArray(value) && value.length === 0) return { value: {} };
      return isPlainObject(value) ? { value } : undefined;
    case 'null':
      return value === null ? { value: null } : undefined;
  }
}

/**
 * A table's own entry for a key a client sent: `constructor`, `toString` or `__proto__` name no
 * declared entry, where a plain `table[key]` would find Object.prototype's.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Coerces a value (recursively) to its schema's type; values of no matching type are left alone for AJV to reject. */
export function coerce(value: unknown, schema: ArgSchema): unknown {
  if (schema.anyOf || schema.oneOf) {
    for (const sub of (schema.anyOf ?? schema.oneOf)!) {
      const v = coerce(value, { ...sub, type: sub.type ?? schema.type });
      if (compiledFor(sub)(v)) return v;
    }
    return value;
  }
  if (schema.type === undefined) return value;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  // The reference prefers string for "" when a type list allows it.
  const ordered: JsonType[] = value === '' && types.includes('string') ? ['string', ...types.filter((t) => t !== 'string')] : types;
  for (const t of ordered) {
    const hit = asType(value, t);
    if (!hit) continue;
    // asType answers a list for 'array'.
    if (t === 'array' && schema.items && Array.isArray(hit.value)) return hit.value.map((item) => coerce(item, schema.items!));
    if (t === 'object' && isPlainObject(hit.value)) {
      const obj: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(hit.value)) {
        const propSchema = ownEntry(schema.properties, k) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
        // A "__proto__" key sent in JSON stays a key, as in the reference: assigned, it would become the
        // object's prototype and its properties would read as sent without ever being validated.
        Object.defineProperty(obj, k, { value: propSchema ? coerce(v, propSchema) : v, enumerable: true, writable: true, configurable: true });
      }
      return obj;
    }
    return hit.value;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Keyword checks and the reference wording of their failures.

const cache = new WeakMap<ArgSchema, ValidateFunction>();
function compiledFor(schema: ArgSchema): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(toJsonSchema(schema));
    cache.set(schema, fn);
  }
  return fn;
}

/** Compiles an argument's validator ahead of the first request. */
export function precompile(schema: ArgDecl): void {
  compiledFor(enforced(schema));
}

const relaxed = new WeakMap<ArgDecl, ArgSchema>();
/** The schema an argument is checked against: its declaration without the keywords it leaves unchecked. */
function enforced(decl: ArgDecl): ArgSchema {
  if (!decl.unchecked?.length) return decl;
  let s = relaxed.get(decl);
  if (!s) {
    const copy: ArgSchema = { ...decl };
    for (const k of decl.unchecked) delete copy[k];
    s = copy;
    relaxed.set(decl, s);
  }
  return s;
}

/** `wp_sprintf('%l')`: "a", "a and b", "a, b, and c". */
export function listJoin(items: unknown[]): string {
  const s = items.map((i) => (typeof i === 'string' ? i : JSON.stringify(i)));
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}

function pathName(base: string, instancePath: string): string {
  if (!instancePath) return base;
  return (
    base +
    instancePath
      .split('/')
      .slice(1)
      .map((seg) => `[${seg.replace(/~1/g, '/').replace(/~0/g, '~')}]`)
      .join('')
  );
}

function boundsMessage(name: string, s: ArgSchema): string {
  const num = (n: number) => String(Math.trunc(n));
  if (s.minimum !== undefined && s.maximum !== undefined) {
    return `${name} must be between ${num(s.minimum)} (${s.exclusiveMinimum ? 'exclusive' : 'inclusive'}) and ${num(s.maximum)} (${s.exclusiveMaximum ? 'exclusive' : 'inclusive'})`;
  }
  if (s.minimum !== undefined) return `${name} must be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${num(s.minimum)}`;
  return `${name} must be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${num(s.maximum!)}`;
}

function plural(n: unknown, one: string, many: string) {
  return n === 1 ? one : many;
}

function toParamError(name: string, e: ErrorObject): ParamError {
  const at = pathName(name, e.instancePath);
  const s: Record<string, unknown> = e.parentSchema ?? {};
  const p: Record<string, unknown> = e.params;
  const numberOr = (v: unknown) => (typeof v === 'number' ? v : undefined);
  switch (e.keyword) {
    case 'type': {
      const t = Array.isArray(s.type) ? s.type.join(',') : String(s.type);
      return new ParamError('rest_invalid_type', `${at} is not of type ${t}.`, { param: at });
    }
    case 'enum':
      return new ParamError('rest_not_in_enum', `${at} is not one of ${listJoin(Array.isArray(s.enum) ? s.enum : [])}.`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const ref: ArgSchema = {
        minimum: numberOr(s.minimum ?? s.exclusiveMinimum),
        maximum: numberOr(s.maximum ?? s.exclusiveMaximum),
        exclusiveMinimum: s.exclusiveMinimum !== undefined,
        exclusiveMaximum: s.exclusiveMaximum !== undefined,
      };
      return new ParamError('rest_out_of_bounds', boundsMessage(at, ref));
    }
    case 'multipleOf':
      return new ParamError('rest_invalid_multiple', `${at} must be a multiple of ${p.multipleOf}.`);
    case 'minLength':
      return new ParamError('rest_too_short', `${at} must be at least ${p.limit} ${plural(p.limit, 'character', 'characters')} long.`);
    case 'maxLength':
      return new ParamError('rest_too_long', `${at} must be at most ${p.limit} ${plural(p.limit, 'character', 'characters')} long.`);
    case 'pattern':
      return new ParamError('rest_invalid_pattern', `${at} does not match pattern ${p.pattern}.`);
    case 'minItems':
      return new ParamError('rest_too_few_items', `${at} must contain at least ${p.limit} ${plural(p.limit, 'item', 'items')}.`);
    case 'maxItems':
      return new ParamError('rest_too_many_items', `${at} must contain at most ${p.limit} ${plural(p.limit, 'item', 'items')}.`);
    case 'uniqueItems':
      return new ParamError('rest_duplicate_items', `${at} has duplicate items.`);
    case 'required':
      return new ParamError('rest_property_required', `${p.missingProperty} is a required property of ${at}.`);
    case 'additionalProperties':
      return new ParamError('rest_additional_properties_forbidden', `${p.additionalProperty} is not a valid property of Object.`);
    case 'minProperties':
      return new ParamError('rest_too_few_properties', `${at} must contain at least ${p.limit} ${plural(p.limit, 'property', 'properties')}.`);
    case 'maxProperties':
      return new ParamError('rest_too_many_properties', `${at} must contain at most ${p.limit} ${plural(p.limit, 'property', 'properties')}.`);
    case 'format':
      switch (p.format) {
        case 'date-time':
          return new ParamError('rest_invalid_date', 'Invalid date.');
        case 'email':
          return new ParamError('rest_invalid_email', 'Invalid email address.');
        case 'uuid':
          return new ParamError('rest_invalid_uuid', `${at} is not a valid UUID.`);
        case 'hex-color':
          return new ParamError('rest_invalid_hex_color', `${at} is not a valid hex color.`);
        case 'ip':
          return new ParamError('rest_invalid_ip', `${at} is not a valid IP address.`);
        default:
          return new ParamError('rest_invalid_param', `${at} is invalid.`);
      }
    case 'anyOf':
      return new ParamError('rest_no_matching_schema', `${at} does not match any of the expected formats.`);
    case 'oneOf':
      return p.passingSchemas !== null
        ? new ParamError('rest_one_of_multiple_matches', `${at} matches more than one of the expected formats.`)
        : new ParamError('rest_no_matching_schema', `${at} does not match any of the expected formats.`);
    default:
      return new ParamError('rest_invalid_param', `${at} is invalid.`);
  }
}

/** Coerces and validates one argument; returns the value to hand on, or the failure. */
export function validateArg(name: string, value: unknown, decl: ArgDecl, params: Record<string, unknown>): { value: unknown } | { error: ParamError | string } {
  if (decl.precheck) {
    const r = decl.precheck(value, params);
    if (r !== true) return { error: r };
  }
  let v = coerce(value, decl);
  const fn = compiledFor(enforced(decl));
  if (!fn(v)) {
    // A failed anyOf/oneOf reports its branch errors first; the reference reports the combinator.
    const errs = fn.errors!;
    return { error: toParamError(name, errs.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf') ?? errs[0]) };
  }
  if (decl.validate) {
    const r = decl.validate(v, params);
    if (r !== true) return { error: r };
  }
  v = decl.sanitize ? decl.sanitize(v, params) : sanitizeFormats(v, decl);
  return { value: v };
}

/**
 * The sanitizing half of the reference's rest_sanitize_value_from_schema, for an argument without its
 * own sanitize callback: `uri` strings through esc_url_raw, `text-field` and `textarea-field` strings
 * through sanitize_text_field / sanitize_textarea_field, inside lists and objects too.
 */
export function sanitizeFormats(value: unknown, schema: ArgSchema): unknown {
  if (typeof value === 'string') {
    if (schema.format === 'uri') return escUrlRaw(value);
    if (schema.format === 'text-field') return sanitizeTextField(value);
    if (schema.format === 'textarea-field') return sanitizeTextField(value, true);
    return value;
  }
  const items = schema.items;
  if (Array.isArray(value)) return items ? value.map((item) => sanitizeFormats(item, items)) : value;
  if (isPlainObject(value) && (schema.properties || typeof schema.additionalProperties === 'object')) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const sub = ownEntry(schema.properties, k) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      Object.defineProperty(out, k, { value: sub ? sanitizeFormats(v, sub) : v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
