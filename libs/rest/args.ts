/**
 * Typed reads of a request's arguments. The gateway has validated and coerced every argument against its
 * declaration in the route registry (an `integer` arrives as a number, an `array` of `string` as a
 * string array, a `boolean` as a boolean), so a handler asks for the type the declaration promises
 * instead of asserting it: each read checks the value at run time and answers `undefined` (or an empty
 * list) when the argument is absent or, against the declaration, of another type.
 */
export class Args {
  constructor(readonly raw: Readonly<Record<string, unknown>>) {}

  /** Whether the argument has a value (defaults included; `null` counts as a value). */
  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  str(name: string): string | undefined {
    const v = this.raw[name];
    return typeof v === 'string' ? v : undefined;
  }

  num(name: string): number | undefined {
    const v = this.raw[name];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  int(name: string): number | undefined {
    const v = this.raw[name];
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw[name];
    return typeof v === 'boolean' ? v : undefined;
  }

  /** The value when it is one of `allowed` (an `enum` argument). */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.raw[name];
    return allowed.find((a) => a === v);
  }

  /** An `array` argument: its elements, or `[]` when absent. */
  list(name: string): unknown[] {
    const v = this.raw[name];
    return Array.isArray(v) ? v : [];
  }

  /** An array of `string`: its strings (other elements cannot pass validation and are left out). */
  strs(name: string): string[] {
    return this.list(name).filter((v): v is string => typeof v === 'string');
  }

  /** An array of `integer`: its integers. */
  ints(name: string): number[] {
    return this.list(name).filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  }

  /** An `object` argument (not an array, not null). */
  obj(name: string): Record<string, unknown> | undefined {
    const v = this.raw[name];
    return isRecord(v) ? v : undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A positive integer, or a string of digits naming one. */
export const isPositiveInt = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^\s*\d+\s*$/.test(v) && Number(v) > 0);

/** An absolute http or https URL with a host. */
export function isUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
