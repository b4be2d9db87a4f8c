/**
 * The terms a post, page or event write sets, per taxonomy of its kind (named by the taxonomy's rest
 * base), and whether the caller may assign them.
 */
import type { Caller } from '#libs/auth/user';
import { canTaxonomy } from '#libs/posts/registered';
import { Args } from '#libs/rest/args';
import type { KindInfo } from '#libs/routes/cms/post-args';
import type { Request, WriteDeps } from './write';

/** Term ids of the request that exist in the taxonomy (unknown ones are dropped, as the reference does). */
async function existingTerms(deps: WriteDeps, taxonomy: string, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = new Set((await deps.terms.find({ id: { $in: ids }, taxonomy }, { fields: ['id'] })).map((t) => t.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}

/**
 * assign_term: any given term that exists must be assignable (the taxonomy's assign_terms: edit_posts for
 * categories and tags). A permission check, so it also decides Allow for the route's other endpoints with
 * this request's arguments (a list's `categories` may be an object): the untyped parameters are read as
 * lists of integers.
 */
export async function canAssignTerms(
  deps: WriteDeps,
  kind: KindInfo,
  req: { readonly params: Record<string, unknown>; readonly user: Caller },
): Promise<boolean> {
  for (const tax of kind.taxonomies) {
    const ids = new Args(req.params).ints(tax.base);
    if (!ids.length) continue;
    if ((await existingTerms(deps, tax.name, ids)).length && !canTaxonomy(req.user, tax.assignCap)) return false;
  }
  return true;
}

/**
 * The terms of each taxonomy of the kind a write sets: those of the request that exist (`undefined` for a
 * taxonomy the request does not name).
 */
export async function requestedTerms(deps: WriteDeps, kind: KindInfo, req: Request): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const tax of kind.taxonomies) {
    if (req.args.raw[tax.base] == null) continue;
    out.set(tax.name, await existingTerms(deps, tax.name, req.args.ints(tax.base)));
  }
  return out;
}
