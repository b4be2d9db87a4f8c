/**
 * How the reference renders post text for display: `the_content` (blocks, wptexturize, wpautop),
 * `get_the_title` (wptexturize, convert_chars) and `the_excerpt` (an excerpt generated from the content
 * when none was written: tags stripped, 55 words, " [&hellip;]"). Shared by every post-like type, so
 * posts, pages and calendar records print the same markup.
 */

/**
 * Rendering is a pure function of the text and costs far more than a lookup, and the same records are
 * read over and over: results are kept in a bounded, least-recently-used map keyed by the input.
 */
/** What an entry costs beyond its characters, in characters (about 100 bytes of map slot and string headers). */
const ENTRY_OVERHEAD = 50;

class RenderCache {
  private readonly map = new Map<string, string>();
  private chars = 0;
  /**
   * The last input too large for the map, with its result: a large record's content is rendered for its
   * `content` field and again for the excerpt it generates (a 1.9 MB classic post took 1.9 s each time),
   * so the one just rendered is kept, whatever its size; one entry, so memory stays bounded.
   */
  private large: { key: string; value: string } | null = null;
  /**
   * `budget`: characters kept at most, counting each entry's key, value and a fixed overhead for the
   * entry itself (map slot, string headers), so many small texts are bounded as surely as few large ones.
   */
  constructor(private readonly budget: number) {}
  get(key: string, make: () => string): string {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    if (this.large && this.large.key === key) return this.large.value;
    const value = make();
    const cost = key.length + value.length + ENTRY_OVERHEAD;
    if (cost > this.budget / 64) {
      this.large = { key, value };
      return value;
    }
    this.map.set(key, value);
    this.chars += cost;
    while (this.chars > this.budget) {
      const [oldKey, oldValue] = this.map.entries().next().value!;
      this.map.delete(oldKey);
      this.chars -= oldKey.length + oldValue.length + ENTRY_OVERHEAD;
    }
    return value;
  }
}

/** About 4 MB of UTF-16 text each: a few thousand records' rendered content, more than the pages read at once. */
const CACHE_CHARS = 2 * 1024 * 1024;
const contentCache = new RenderCache(CACHE_CHARS);
const excerptCache = new RenderCache(CACHE_CHARS / 2);
const titleCache = new RenderCache(CACHE_CHARS / 8);

const ALL_BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

const RE = {
  doubleBr: /<br\s*\/?>\s*<br\s*\/?>/g,
  blockOpen: new RegExp(`(<${ALL_BLOCKS}[\\s/>])`, 'g'),
  blockClose: new RegExp(`(</${ALL_BLOCKS}>)`, 'g'),
  hr: /(<hr\s*?\/?>)/g,
  unwrapBlock: new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'g'),
  openBeforeBlock: new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)`, 'g'),
  closeAfterBlock: new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'g'),
  brAfterBlock: new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*<br />`, 'g'),
  brBeforeBlock: /<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/g,
};

/** Replaces text inside HTML tags and comments only (the reference's wp_replace_in_html_tags). */
function replaceInTags(text: string, from: string, to: string): string {
  return text.replace(/<!--[\s\S]*?-->|<[^>]*>/g, (tag) => tag.split(from).join(to));
}

/** The reference's wpautop: double line breaks become paragraphs, single ones `<br />`. */
export function wpautop(input: string, br = true): string {
  if (input.trim() === '') return '';
  let text = input + '\n';
  const pre = new Map<string, string>();
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop()!;
    text = '';
    parts.forEach((part) => {
      const start = part.indexOf('<pre');
      if (start < 0) {
        text += part;
        return;
      }
      const name = `<pre wp-pre-tag-${pre.size}></pre>`;
      pre.set(name, part.slice(start) + '</pre>');
      text += part.slice(0, start) + name;
    });
    text += last;
  }
  text = text.replace(RE.doubleBr, '\n\n');
  text = text.replace(RE.blockOpen, '\n\n$1');
  text = text.replace(RE.blockClose, '$1\n\n');
  text = text.replace(RE.hr, '$1\n\n');
  text = text.replace(/\r\n|\r/g, '\n');
  text = replaceInTags(text, '\n', ' <!-- wpnl --> ');
  if (text.includes('<option')) text = text.replace(/\s*<option/g, '<option').replace(/<\/option>\s*/g, '</option>');
  if (text.includes('</object>')) {
    text = text
      .replace(/(<object[^>]*>)\s*/g, '$1')
      .replace(/\s*<\/object>/g, '</object>')
      .replace(/\s*(<\/?(?:param|embed)[^>]*>)\s*/g, '$1');
  }
  if (text.includes('<source') || text.includes('<track')) {
    text = text
      .replace(/([<[](?:audio|video)[^>\]]*[>\]])\s*/g, '$1')
      .replace(/\s*([<[]\/(?:audio|video)[>\]])/g, '$1')
      .replace(/\s*(<(?:source|track)[^>]*>)\s*/g, '$1');
  }
  if (text.includes('<figcaption')) text = text.replace(/\s*(<figcaption[^>]*>)/g, '$1').replace(/<\/figcaption>\s*/g, '</figcaption>');
  text = text.replace(/\n\n+/g, '\n\n');
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p !== '');
  text = paragraphs.map((p) => `<p>${p.replace(/^\n+|\n+$/g, '')}</p>\n`).join('');
  text = text.replace(/<p>\s*<\/p>/g, '');
  text = text.replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>');
  text = text.replace(RE.unwrapBlock, '$1');
  text = text.replace(/<p>(<li.+?)<\/p>/g, '$1');
  text = text.replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>');
  text = text.split('</blockquote></p>').join('</p></blockquote>');
  text = text.replace(RE.openBeforeBlock, '$1');
  text = text.replace(RE.closeAfterBlock, '$1');
  if (br) {
    text = text.replace(/<(script|style|svg|math)[\s\S]*?<\/\1>/g, (m) => m.split('\n').join('<WPPreserveNewline />'));
    text = text.split('<br>').join('<br />').split('<br/>').join('<br />');
    text = text.replace(/(?<!<br \/>)\s*\n/g, '<br />\n');
    text = text.split('<WPPreserveNewline />').join('\n');
  }
  text = text.replace(RE.brAfterBlock, '$1');
  text = text.replace(RE.brBeforeBlock, '$1');
  // PCRE's `$` also matches before a final newline.
  text = text.replace(/\n<\/p>(?=\n?$)/, '</p>');
  for (const [name, original] of pre) text = text.split(name).join(original);
  if (text.includes('<!-- wpnl -->')) text = text.split(' <!-- wpnl --> ').join('\n').split('<!-- wpnl -->').join('\n');
  return text;
}

const NO_TEXTURIZE = /^<(\/?)(pre|code|kbd|style|script|tt)\b/i;

/** Typographic replacements on one run of text (outside tags). */
function texturizeText(s: string): string {
  return s
    .replace(/---/g, '&#8212;')
    .replace(/ -- /g, ' &#8212; ')
    .replace(/--/g, '&#8211;')
    .replace(/ - /g, ' &#8211; ')
    .replace(/\.\.\./g, '&#8230;')
    .replace(/``/g, '&#8220;')
    .replace(/''/g, '&#8221;')
    .replace(/ \(tm\)/gi, ' &#8482;')
    .replace(/'(\d\d)\b/g, '&#8217;$1')
    .replace(/(^|[\s([{"\u00a0-])'/g, '$1&#8216;')
    .replace(/(\w)'(\w)/g, '$1&#8217;$2')
    .replace(/'/g, '&#8217;')
    .replace(/(^|[\s([{\u00a0-])"/g, '$1&#8220;')
    .replace(/"/g, '&#8221;')
    .replace(/\b(\d+)x(\d+)\b/g, '$1&#215;$2')
    .replace(/&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi, '&#038;');
}

/** The reference's wptexturize: curly quotes, dashes and ellipses outside tags and code. */
export function wptexturize(text: string): string {
  if (!text) return text;
  let skip = 0;
  return text
    .split(/(<!--[\s\S]*?-->|<[^>]*>)/)
    .map((part, i) => {
      if (i % 2 === 1) {
        const m = NO_TEXTURIZE.exec(part);
        if (m) skip = Math.max(0, skip + (m[1] ? -1 : 1));
        return part;
      }
      return skip > 0 ? part : texturizeText(part);
    })
    .join('');
}

/** Whether content holds block markup (the reference's has_blocks). */
export function hasBlocks(content: string): boolean {
  return content.includes('<!-- wp:');
}

/** The reference's block_version: 1 when the content has blocks, else 0. */
export function blockVersion(content: string): number {
  return hasBlocks(content) ? 1 : 0;
}

/** Static blocks render as their inner markup; dynamic (self-closing) ones have no server renderer here. */
function renderBlocks(content: string): string {
  return content.replace(/<!--\s+wp:[a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?\s+(?:\{[\s\S]*?\}\s+)?\/-->/g, '').replace(/<!--\s+\/?wp:[a-z][\s\S]*?-->\n?/g, '');
}

/** `the_content`: blocks, texturize, and paragraphs for classic content. */
export function renderContent(content: string): string {
  if (!content) return '';
  return contentCache.get(content, () => (hasBlocks(content) ? wptexturize(renderBlocks(content)) : wpautop(wptexturize(content))));
}

/** `get_the_title`. */
export function renderTitle(title: string): string {
  if (!title) return '';
  return titleCache.get(title, () => wptexturize(title).trim());
}

/** Removes every tag, with the contents of script and style (wp_strip_all_tags). */
export function stripAllTags(html: string): string {
  return html
    .replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '')
    .trim();
}

export const EXCERPT_LENGTH = 55;
export const EXCERPT_MORE = ' [&hellip;]';

/** `wp_trim_words`. */
export function trimWords(text: string, words: number, more = EXCERPT_MORE): string {
  const list = stripAllTags(text)
    .split(/[\n\r\t ]+/)
    .filter(Boolean);
  if (list.length > words) return list.slice(0, words).join(' ') + more;
  return list.join(' ');
}

/** `the_excerpt`: the written excerpt, or one generated from the content. */
export function renderExcerpt(excerpt: string, content: string, length = EXCERPT_LENGTH): string {
  const key = excerpt.trim() ? `e\u0000${excerpt}` : `c\u0000${length}\u0000${content}`;
  return excerptCache.get(key, () => excerptOf(excerpt, content, length));
}

function excerptOf(excerpt: string, content: string, length: number): string {
  let text = excerpt;
  if (!text.trim()) {
    const body = hasBlocks(content) ? renderBlocks(content) : content;
    text = trimWords(renderContent(body).split(']]>').join(']]&gt;'), length);
  }
  return wpautop(wptexturize(text));
}

/** `the_excerpt` of a stored excerpt only (revisions render no generated excerpt). */
export function renderStoredExcerpt(excerpt: string): string {
  return excerpt.trim() ? wpautop(wptexturize(excerpt)) : '';
}
