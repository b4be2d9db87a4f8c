/**
 * `_fields`: trims a response to the requested keys, with dot paths into nested objects
 * (`title.rendered`, `meta.footnotes`). Unknown names are ignored; an empty list means no filter.
 */
import { isRecord } from './args';

type Tree = Map<string, Tree | true>;

export function parseFields(spec: string | unknown[]): Tree | null {
  const names = (Array.isArray(spec) ? spec.map(String) : spec.split(',')).map((s) => s.trim()).filter(Boolean);
  if (!names.length) return null;
  const tree: Tree = new Map();
  for (const name of names) {
    const parts = name.split('.');
    let node = tree;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const cur = node.get(part);
      if (last) node.set(part, true);
      else if (cur === true) return;
      else {
        const next: Tree = cur ?? new Map();
        node.set(part, next);
        node = next;
      }
    });
  }
  return tree;
}

function apply(value: unknown, tree: Tree): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of tree) {
    if (!(k in value)) continue;
    const v = value[k];
    out[k] = sub === true ? v : apply(v, sub);
  }
  return out;
}

/** Applies `_fields` to a record, or to each record of a list. */
export function filterFields(body: unknown, spec: string | unknown[]): unknown {
  const tree = parseFields(spec);
  if (!tree) return body;
  return Array.isArray(body) ? body.map((item) => apply(item, tree)) : apply(body, tree);
}
