/**
 * The reference's kses filter for writers without `unfiltered_html`: tags and attributes outside an
 * allow-list are removed (their text stays), event handlers go, and URLs keep only safe protocols.
 * Titles allow a few inline tags, post content and excerpts the post tag set. Comments (which carry
 * block markup) stay, with their inside filtered too.
 */
import { ksesBadProtocol } from '../html/bad-protocol';

type AttrSet = ReadonlySet<string>;
const set = (s: string): AttrSet => new Set(s.split(/\s+/).filter(Boolean));

/** Attributes every allowed tag may carry (wp_kses_global_attributes); `data-*` and `aria-*` too. */
const GLOBAL_ATTRS = set('class dir hidden id lang style title role xml:lang');

const ALIGN = 'align';
const CELL = 'abbr align axis bgcolor char charoff colspan dir headers height nowrap rowspan scope valign width';

/** The post tag set (the reference's $allowedposttags), tag → its own attributes. */
export const POST_TAGS: Record<string, AttrSet> = Object.fromEntries(
  Object.entries({
    address: '',
    a: 'href rel rev name target download referrerpolicy',
    abbr: '',
    acronym: '',
    area: 'alt coords href nohref shape target',
    article: ALIGN,
    aside: ALIGN,
    audio: 'autoplay controls loop muted preload src',
    b: '',
    bdo: '',
    big: '',
    blockquote: 'cite',
    br: '',
    button: 'disabled name type value',
    caption: ALIGN,
    cite: '',
    code: '',
    col: 'align char charoff span valign width',
    colgroup: 'align char charoff span valign width',
    del: 'datetime',
    dd: '',
    dfn: '',
    details: 'align open',
    div: ALIGN,
    dl: '',
    dt: '',
    em: '',
    fieldset: '',
    figure: ALIGN,
    figcaption: ALIGN,
    font: 'color face size',
    footer: ALIGN,
    h1: ALIGN,
    h2: ALIGN,
    h3: ALIGN,
    h4: ALIGN,
    h5: ALIGN,
    h6: ALIGN,
    header: ALIGN,
    hgroup: ALIGN,
    hr: 'align noshade size width',
    i: '',
    img: 'alt align border height hspace loading longdesc vspace src usemap width decoding srcset sizes',
    ins: 'datetime cite',
    kbd: '',
    label: 'for',
    legend: ALIGN,
    li: 'align value',
    main: ALIGN,
    map: 'name',
    mark: '',
    menu: 'type',
    nav: ALIGN,
    object: 'data type',
    p: ALIGN,
    pre: 'width',
    q: 'cite',
    rb: '',
    rp: '',
    rt: '',
    rtc: '',
    ruby: '',
    s: '',
    samp: '',
    span: ALIGN,
    section: ALIGN,
    small: '',
    strike: '',
    strong: '',
    sub: '',
    summary: ALIGN,
    sup: '',
    table: 'align bgcolor border cellpadding cellspacing rules summary width',
    tbody: 'align char charoff valign',
    td: CELL,
    textarea: 'cols rows disabled name readonly',
    tfoot: 'align char charoff valign',
    th: CELL,
    thead: 'align char charoff valign',
    title: '',
    tr: 'align bgcolor char charoff valign',
    track: 'default kind label src srclang',
    tt: '',
    u: '',
    ul: 'type',
    ol: 'start type reversed',
    var: '',
    video: 'autoplay controls height loop muted playsinline poster preload src width',
  }).map(([tag, attrs]) => [tag, set(attrs)]),
);

/** Inline tags allowed in titles (the reference's $allowedtags). */
export const TITLE_TAGS: Record<string, AttrSet> = Object.fromEntries(
  Object.entries({
    a: 'href title',
    abbr: 'title',
    acronym: 'title',
    b: '',
    blockquote: 'cite',
    cite: '',
    code: '',
    del: 'datetime',
    em: '',
    i: '',
    q: 'cite',
    s: '',
    strike: '',
    strong: '',
  }).map(([tag, attrs]) => [tag, set(attrs)]),
);

/** Tags allowed in user and term descriptions (the reference's pre_user_description context): $allowedtags, links with rel and target. */
export const DESCRIPTION_TAGS: Record<string, AttrSet> = { ...TITLE_TAGS, a: set('href title rel target') };

const URL_ATTRS = set('href src cite action longdesc poster data background usemap srcset');
/** The reference's wp_allowed_protocols: the only schemes a stored URL may keep. */
export const ALLOWED_PROTOCOLS = set('http https ftp ftps mailto news irc irc6 ircs gopher nntp feed telnet mms rtsp sms svn tel fax xmpp webcal urn');

const BAD_CSS = /expression\s*\(|javascript\s*:|behavior\s*:|-moz-binding|url\s*\(\s*['"]?\s*(?!https?:)[a-z]+:/i;

function escapeAttr(v: string): string {
  return v
    .replace(/&(?!#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

const ATTR = /([^\s=/"'>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function filterAttrs(tag: string, raw: string, allowed: Record<string, AttrSet>): string {
  const own = allowed[tag];
  const out: string[] = [];
  for (const m of raw.matchAll(ATTR)) {
    const name = m[1].toLowerCase();
    if (name === '/') continue;
    const permitted = own.has(name) || (allowed === POST_TAGS && (GLOBAL_ATTRS.has(name) || /^(data|aria)-[a-z0-9_-]+$/.test(name)));
    if (!permitted || name.startsWith('on')) continue;
    const value = m[2] ?? m[3] ?? m[4];
    if (value === undefined) {
      out.push(name);
      continue;
    }
    if (name === 'style' && BAD_CSS.test(value)) continue;
    out.push(`${name}="${escapeAttr(URL_ATTRS.has(name) ? ksesBadProtocol(value, ALLOWED_PROTOCOLS) : value)}"`);
  }
  return out.length ? ' ' + out.join(' ') : '';
}

/** wp_kses: filters HTML against an allow-list of tags and attributes. */
export function kses(html: string, allowed: Record<string, AttrSet> = POST_TAGS): string {
  if (!html) return html;
  return html.replace(/<!--[\s\S]*?(?:-->|$)|<[^>]*(?:>|$)|>/g, (part) => {
    if (part === '>') return '&gt;';
    if (part.startsWith('<!--')) {
      const inner = part.replace(/^<!--|-->$/g, '');
      return `<!--${kses(inner, allowed)}-->`;
    }
    const m = /^<\s*(\/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$/.exec(part);
    if (!m) return '';
    const tag = m[2].toLowerCase();
    if (!allowed[tag]) return '';
    if (m[1]) return `</${tag}>`;
    const selfClosing = /\/\s*$/.test(m[3]);
    return `<${tag}${filterAttrs(tag, m[3], allowed)}${selfClosing ? ' /' : ''}>`;
  });
}

/** The title filter (title_save_pre). */
export function ksesTitle(title: string): string {
  return kses(title, TITLE_TAGS);
}
