/** Post fields that every calendar record takes the same way, whichever interface writes them. */
import type { PostDoc } from '#libs/posts/types';

/** Post fields some writers send (ec/v1), as the gateway validated them; each present only when given. */
export interface PostFieldsInput {
  comment_status?: string;
  ping_status?: string;
  format?: string;
  template?: string;
}

/** The stored form of those fields: comment and ping status, format (`standard` is stored as ''), template (always the default). */
export function postFieldChanges(input: PostFieldsInput): Partial<PostDoc> {
  const out: Partial<PostDoc> = {};
  for (const name of ['comment_status', 'ping_status'] as const) {
    const v = input[name];
    if (v === 'open' || v === 'closed') out[name] = v;
  }
  if (input.format !== undefined) out.format = input.format === 'standard' ? '' : input.format;
  // No theme template is registered, so any template a writer names is stored as the default, as
  // wp_insert_post stores an invalid page template (a name was kept as sent, markup included).
  if (input.template !== undefined) out.template = '';
  return out;
}
