/** Post fields that every calendar record takes the same way, whichever interface writes them. */
import type { PostDoc } from '../../libs/posts/types';

/** Post fields some writers send (ec/v1): comment and ping status, format (`standard` is stored as ''), template (always the default). */
export function postFieldChanges(req: { has(name: string): boolean; get(name: string): unknown }): Partial<PostDoc> {
  const out: Partial<PostDoc> = {};
  for (const name of ['comment_status', 'ping_status'] as const) {
    const v = req.get(name);
    if (req.has(name) && (v === 'open' || v === 'closed')) out[name] = v;
  }
  const format = req.get('format');
  if (req.has('format') && typeof format === 'string') out.format = format === 'standard' ? '' : format;
  // No theme template is registered, so any template a writer names is stored as the default, as
  // wp_insert_post stores an invalid page template (a name was kept as sent, markup included).
  if (req.has('template') && typeof req.get('template') === 'string') out.template = '';
  return out;
}
