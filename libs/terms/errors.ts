/** The errors of term writes, in the reference's codes and words (wp_insert_term, wp_update_term, the terms controller). */
import type { Caller } from '../auth/user';
import { RestError, authStatus } from '../rest/errors';
import type { TaxonomyInfo } from './taxonomies';

export const termErrors = {
  /**
   * A term of that name already exists at that level. The reference's controller adds the existing
   * id to the error twice more (WP_Error::add_data), so the earlier data come out as `additional_data`.
   */
  exists: (tax: Pick<TaxonomyInfo, 'hierarchical'>, termId: number) =>
    new RestError(
      'term_exists',
      tax.hierarchical ? 'A term with the name provided already exists with this parent.' : 'A term with the name provided already exists in this taxonomy.',
      400,
      { term_id: termId },
      [termId, termId],
    ),
  // The reference answers the next two with no status (a 500); they are the caller's input, so 400 here.
  emptyName: () => new RestError('empty_term_name', 'A name is required for this term.', 400),
  duplicateSlug: (slug: string) => new RestError('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400),
  invalid: () => new RestError('rest_term_invalid', 'Term does not exist.', 404),
  parentInvalid: () => new RestError('rest_term_invalid', 'Parent term does not exist.', 400),
  /** The terms of a record the caller may not read (the terms controller's check of `post`). */
  postForbidden: (user: Caller) => new RestError('rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.', authStatus(user)),
  notHierarchical: () => new RestError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400),
};
