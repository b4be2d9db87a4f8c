/**
 * Text rendering the reference applies when it prints a description (`the_content`): paragraphs from
 * blank lines, line breaks from single newlines, block-level HTML left unwrapped. Also the plain text
 * of a description for JSON-LD.
 */

import { wpautop } from '#libs/posts/render';

/**
 * A description as the reference's REST answers print it: `trim(apply_filters('the_content', ...))`, whose
 * paragraphs come from wpautop (libs/posts/render.ts), the same rule posts use.
 */
export function autop(text: string): string {
  return wpautop(text ?? '').trim();
}

/** Plain text of HTML, whitespace collapsed. */
export function stripTags(html: string): string {
  return (html ?? '')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first `words` words of a text, with an ellipsis when cut (wp_trim_words). */
export function trimWords(text: string, words = 55): string {
  const list = text.split(/\s+/).filter(Boolean);
  return list.length <= words ? list.join(' ') : `${list.slice(0, words).join(' ')}…`;
}
