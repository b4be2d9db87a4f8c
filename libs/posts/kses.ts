/**
 * The reference's kses filter for writers without `unfiltered_html`: the markup is parsed as a browser
 * parses it (parse5, the HTML standard's algorithm: libs/html/parse.ts), the tree is walked against an
 * allow list (libs/posts/kses-rules.ts: tags, their attributes, value rules) and written out again from
 * the tree, text and attribute values escaped by `entities`, so nothing of the input reaches the output
 * unparsed. A removed tag's text stays (the reference keeps `<script>`'s too, as text); foreign (SVG,
 * MathML) elements are removed. Comments, which carry block markup (`<!-- wp:paragraph -->`), stay, their
 * inside filtered by the same allow list, as the reference does. The attribute value rules (URL
 * schemes, inline styles) are in kses-values.ts.
 */
import { escapeText, escapeUTF8 } from 'entities';
import { HTML_NAMESPACE, TooDeepError, childrenOf, isComment, isElement, isText, parseHtmlFragment, type HtmlChild, type HtmlElement } from '../html/parse';
import { ATTRIBUTE_RULES, BOOLEAN_ATTRIBUTES, POST_TAGS, TITLE_TAGS, URI_ATTRIBUTES, VOID_ELEMENTS, type AllowedTags } from './kses-rules';
import { badProtocol, noNull, passesRule, safecssFilterAttr } from './kses-values';

export { ALLOWED_PROTOCOLS, DESCRIPTION_TAGS, KSES_CONTEXTS, POST_TAGS, TITLE_TAGS, type AllowedTags, type AttrSet } from './kses-rules';
export { badProtocol, safecssFilterAttr } from './kses-values';

const URIS = new Set(URI_ATTRIBUTES);
const VOID = new Set(VOID_ELEMENTS);
const DATA_ATTRIBUTE = /^data-[a-z0-9_-]+$/;

/** The attributes each tag must have, from the value rules. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(ATTRIBUTE_RULES).map(([tag, rules]) => [tag, Object.keys(rules).filter((name) => rules[name].required)]),
);

/** wp_kses_attr: the attributes of an allowed tag that pass the allow list and the value rules, written out. */
function attributes(el: HtmlElement, own: ReadonlySet<string>): string {
  const rules = ATTRIBUTE_RULES[el.tagName];
  let out = '';
  const kept: string[] = [];
  for (const { name, value: raw, namespace } of el.attrs) {
    if (namespace || (!own.has(name) && !(own.has('data-*') && DATA_ATTRIBUTE.test(name)))) continue;
    let value = URIS.has(name) ? badProtocol(raw) : raw;
    if (name === 'style') value = safecssFilterAttr(value);
    if (name === 'style' && !value) continue;
    const rule = rules?.[name];
    if (rule && !passesRule(rule, value)) continue;
    kept.push(name);
    out += value === '' && BOOLEAN_ATTRIBUTES.has(name) ? ` ${name}` : ` ${name}="${escapeUTF8(value)}"`;
  }
  // A tag without an attribute it requires keeps none of them.
  const required = REQUIRED[el.tagName];
  return required && !required.every((name) => kept.includes(name)) ? '' : out;
}

/**
 * A comment as the reference keeps it (wp_kses_split2): `<!--` and `-->` taken out of its inside, the
 * rest filtered like any markup (a comment that still forms in it dropped, so comments never nest),
 * runs of dashes made one and no dash at its end, so nothing inside can end it early; an empty one goes.
 */
function comment(data: string, allowed: AllowedTags): string {
  let inner = data.includes('<!--') || data.includes('-->') ? data.split('<!--').join('').split('-->').join('') : data;
  if (/[<>&]/.test(inner)) inner = filter(inner, allowed, false);
  if (inner.includes('-')) inner = inner.replace(/--+/g, '-').replace(/-$/, '');
  return inner === '' ? '' : `<!--${inner}-->`;
}

/** The parsed markup written out with only what the allow list keeps (a stack of its own: any depth); comments kept or dropped. */
function filter(markup: string, allowed: AllowedTags, comments = true): string {
  let out = '';
  const work: Array<HtmlChild | string> = [...parseHtmlFragment(markup).childNodes].reverse();
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    if (isText(item)) out += escapeText(item.value);
    else if (isComment(item)) out += comments ? comment(item.data, allowed) : '';
    else if (isElement(item)) {
      const children = childrenOf(item);
      const own = item.namespaceURI === HTML_NAMESPACE ? allowed[item.tagName] : undefined;
      if (own) {
        out += `<${item.tagName}${attributes(item, own)}>`;
        if (VOID.has(item.tagName)) continue;
        work.push(`</${item.tagName}>`);
      }
      for (let i = children.length - 1; i >= 0; i--) work.push(children[i]);
    }
  }
  return out;
}

/** wp_kses: the HTML with only the tags and attributes of the allow list (the post set by default). */
export function kses(html: string, allowed: AllowedTags = POST_TAGS): string {
  if (!html) return html;
  const input = noNull(html);
  // Text without markup, character references or non-breaking spaces comes out as it went in.
  if (!/[<>&\u00a0]/.test(input)) return input;
  try {
    return filter(input, allowed);
  } catch (e) {
    // Markup nested past what browsers build is kept as text, every tag of it visible and inert.
    if (e instanceof TooDeepError) return escapeText(input);
    throw e;
  }
}

/** The title filter (title_save_pre): the inline tags of `$allowedtags`. */
export function ksesTitle(title: string): string {
  return kses(title, TITLE_TAGS);
}
