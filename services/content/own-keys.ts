/** The own enumerable keys of a record, typed as its keys (what `Object.keys` finds, in its order). */
export function ownKeys<T extends object>(o: T): Array<keyof T & string> {
  return Object.keys(o).filter((k): k is keyof T & string => Object.prototype.hasOwnProperty.call(o, k));
}
