/** The `context` argument of the content routes: which fields a record shows (`view`, `embed`, `edit`). */
export const CONTEXTS = ['view', 'embed', 'edit'] as const;
export type Context = (typeof CONTEXTS)[number];

/**
 * The request's context, from its `context` argument. The gateway fills in the declared default (and
 * checks it against the route's own list); anything else presents as `view`, as the presenters read a
 * missing context.
 */
export function contextOf(value: string | null | undefined): Context {
  return CONTEXTS.find((c) => c === value) ?? 'view';
}
