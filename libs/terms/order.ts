/**
 * The order a record's terms are listed in: by name, as the reference's wp_get_object_terms lists them
 * by default (case-insensitively, as its collation compares). Terms whose name is unknown keep their
 * place after the named ones.
 */
export function inNameOrder<T>(items: readonly T[], nameOf: (item: T) => string | undefined): T[] {
  const keyed = items.map((item, i) => ({ item, i, name: nameOf(item)?.toLowerCase() }));
  keyed.sort((a, b) => {
    if (a.name === undefined || b.name === undefined) return a.name === b.name ? a.i - b.i : a.name === undefined ? 1 : -1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i;
  });
  return keyed.map((k) => k.item);
}
