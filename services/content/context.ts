/** The `context` argument of the content routes: which fields a record shows (`view`, `embed`, `edit`). */
import type { Args } from '../../libs/rest/args';

export const CONTEXTS = ['view', 'embed', 'edit'] as const;
export type Context = (typeof CONTEXTS)[number];

/**
 * The request's context. The gateway fills in the declared default; a route that declares no context
 * presents as `view` (the presenters read a missing context as `view` too).
 */
export function contextOf(args: Args): Context {
  return args.oneOf('context', CONTEXTS) ?? 'view';
}
