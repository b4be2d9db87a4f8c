/**
 * Text rendering the reference applies when it prints a description (`the_content`): paragraphs from
 * blank lines, line breaks from single newlines, block-level HTML left unwrapped. Also the plain text
 * of a description for JSON-LD.
 */

const BLOCK =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary|script)';
const STARTS_BLOCK = new RegExp(`^<${BLOCK}[\\s/>]`, 'i');
const ENDS_BLOCK = new RegExp(`</${BLOCK}>$`, 'i');

/** wpautop: "Event 01 description" → "<p>Event 01 description</p>". */
export function autop(text: string): string {
  const t = (text ?? '').replace(/\r\n?/g, '\n').trim();
  if (!t) return '';
  return t
    .split(/\n\s*\n+/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => (STARTS_BLOCK.test(chunk) && ENDS_BLOCK.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n');
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
